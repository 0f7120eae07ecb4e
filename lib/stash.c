/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stash.c: directories the helper threads read and stat-ed on their own,
 * kept until the walk comes to read them.
 *
 * A thread that takes a subdirectory ahead of the walk (warm.c) reads its
 * names and stats each one. Before the stash, the walk then read the same
 * directory and stat-ed the same names again: warm, but a cold walk on a
 * fast device is CPU-bound, and that was much of its CPU. So the
 * finished task waits here, and the walk takes its names and their stats
 * instead of reading the directory (sw_warm_claim() checks that it did not
 * change since). A subdirectory a thread only read, past the levels it
 * takes as tasks, waits here too, as a listing without stats: the walk
 * gives its names to the threads as it would names it had read. The walk
 * tends to take the oldest first, so a full stash takes no more rather than
 * drop its oldest; what the walk never reads (pruned) stays to the end.
 *
 * A directory the walk came to before a thread was done with it, the walk
 * reads itself: what the thread stashes later would wait for nothing, and
 * on a tree of a million entries in chains of small directories such
 * leftovers filled the stash halfway through the walk (20,030 of them;
 * 177,535 tasks then turned away, each directory read and its names
 * stat-ed again by the walk, cold). So the directories the walk comes to
 * are remembered, from here or not, the last one in each of STASH_READ
 * slots by hash, and a task of such a directory is not stashed. A record
 * overwritten costs no more than a leftover; one kept of a directory no
 * thread had costs nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include "warm.h"

static size_t bucket_of(dev_t dev, ino_t ino)
{
	return (size_t)(dir_hash(dev, ino) >> 52) % STASH_BUCKETS;
}

/* Takes t out of its chain and out of the age list. */
static void unlink_task(struct warm_stash *s, struct warm_task *t)
{
	struct warm_task **p = &s->bucket[bucket_of(t->dev, t->ino)];
	while (*p != t)
		p = &(*p)->next;
	*p = t->next;
	if (t->older)
		t->older->newer = t->newer;
	else
		s->oldest = t->newer;
	if (t->newer)
		t->newer->older = t->older;
	else
		s->newest = t->older;
	s->bytes -= sw_task_bytes(t);
}

static size_t read_slot(dev_t dev, ino_t ino)
{
	return (size_t)(dir_hash(dev, ino) >> 40) % STASH_READ;
}

/* Remembers that the walk has directory (dev, ino): taken from here, or
 * read by itself. */
void sw_stash_walk_read(struct warm_stash *s, dev_t dev, ino_t ino)
{
	size_t i = read_slot(dev, ino);
	s->read[i].dev = dev;
	s->read[i].ino = ino;
}

/* Whether the walk has t's directory already, as far as the records tell.
 * A record stays after it matched: a directory can be listed by one thread
 * and taken as a task by another, and both come here. */
static bool walk_read_it(const struct warm_stash *s, const struct warm_task *t)
{
	size_t i = read_slot(t->dev, t->ino);
	return s->read[i].ino == t->ino && s->read[i].dev == t->dev;
}

/* Keeps finished task t, or frees it when there is no room or the walk has
 * read its directory. */
void sw_stash_put(struct warm_stash *s, struct warm_task *t)
{
	size_t bytes = sw_task_bytes(t);
	if (walk_read_it(s, t)) {
		sw_task_free(t);
		return;
	}
	if (s->bytes + bytes > s->max_bytes) {
		sw_task_free(t);
		return;
	}
	struct warm_task **b = &s->bucket[bucket_of(t->dev, t->ino)];
	t->next = *b;
	*b = t;
	t->older = s->newest;
	t->newer = NULL;
	if (s->newest)
		s->newest->newer = t;
	else
		s->oldest = t;
	s->newest = t;
	s->bytes += bytes;
}

/* Takes out the tasks of directory (dev, ino) and returns the best, or
 * NULL: one whose names were stat-ed over a listing, the newer over the
 * older (a directory can be listed by one thread and taken by another). */
struct warm_task *sw_stash_take(struct warm_stash *s, dev_t dev, ino_t ino)
{
	struct warm_task *best = NULL, *t = s->bucket[bucket_of(dev, ino)];
	while (t) {
		struct warm_task *next = t->next;
		if (t->dev == dev && t->ino == ino) {
			unlink_task(s, t);
			if (!best || (t->complete && !best->complete)) {
				if (best)
					sw_task_free(best);
				best = t;
			} else {
				sw_task_free(t);
			}
		}
		t = next;
	}
	return best;
}

void sw_stash_free(struct warm_stash *s)
{
	while (s->oldest) {
		struct warm_task *t = s->oldest;
		unlink_task(s, t);
		sw_task_free(t);
	}
}
