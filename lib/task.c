/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * task.c: the helper threads' tasks and tickets, as data.
 *
 * A task is a directory (a duplicate of its descriptor, its identity) and
 * its names, with room for what a thread finds each to be; a ticket tells
 * the walk when the threads are done with a task it waits on, and holds the
 * task afterwards. Nothing here runs or locks: the pool (pool.c) runs the
 * tasks, the stash (stash.c) keeps finished ones, the walk's side (warm.c,
 * readdir.c, hold.c) fills them and reads them.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "warm.h"

struct warm_ticket *sw_warm_ticket_get(struct warm_ticket *k)
{
	__atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
	return k;
}

void sw_warm_ticket_put(struct warm_ticket *k)
{
	if (k && __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		if (k->result)
			sw_task_free(k->result);
		free(k);
	}
}

bool sw_warm_ticket_done(const struct warm_ticket *k)
{
	return __atomic_load_n(&k->done, __ATOMIC_ACQUIRE);
}

void sw_task_free(struct warm_task *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->ents);
	free(t->names);
	free(t);
}

/* What t holds, for the bounds of the queue and the stash. */
size_t sw_task_bytes(const struct warm_task *t)
{
	return sizeof(*t) + t->cap + t->capents * sizeof(*t->ents);
}

/* Gives back what t's vectors hold beyond their use: a stashed task may
 * wait long. */
void sw_task_shrink(struct warm_task *t)
{
	struct warm_ent *e = t->n ? realloc(t->ents, t->n * sizeof(*e)) : NULL;
	if (e) {
		t->ents = e;
		t->capents = t->n;
	}
	char *v = t->len ? realloc(t->names, t->len) : NULL;
	if (v) {
		t->names = v;
		t->cap = t->len;
	}
}

/* A task for directory fd (st: its stat), which owns fd from now on:
 * stat_all: stat every name, not only possible directories; stat_below:
 * the same in the tasks of its subdirectories, taken down to levels. */
struct warm_task *sw_task_new(int fd, const struct stat *st, uid_t euid, bool stat_all,
                          bool stat_below, int levels)
{
	struct warm_task *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fd = fd;
	t->dev = st->st_dev;
	t->ino = st->st_ino;
	t->mtime = st->st_mtim;
	t->ctime = st->st_ctim;
	t->euid = euid;
	t->stat_all = stat_all;
	t->stat_below = stat_below;
	t->levels = levels;
	return t;
}

/* Gives t a ticket, which the walk may wait on; false without memory for
 * it (t then has none: nobody waits for it). */
bool sw_task_add_ticket(struct warm_task *t)
{
	t->ticket = calloc(1, sizeof(*t->ticket));
	if (!t->ticket)
		return false;
	t->ticket->refs = 1;
	return true;
}

/* What tells when the threads are done with t (its names stat-ed, or under
 * SWEEP_NOSTAT its subdirectories read), or NULL where they did that before
 * (the names are warm: nothing to wait for). */
struct warm_ticket *sw_warm_task_ticket(const struct warm_task *t)
{
	return t->ticket;
}

/* Add a name to warm: every name when stat_all or when the walk holds them
 * (a ticket), else only those that may be directories. Returns false when
 * memory ran out (the task is then best dropped). */
bool sw_warm_task_add(struct warm_task *t, ino_t ino, unsigned char type, const char *name,
                      size_t namelen)
{
	if (!t->stat_all && !t->ticket && type != DT_DIR && type != DT_UNKNOWN)
		return true;
	char *v = sw_grow(t->names, &t->cap, t->len + namelen + 1, 1);
	if (!v)
		return false;
	t->names = v;
	/* most directories are small, and entries are not */
	struct warm_ent *e = sw_grow_from(t->ents, &t->capents, t->n + 1, sizeof(*e), 8);
	if (!e)
		return false;
	t->ents = e;
	t->ents[t->n++] = (struct warm_ent){ .ino = ino, .off = t->len, .type = type };
	memcpy(t->names + t->len, name, namelen + 1);
	t->len += namelen + 1;
	return true;
}

/* Whether t holds as many names as a task may. */
bool sw_warm_task_full(const struct warm_task *t)
{
	return t->n >= WARM_CHUNK;
}

/* Whether the threads stat-ed the names of finished task t (or only read
 * them: a listing, whose names the walk gives them to stat). */
bool sw_warm_task_stated(const struct warm_task *t)
{
	return t->complete;
}

size_t sw_warm_task_len(const struct warm_task *t)
{
	return t->n;
}

/* Name i of finished task t, its length, its d_ino and d_type, and its
 * stat or NULL. */
const char *sw_warm_task_name(const struct warm_task *t, size_t i, size_t *namelen,
                              ino_t *ino, unsigned char *type, const struct stat **st)
{
	const struct warm_ent *e = &t->ents[i];
	size_t end = i + 1 < t->n ? t->ents[i + 1].off : t->len;
	*namelen = end - e->off - 1;
	*ino = e->ino;
	*type = e->type;
	*st = e->stated ? &e->st : NULL;
	return t->names + e->off;
}

/* What finished task t holds, names and stats. */
size_t sw_warm_task_bytes(const struct warm_task *t)
{
	return sw_task_bytes(t);
}

/* What the threads keep of one name of a task. */
size_t sw_warm_name_bytes(void)
{
	return sizeof(struct warm_ent);
}

/* k's task, with every name the walk gave it, and the stats the threads
 * took of them if it ran. Only once k is done; it lives as long as k. */
struct warm_task *sw_warm_ticket_task(const struct warm_ticket *k)
{
	return k->result;
}
