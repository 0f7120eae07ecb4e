/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * readdir.c: reading a directory into the metadata queue.
 *
 * getdents64 with a large buffer gives names, inode numbers and types in one
 * call per buffer; nothing is stat-ed here. In inode order each name goes
 * straight into the elevator, unless the helper threads are to stat it: then
 * it stays in their task, and is served from there (hold.c). In depth-first
 * orders one directory's names are gathered, sorted if asked, and stacked so
 * that they pop in order. Where the helper threads read a directory (and
 * stat-ed its names) ahead of the walk, their names and stats are taken
 * instead (warm.c, stash.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* A directory over one block: its read is timed with whether the device
 * was asked and the thread's CPU time in it (sw_thread_use). A block of
 * names may hide a miss too, but asking costs 0.3-1.3 us twice, a tenth of
 * a small directory's read: small ones are asked only while the verdict
 * is at stake (sw_latency_wants_use). */
#define BIG_DIR_BYTES 8192

static int by_name(const void *a, const void *b)
{
	const struct sw_node *x = *(struct sw_node *const *)a;
	const struct sw_node *y = *(struct sw_node *const *)b;
	return strcmp(x->name, y->name);
}

/* Which names of a directory about to be read may skip the elevator of
 * the library's own order, asked once a directory: inode order pays only
 * where inodes are read from the device. All of them while inodes come
 * from the cache, as the walk's own stats and its directory reads say
 * lately (cached, stat-ing in the directory's order, here last first, is
 * the quicker: the big directories' million names in 0.84-0.89 s either
 * way against 0.98-1.00 in inode order); else those whose type is all the
 * walk needs, where the caller will not stat them either (find -name: no
 * SWEEP_STAT_AHEAD). A caller who asked for inode order gets it; names the
 * threads warm stay in their order. */
enum past_elevator { PAST_NONE, PAST_BY_TYPE, PAST_ALL };

static enum past_elevator past_elevator(const struct sweep *sw)
{
	if (sw->order != SWEEP_ORDER_DISK)
		return PAST_NONE;
	if (!sw->warm && sw_stats_warm(&sw->lat) && sw_dirs_cached(&sw->lat))
		return PAST_ALL;
	bool caller_stats = sw->opt.flags & SWEEP_STAT_AHEAD;
	return (sw->opt.flags & SWEEP_NOSTAT) && !caller_stats ? PAST_BY_TYPE : PAST_NONE;
}

/* Queue one name (past the elevator when direct), or keep it aside for a
 * depth-first order. st: a helper's stat of it, or NULL. */
static int take_name(struct sweep *sw, struct sw_dir *d, ino_t ino, unsigned char type,
                     const char *name, size_t namelen, const struct stat *st, bool direct)
{
	struct sw_node *n = sw_node_new(sw, d, ino, type, name, namelen, st);
	if (!n)
		return SW_NOMEM;
	if (sw->q.cscan) {
		int (*push)(struct sw_queue *, struct sw_node *) =
			direct ? sw_queue_push_direct : sw_queue_push;
		if (push(&sw->q, n) == 0 || (sw_mem_shed(sw) && push(&sw->q, n) == 0))
			return 0;
	} else {
		struct sw_node **v = sw_grow(sw->tmp, &sw->captmp, sw->ntmp + 1, sizeof(*v));
		if (v) {
			sw->tmp = v;
			sw->tmp[sw->ntmp++] = n;
			return 0;
		}
	}
	d->refs--;
	sw_node_free(sw, n);
	return SW_NOMEM;
}

/* Stack what take_name() kept aside, last first, so that it pops in order. */
static int stack_names(struct sweep *sw, struct sw_dir *d)
{
	int err = 0;
	if (sw->order == SWEEP_ORDER_NAME && sw->ntmp) /* sw->tmp may be NULL */
		qsort(sw->tmp, sw->ntmp, sizeof(*sw->tmp), by_name);
	while (sw->ntmp) {
		struct sw_node *n = sw->tmp[--sw->ntmp];
		if (sw_queue_push(&sw->q, n) < 0 && !(sw_mem_shed(sw) && sw_queue_push(&sw->q, n) == 0)) {
			err = SW_NOMEM;
			d->refs--;
			sw_node_free(sw, n);
		}
	}
	return err;
}

/* One directory being read: where its names go. */
struct dir_read {
	struct sw_dir *d;
	struct warm_task *wt;      /* the helpers' task being filled, or NULL */
	struct hold_batch *batch;  /* wt's, where its names are held, or NULL */
	enum past_elevator past;   /* which names skip the elevator */
};

/* Adds a name to the helpers' task r->wt, if any. Once the task is full it
 * is submitted, and the next names go to a new one, held in a batch of its
 * own if wt's were. Returns false when memory ran out: the name is not in
 * the task, which is dropped (with its ticket: the names it has are held
 * still). */
static bool warm_add(struct sweep *sw, struct dir_read *r, ino_t ino, unsigned char type,
                     const char *name, size_t namelen)
{
	if (!r->wt)
		return true;
	if (!sw_warm_task_add(r->wt, ino, type, name, namelen)) {
		sw_warm_task_drop(r->wt);
		r->wt = NULL;
		r->batch = NULL;
		return false;
	}
	if (r->batch)
		sw_hold_name(sw, r->batch, namelen);
	if (sw_warm_task_full(r->wt)) {
		r->wt = sw_warm_task_next(sw, r->wt);
		struct warm_ticket *k = r->batch && r->wt ? sw_warm_task_ticket(r->wt) : NULL;
		r->batch = k ? sw_hold_begin(sw, r->d, k) : NULL;
	}
	return true;
}

/* A queued name goes to the helpers' task too unless they stat-ed it and
 * it is no directory (the task takes what it asks for: sw_warm_task_add). */
static void warm_unless_stated(struct sweep *sw, struct dir_read *r, ino_t ino,
                               unsigned char type, const char *name, size_t namelen,
                               const struct stat *st)
{
	if (!st || S_ISDIR(st->st_mode))
		warm_add(sw, r, ino, st ? DT_DIR : type, name, namelen);
}

/* Queue (or hold) one name of the directory, st: its stat if the helpers
 * took it. A held name is only in the task (hold.c). */
static int take_one(struct sweep *sw, struct dir_read *r, ino_t ino, unsigned char type,
                    const char *name, size_t namelen, const struct stat *st)
{
	if (r->batch && warm_add(sw, r, ino, type, name, namelen))
		return 0;
	bool direct = r->past == PAST_ALL ||
	              (r->past == PAST_BY_TYPE &&
	               sw_type_suffices(sw, type, sw->opt.follow == SWEEP_FOLLOW_ALL));
	int err = take_name(sw, r->d, ino, type, name, namelen, st, direct);
	warm_unless_stated(sw, r, ino, type, name, namelen, st);
	return err;
}

/* The subdirectories of a task the helpers ran ahead go to the task of
 * the walk's, to keep the helpers ahead. */
static void warm_subdirs(struct sweep *sw, struct dir_read *r, const struct warm_task *ahead)
{
	size_t n = sw_warm_task_len(ahead);
	for (size_t i = 0; i < n && r->wt; i++) {
		ino_t ino;
		unsigned char type;
		const struct stat *st;
		size_t namelen;
		const char *name = sw_warm_task_name(ahead, i, &namelen, &ino, &type, &st);
		warm_unless_stated(sw, r, ino, type, name, namelen, st);
	}
}

/* Queue the names of the directory that the helpers read ahead (task
 * ahead), with their stats where they took them: in inode order, where
 * names with stats need no order, straight from the task (hold.c). */
static int take_ahead(struct sweep *sw, struct dir_read *r, struct warm_task *ahead)
{
	sw->stats.dirs_read_ahead++;
	if (sw->q.cscan && sw_warm_task_stated(ahead) && sw_hold_stashed(sw, r->d, ahead)) {
		warm_subdirs(sw, r, ahead);
		return 0;
	}
	int err = 0;
	size_t n = sw_warm_task_len(ahead);
	for (size_t i = 0; i < n && !err; i++) {
		ino_t ino;
		unsigned char type;
		const struct stat *st;
		size_t namelen;
		const char *name = sw_warm_task_name(ahead, i, &namelen, &ino, &type, &st);
		err = take_one(sw, r, ino, type, name, namelen, st);
	}
	sw_warm_task_drop(ahead);
	return err;
}

/* Queue the names of the directory read from fd. */
static int take_read(struct sweep *sw, struct dir_read *r, int fd, uint64_t dist)
{
	int err = 0;
	/* a big directory's read may miss within its names' allowance, and
	 * any read be preempted while the verdict is at stake: whether the
	 * device was asked tells (two system calls, against the big read's own
	 * hundreds of microseconds; see sw_latency_wants_use) */
	bool ask = r->d->st.st_size >= BIG_DIR_BYTES || sw_latency_wants_use(&sw->lat);
	for (bool first = true; !err; first = false) {
		struct sw_thread_use used = first && ask ? sw_thread_use() : (struct sw_thread_use){0};
		uint64_t start = first ? sw_now_ns() : 0;
		ssize_t len = getdents64(fd, sw->dentbuf, sw->dentcap);
		if (first && !r->d->announced) { /* a reader's read tells nothing */
			uint64_t ns = sw_now_ns() - start;
			if (ask)
				used = sw_thread_use_since(used);
			sw_note_dir_read(&sw->lat, ns, len, dist, (uint64_t)r->d->st.st_size,
			                 sw->warm != NULL, ask ? &used : NULL);
		}
		/* a directory removed while open reads as empty: Linux says
		 * ENOENT, which glibc's readdir (so GNU's tools) takes as its
		 * end, as POSIX would have it */
		if (len <= 0)
			return len < 0 && errno != ENOENT ? errno : 0;
		for (ssize_t off = 0; off < len && !err;) {
			const struct dirent64 *de = (const void *)(sw->dentbuf + off);
			off += de->d_reclen;
			if (!is_dot(de->d_name))
				err = take_one(sw, r, de->d_ino, de->d_type, de->d_name,
				               strlen(de->d_name), NULL);
		}
	}
	return err;
}

/* Queue every name of d. Returns 0, an errno or SW_NOMEM; names read before a failure
 * stay queued, as GNU tools go on with what they could read. Names the
 * helpers stat-ed ahead need no task of theirs but for the subdirectories,
 * to keep them ahead. */
int sw_read_dir(struct sweep *sw, struct sw_dir *d, uint64_t dist)
{
	int fd = sw_dir_fd(sw, d);
	if (fd < 0)
		return errno;
	sw->ntmp = 0;
	bool warm = sw_warm_ready(sw);
	struct warm_task *ahead = sw_warm_claim(sw, fd, &d->st);
	bool stated = ahead && sw_warm_task_stated(ahead);
	struct dir_read r = { .d = d, .past = past_elevator(sw) };
	r.wt = warm ? sw_warm_task_for(sw, fd, &d->st, stated) : NULL;
	if (warm) /* d taken: the catch-up's tasks leave it alone */
		sw_warm_catch_up(sw, d);
	struct warm_ticket *k = r.wt ? sw_warm_task_ticket(r.wt) : NULL;
	r.batch = k ? sw_hold_begin(sw, d, k) : NULL;
	int err = ahead ? take_ahead(sw, &r, ahead) : take_read(sw, &r, fd, dist);
	if (r.wt)
		sw_pool_submit(sw->warm, r.wt);
	int serr = stack_names(sw, d);
	return err ? err : serr;
}
