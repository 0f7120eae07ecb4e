/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * warm.c: what the walk asks of the helper threads (pool.c), and when.
 *
 * On a device where seeks are cheap (an SSD) the order of requests hardly
 * matters, their number in flight does, and the walk itself issues one
 * request at a time. So while it runs on such a device with a cold cache
 * (latency.c), every directory it reads is also given to the threads as a
 * task: they stat its names and read its subdirectories ahead of the walk.
 * A walk in inode order holds the names of such a directory back until the
 * task is done (hold.c), and takes the stats it found; a directory a thread
 * read on its own is taken from the stash instead of read again
 * (sw_warm_claim). The walk gives a big directory to the threads in parts of
 * WARM_CHUNK names, each with a ticket of its own. Threads that start
 * midway are given the directories read before them too (sw_warm_catch_up).
 */
#include <fcntl.h>
#include <unistd.h>
#include "internal.h"
#include "warm.h"

/* The threads' share of the memory bound (their queue, and the listings and
 * stats they keep for the walk), as the walk's metadata side has one while
 * they work (internal.h: META_SHARE_WARM): eight threads stay busy with far
 * less than the quarter it was. A million entries, cold, on this machine's
 * disk: 1,000 directories of 1,000 files held 3-4 MB of entries with a
 * sixteenth, 3-14 with a quarter, in the same time. */
#define WARM_POOL_SHARE 16
#define WARM_LEVELS   2          /* of subdirectories taken ahead of the walk */

/* Whether the threads are to stat what they meet (else they only read
 * directories). */
static bool warm_stats(const struct sweep *sw)
{
	return !(sw->opt.flags & SWEEP_NOSTAT) || (sw->opt.flags & SWEEP_STAT_AHEAD);
}

/* Whether to warm ahead now: asked for; or by default, while directory
 * reads miss and misses are cheap (latency.c). Started, the threads stay
 * for the rest of the walk, and get work for as long as misses are cheap
 * (a later root may be on a disk arm); a warm cache does not stop them,
 * since it is warm because of them. */
static bool warm_wanted(struct sweep *sw)
{
	/* nor beside the readers of dirahead.c, who took their descriptors */
	if (sw->opt.warm == SWEEP_WARM_OFF || sw->warm_failed || sw->readers)
		return false;
	if (sw->opt.warm == SWEEP_WARM_AUTO && !sw_misses_cheap(&sw->lat))
		return false;
	if (sw->opt.warm == SWEEP_WARM_AUTO && !sw->warm && sw_dirs_cached(&sw->lat))
		return false;
	if (sw->warm)
		return true;
	if (!(sw->warm = sw_pool_start(sw->opt.max_bytes / WARM_POOL_SHARE, sw->warm_fds,
	                               sw_limits_space()))) {
		sw->warm_failed = true;
		return false;
	}
	sw->stats.warm_threads = (unsigned)sw_pool_threads(sw->warm);
	sw->warm_catch_up = true;
	return true;
}

/* Whether the threads are at work: started, and the device (the root being
 * walked, where roots differ) still judged not to seek, or the caller asked
 * for them. Asked for every name (sw_meta_short), so no syscall: in a child
 * of fork(), which has no threads, the answer only keeps its queue short. */
bool sw_warm_working(const struct sweep *sw)
{
	return sw->warm && (sw->opt.warm == SWEEP_WARM_ON || sw_misses_cheap(&sw->lat));
}

/* Whether to give the threads a task for the directory about to be read:
 * warming is wanted, and there is room for it in their queue, once the
 * threads made some if there was none. Before the stash is asked
 * (sw_warm_claim): a thread may finish that directory meanwhile. */
bool sw_warm_ready(struct sweep *sw)
{
	if (!warm_wanted(sw) || !sw_pool_ours(sw->warm)) /* a child of fork() */
		return false;
	sw_pool_wait_room(sw->warm);
	return true;
}

/* A task to fill with the names of directory dirfd (st: its stat) as they
 * are read, once sw_warm_ready() said so, or NULL (no memory, or no
 * descriptor). Where a thread has stat-ed its names already (stated, or so
 * the bitmap says), only its subdirectories are taken, to keep WARM_LEVELS
 * ahead; where a thread took it but is not done, the names are stat-ed
 * again (cheap if the other got there first), since only a task of the
 * walk's own has a ticket to wait on. Only a walk in inode order waits
 * (hold.c): others get no ticket. The task is never stashed: the walk has
 * read its directory. */
struct warm_task *sw_warm_task_for(struct sweep *sw, int dirfd, const struct stat *st,
                                   bool stated)
{
	bool done = stated || sw_pool_stated(sw->warm, st->st_dev, st->st_ino);
	bool stat = warm_stats(sw);
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	struct warm_task *t = fd < 0 ? NULL
	                             : sw_task_new(fd, st, sw->euid, stat && !done, stat,
	                                           WARM_LEVELS);
	if (!t && fd >= 0)
		close(fd);
	if (t && !done && sw->q.cscan)
		sw_task_add_ticket(t);
	if (t) {
		t->walk_read = true;
		sw_pool_mark_taken(sw->warm, st->st_dev, st->st_ino);
	}
	return t;
}

/* Once the threads have started during a walk: the directories it read
 * before them, d's ancestors, gave them no task, so the subdirectories
 * those queued would be read by the walk alone, one at a time (a root of
 * a thousand big directories, read before the first misses told the device
 * cheap). Each gets a task now, whose names a thread reads again (from the
 * cache) on a descriptor of its own, not the walk's, whose place in the
 * directory it must not move, while the threads' half of the queue has
 * room (the walk's own tasks must find theirs). Nothing of such a task is
 * stashed: it warms the caches only, since the walk may have read those
 * subdirectories already, and a listing of one would wait in the stash
 * for nothing. Only ancestors the walk holds open: opening one could take
 * the descriptor of d, being read; d itself the walk has taken before. */
void sw_warm_catch_up(struct sweep *sw, const struct sw_dir *d)
{
	if (!sw->warm_catch_up)
		return;
	sw->warm_catch_up = false;
	bool stat = warm_stats(sw);
	for (const struct sw_dir *a = d->parent; a && sw_pool_room(sw->warm); a = a->parent) {
		int fd = a->fd < 0 ? -1
		                   : openat(a->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		                            O_NOCTTY | O_NONBLOCK);
		struct warm_task *t = fd < 0 ? NULL
		                             : sw_task_new(fd, &a->st, sw->euid, stat, stat, WARM_LEVELS);
		if (!t) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		t->unread = true;
		t->walk_read = true;
		t->no_stash = true;
		sw_pool_mark_taken(sw->warm, a->st.st_dev, a->st.st_ino);
		sw->stats.dirs_caught_up += sw_pool_submit(sw->warm, t);
	}
}

/* Submits t, full, and returns a task for the next names of the same
 * directory, with a ticket of its own if t had one, or NULL. */
struct warm_task *sw_warm_task_next(struct sweep *sw, struct warm_task *t)
{
	const struct stat dir = { .st_dev = t->dev, .st_ino = t->ino, .st_mtim = t->mtime,
	                          .st_ctim = t->ctime };
	int fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
	struct warm_task *c = fd < 0 ? NULL
	                             : sw_task_new(fd, &dir, t->euid, t->stat_all, t->stat_below,
	                                           t->levels);
	if (c)
		c->walk_read = t->walk_read;
	if (c && t->ticket)
		sw_task_add_ticket(c);
	else if (!c && fd >= 0)
		close(fd);
	sw_pool_submit(sw->warm, t);
	return c;
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* The names of directory dirfd (dirst: the walk's stat of it), and their
 * stats, as a thread read them ahead of the walk, or NULL. Only while the
 * directory is as it was then: its change times, asked now, are those of
 * the stat the thread took before it read the names; else the walk reads it
 * anew. (The walk's own stat of it may be that same stat, handed over.) A
 * change in the same tick of the clock as the one before goes unseen: the
 * names are then those of the moment the thread read them, as fts(3) has
 * those of the moment it entered a directory. The caller drops the task. */
struct warm_task *sw_warm_claim(struct sweep *sw, int dirfd, const struct stat *dirst)
{
	if (!sw->warm || !sw_pool_ours(sw->warm))
		return NULL;
	struct warm_task *t = sw_pool_claim(sw->warm, dirst->st_dev, dirst->st_ino);
	struct stat st;
	if (t && (fstat(dirfd, &st) < 0 || st.st_dev != t->dev || st.st_ino != t->ino ||
	          !same_time(t->mtime, st.st_mtim) || !same_time(t->ctime, st.st_ctim))) {
		sw_task_free(t);
		t = NULL;
	}
	return t;
}
