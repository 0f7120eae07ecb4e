/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pool.c: the helper threads, their queue of tasks and their stash; nothing
 * of the walk, not even its handle: the walk decides what to ask of them
 * (warm.c) and takes what they found (readdir.c, hold.c).
 *
 * A thread takes a task (a directory and its names: task.c), stats the
 * names and reads the subdirectories it meets, which fills the inode and
 * directory caches ahead of the walk. The threads change nothing: on a tree
 * that does not change meanwhile the walk's results are the same, and a
 * task dropped (queue full, no memory) only costs its I/O later. What they
 * found they hand over, since a cold walk on a fast device is CPU-bound and
 * doing it twice shows: the stats of a task the walk waits on go back with
 * its ticket, and the names and stats of a directory a thread read on its
 * own go to the stash (stash.c), where the walk takes them instead of
 * reading the directory. Directories are read only with O_NOATIME, so that
 * the walk finds the atime it would have found without the threads; a name
 * is stat-ed without automounting before it is opened, and a directory on
 * another file system (a mount point, an automount trigger) is not opened.
 *
 * Stat-ing the names of a directory the walk has just read is not far enough
 * ahead: the walk serves those names soon after, and then waits on the very
 * lookups the threads started. So a thread that meets a subdirectory takes
 * it as a task of its own, down to the task's levels below the directory
 * the walk read (its names read by whichever thread runs it where more
 * subdirectories follow, so that a directory of a thousand is read by all
 * the threads at once, and by this one where it is the last), and fixed
 * bitmaps of the directories so taken (and done) let the walk skip what the
 * threads already did; a directory the walk later prunes costs at most
 * those levels. A false hit in them only costs warmth: on a tree of
 * millions of directories they fill, and the walk gets less help. (Clearing a directory's bits once the walk read
 * it let a late task of its parent take it again, and cost more than it
 * saved.)
 *
 * Descriptors are the scarce part: the threads and their queue keep to the
 * share of RLIMIT_NOFILE they are given (one per task waiting, two per
 * thread at work, and the task being filled), at most WARM_QUEUE tasks;
 * under RLIMIT_AS their stacks are small, and their queue and stash take a
 * share of the address space left, given back on demand (sw_pool_shed). Tasks
 * the walk waits on (with a ticket) go before the threads' own, and while
 * the queue is full the walk may wait for room (sw_pool_wait_room): reading a
 * directory without a task, it would stat the names itself, cold and one at
 * a time, and the threads would not read its subdirectories ahead either.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "owner.h"
#include "warm.h"

#define WARM_QUEUE    128        /* tasks waiting (each with a descriptor), at most */
#define WARM_DENTBUF  (32u << 10)
#define WARM_SEEN_BITS 21
#define WARM_SEEN     (1u << WARM_SEEN_BITS) /* bits of each bitmap of directories */
#define WARM_STACK    (64u << 10) /* a thread's: a few frames, no buffers */
#define WARM_MIN_SPACE ((size_t)16 << 20) /* address space left below which no
                                             thread starts */

struct sw_pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_cond_t done_cv;  /* a ticket is done */
	pthread_cond_t room_cv;  /* a task left the queue */
	unsigned room_waiters;   /* the walk waits on room_cv */
	struct warm_task *head, *tail;
	struct warm_task *waited_tail; /* the last task with a ticket: those
	                                  go first, the walk waits on them */
	size_t queued, max_queued;
	size_t bytes, max_bytes; /* held by queued tasks (sw_task_bytes) */
	bool stop;               /* read without the lock by run_task() */
	uint64_t *seen;          /* directories taken as tasks, hashed; atomic */
	uint64_t *done;          /* ... and whose names were all stat-ed */
	struct warm_stash stash; /* what the threads' own tasks found */
	struct sw_owner owner;   /* the process the threads belong to */
	size_t nthreads;
	pthread_t threads[SWEEP_WARM_THREADS];
};

/* Waits until the threads are done with k's task. */
void sw_pool_wait(struct sw_pool *w, const struct warm_ticket *k)
{
	pthread_mutex_lock(&w->mu);
	while (!sw_warm_ticket_done(k))
		pthread_cond_wait(&w->done_cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

/* Hands t on once a thread ran it: to the walk, which waits on its ticket
 * (its names are only there: hold.c), run or not; a task of the threads'
 * own that went through, to the stash; else to nothing. w is NULL where t
 * did not run (dropped), and then no one can be waiting: the walk itself
 * is calling, or the threads are gone, or a thread drops a task it made. */
static void task_finish(struct sw_pool *w, struct warm_task *t)
{
	struct warm_ticket *k = t->ticket;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->ticket = NULL;
	bool keep = k || (w && t->stat_all && t->complete && !t->walk_read && !t->no_stash);
	if (!keep)
		sw_task_free(t);
	else if (!k)
		sw_task_shrink(t);
	if (w && keep)
		pthread_mutex_lock(&w->mu);
	if (k) {
		k->result = t;
		__atomic_store_n(&k->done, true, __ATOMIC_RELEASE);
	} else if (keep) {
		sw_stash_put(&w->stash, t);
	}
	if (w && keep) {
		if (k)
			pthread_cond_broadcast(&w->done_cv);
		pthread_mutex_unlock(&w->mu);
	}
	sw_warm_ticket_put(k);
}

static uint64_t seen_bit(dev_t dev, ino_t ino)
{
	return dir_hash(dev, ino) >> (64 - WARM_SEEN_BITS);
}

/* Marks directory (dev, ino) in bitmap v; returns whether it was already. */
static bool bit_mark(uint64_t *v, dev_t dev, ino_t ino)
{
	uint64_t b = seen_bit(dev, ino), m = 1ull << (b & 63);
	return __atomic_fetch_or(&v[b >> 6], m, __ATOMIC_RELAXED) & m;
}

static void bit_clear(uint64_t *v, dev_t dev, ino_t ino)
{
	uint64_t b = seen_bit(dev, ino), m = 1ull << (b & 63);
	__atomic_fetch_and(&v[b >> 6], ~m, __ATOMIC_RELAXED);
}

static bool bit_test(const uint64_t *v, dev_t dev, ino_t ino)
{
	uint64_t b = seen_bit(dev, ino), m = 1ull << (b & 63);
	return __atomic_load_n(&v[b >> 6], __ATOMIC_RELAXED) & m;
}

/* Opens subdirectory name of t (st: its stat), or -1. Only with O_NOATIME:
 * the walk must find the atime it would have found without us (find -atime,
 * du --time=atime), and it stats a directory before it reads it. */
static int open_subdir(const struct warm_task *t, const char *name, const struct stat *st)
{
	if (t->euid != 0 && t->euid != st->st_uid)
		return -1;
	return openat(t->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
	              O_NOCTTY | O_NONBLOCK | O_NOATIME);
}

/* Reads the names of c's directory into c; false when that failed (no
 * memory, an error the walk will meet and report itself, or more names
 * than a task holds). */
static bool read_names(struct warm_task *c, char *buf)
{
	ssize_t len;
	while ((len = getdents64(c->fd, buf, WARM_DENTBUF)) > 0) {
		for (ssize_t off = 0; off < len;) {
			const struct dirent64 *de = (const void *)(buf + off);
			off += de->d_reclen;
			if (is_dot(de->d_name))
				continue;
			if (c->n == WARM_CHUNK ||
			    !sw_warm_task_add(c, de->d_ino, de->d_type, de->d_name,
			                      strlen(de->d_name)))
				return false;
		}
	}
	return len == 0;
}

/* Reads the rest of directory fd, which warms its blocks for the walk. */
static void read_through(int fd, char *buf)
{
	while (getdents64(fd, buf, WARM_DENTBUF) > 0)
		;
}

/* Reads the names of t, a task submitted without them, in the thread that
 * runs it: so the subdirectories one task meets are read by as many
 * threads as are free, not one after the other by its own, and a device
 * that serves many requests at once gets them. false where they could not
 * all be read (more than a task holds, or an error): the rest is read for
 * its blocks, and the task is not run, nor kept. */
static bool read_unread(struct warm_task *t, char *buf)
{
	t->unread = false;
	if (read_names(t, buf))
		return true;
	read_through(t->fd, buf);
	return false;
}

/* Whether fd is the directory st: a name can be swapped between the stat
 * and the open, and a stash entry must list the directory it is filed as. */
static bool is_dir(int fd, const struct stat *st)
{
	struct stat now;
	return fstat(fd, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

/* Whether a task fits in the queue: the walk's may fill it, the threads'
 * own only half of it, so that the walk's tasks, which it waits for, are
 * not turned away by tasks of the levels below. An empty queue takes the
 * walk's task whatever its bounds: the walk waits for room (sw_pool_wait_room). */
static bool has_room(const struct sw_pool *w, bool walk)
{
	if (walk && !w->queued)
		return true;
	size_t max = walk ? w->max_queued : w->max_queued / 2;
	return w->queued < max && w->bytes < (walk ? w->max_bytes : w->max_bytes / 2);
}

/* has_room(), under the lock. */
static bool queue_room(struct sw_pool *w, bool walk)
{
	pthread_mutex_lock(&w->mu);
	bool room = has_room(w, walk);
	pthread_mutex_unlock(&w->mu);
	return room;
}

/* Whether a task the walk does not wait on fits in the threads' half of the
 * queue. */
bool sw_pool_room(struct sw_pool *w)
{
	return queue_room(w, false);
}

/* Waits until a task of the walk's fits in the queue (see above): the
 * threads, at work on a full queue, have the cores meanwhile. */
void sw_pool_wait_room(struct sw_pool *w)
{
	pthread_mutex_lock(&w->mu);
	w->room_waiters++;
	while (!has_room(w, true) && !w->stop)
		pthread_cond_wait(&w->room_cv, &w->mu);
	w->room_waiters--;
	pthread_mutex_unlock(&w->mu);
}

/* Keeps the names of c, read but not to be stat-ed, in the stash: the walk
 * takes them instead of reading the directory again. */
static void stash_listing(struct sw_pool *w, struct warm_task *c)
{
	close(c->fd);
	c->fd = -1;
	sw_task_shrink(c);
	pthread_mutex_lock(&w->mu);
	sw_stash_put(&w->stash, c);
	pthread_mutex_unlock(&w->mu);
}

/* Takes subdirectory name of t as a task of its own, one level further down;
 * past the levels, or without room in the queue, only reads its names for
 * the stash (which warms its blocks). Neither where the walk or a thread
 * took it already: its names come with that task, and a listing made after
 * the walk read it would wait in the stash for nothing, and the directory
 * be read twice. Where t may meet more subdirectories after this one
 * (more), the task's names are for the thread that runs it to read, so
 * that siblings are read at once by the threads free; a last one (a chain
 * of directories, where each waits for the one above) is read here, which
 * saves the hand-off. */
static void warm_subdir(struct sw_pool *w, const struct warm_task *t, const char *name,
                        const struct stat *st, char *buf, bool more)
{
	bool take = t->levels > 0 && queue_room(w, false);
	if (take ? bit_mark(w->seen, st->st_dev, st->st_ino)
	         : bit_test(w->seen, st->st_dev, st->st_ino))
		return;
	int fd = open_subdir(t, name, st);
	struct warm_task *c = NULL;
	/* not taken, a listing for the stash, where it may be kept */
	bool listed = t->stat_below && !t->no_stash;
	if (fd >= 0 && (take || listed) && is_dir(fd, st))
		c = sw_task_new(fd, st, t->euid, t->stat_below, t->stat_below, t->levels - 1);
	if (c)
		c->no_stash = t->no_stash;
	if (c && take && more) {
		c->unread = true;
		if (sw_pool_submit(w, c)) /* else it is gone, and its fd */
			return;
	} else if (c && read_names(c, buf)) {
		if (!take)
			stash_listing(w, c);
		else if (sw_pool_submit(w, c)) /* else it is gone, and its fd */
			return;
	} else if (c) {
		read_through(c->fd, buf);
		sw_task_free(c); /* closes fd */
	} else if (fd >= 0) {
		read_through(fd, buf);
		close(fd);
	}
	if (take)
		bit_clear(w->seen, st->st_dev, st->st_ino);
}

static bool maybe_dir(const struct warm_ent *e)
{
	return e->type == DT_DIR || e->type == DT_UNKNOWN;
}

/* Stat the names of t, keeping what was found, and read its
 * subdirectories, until told to stop. A name is always stat-ed (without
 * automounting) before it is opened: a mount point or an automount trigger
 * is left alone. Unless all are to be, only what may be a directory is. */
static void run_task(struct sw_pool *w, struct warm_task *t, char *buf)
{
	size_t i, dirs = 0;
	if (t->unread && !read_unread(t, buf))
		return;
	for (i = 0; i < t->n; i++)
		dirs += maybe_dir(&t->ents[i]);
	for (i = 0; i < t->n && !__atomic_load_n(&w->stop, __ATOMIC_RELAXED); i++) {
		struct warm_ent *e = &t->ents[i];
		const char *name = t->names + e->off;
		dirs -= maybe_dir(e);
		if (!t->stat_all && !maybe_dir(e))
			continue;
		if (fstatat(t->fd, name, &e->st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT) < 0)
			continue;
		e->stated = true;
		if (S_ISDIR(e->st.st_mode) && e->st.st_dev == t->dev)
			warm_subdir(w, t, name, &e->st, buf, dirs > 0);
	}
	t->complete = i == t->n;
}

static void *warm_thread(void *arg)
{
	struct sw_pool *w = arg;
	char *buf = malloc(WARM_DENTBUF);
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop)
			break;
		struct warm_task *t = w->head;
		w->head = t->next;
		if (!w->head)
			w->tail = NULL;
		if (w->waited_tail == t)
			w->waited_tail = NULL;
		w->queued--;
		w->bytes -= sw_task_bytes(t);
		if (w->room_waiters)
			pthread_cond_signal(&w->room_cv);
		pthread_mutex_unlock(&w->mu);
		if (buf)
			run_task(w, t, buf);
		/* a hint (the kernel's caches are the truth), set once the task
		 * is handed on: where it says done, the stash has it */
		bool done = buf && t->stat_all && t->complete;
		dev_t dev = t->dev;
		ino_t ino = t->ino;
		task_finish(w, t);
		if (done)
			bit_mark(w->done, dev, ino);
		pthread_mutex_lock(&w->mu);
	}
	pthread_mutex_unlock(&w->mu);
	free(buf);
	return NULL;
}

/* Starts a thread with a stack of WARM_STACK (the default, 8 MiB, would
 * take address space that a limit on it leaves to the walk) and every
 * signal blocked (the caller's signals stay the caller's). Returns 0 or an
 * error number. */
int sw_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	bool small = pthread_attr_init(&attr) == 0;
	if (small && pthread_attr_setstacksize(&attr, WARM_STACK) != 0) {
		pthread_attr_destroy(&attr);
		small = false;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(t, small ? &attr : NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (small)
		pthread_attr_destroy(&attr);
	return e;
}

/* Starts up to n threads on w, fewer where the system gives no more. */
static void start_threads(struct sw_pool *w, size_t n)
{
	while (w->nthreads < n && sw_thread_start(&w->threads[w->nthreads], warm_thread, w) == 0)
		w->nthreads++;
}

/* Starts the threads, as many as fds (the descriptors they and their queue
 * may hold: limits.c) and space (the address space they may take, or
 * SIZE_MAX) allow; max_bytes bounds their queue and their stash. NULL where
 * none could start: the walk goes on without them. */
struct sw_pool *sw_pool_start(size_t max_bytes, size_t fds, size_t space)
{
	/* a thread at work holds its task's descriptor and a subdirectory's,
	 * and the walk one or two for the task it fills */
	size_t threads = fds < 5 ? 0 : (fds + 1) / 4;
	if (threads > SWEEP_WARM_THREADS)
		threads = SWEEP_WARM_THREADS;
	size_t fixed = 2 * WARM_SEEN / 8 + sizeof(struct sw_pool); /* the bitmaps, the
	                                                             stash's records */
	/* under a limit this tight the threads' malloc arenas (glibc reserves
	 * 64 MiB of address space for each, and falls back when it cannot)
	 * left the walk's own allocations failing now and then: 7 runs of 400
	 * of sweep-du at 8 MiB, none with MALLOC_ARENA_MAX=1. The walk alone
	 * is what such a limit can afford */
	if (space < WARM_MIN_SPACE)
		return NULL;
	if (space < SIZE_MAX) {
		size_t left = space > fixed ? space - fixed : 0;
		size_t fit = left / 2 / (WARM_STACK + WARM_DENTBUF);
		threads = fit < threads ? fit : threads;
		max_bytes = left / 8 < max_bytes ? left / 8 : max_bytes;
	}
	if (!threads)
		return NULL;
	struct sw_pool *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->stash.max_bytes = max_bytes;
	w->seen = calloc(WARM_SEEN / 64, sizeof(*w->seen));
	w->done = calloc(WARM_SEEN / 64, sizeof(*w->done));
	if (!w->seen || !w->done) {
		free(w->seen);
		free(w->done);
		free(w);
		return NULL;
	}
	size_t room = fds - 2 - 2 * threads;
	w->max_queued = room < WARM_QUEUE ? room : WARM_QUEUE;
	w->max_bytes = max_bytes;
	sw_owner_init(&w->owner);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->done_cv, NULL);
	pthread_cond_init(&w->room_cv, NULL);
	start_threads(w, threads);
	if (!w->nthreads) {
		sw_pool_stop(w);
		return NULL;
	}
	return w;
}

void sw_pool_stop(struct sw_pool *w)
{
	if (!w)
		return;
	/* In a child of fork() the threads do not exist, and the lock may have
	 * been held by one of them: only memory and descriptors are let go. */
	bool ours = sw_owner_here(&w->owner);
	if (ours) {
		pthread_mutex_lock(&w->mu);
		__atomic_store_n(&w->stop, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		for (size_t i = 0; i < w->nthreads; i++)
			pthread_join(w->threads[i], NULL);
	}
	while (w->head) {
		struct warm_task *t = w->head;
		w->head = t->next;
		task_finish(NULL, t);
	}
	if (ours) /* a child's may be half-linked: left alone */
		sw_stash_free(&w->stash);
	if (ours) {
		pthread_cond_destroy(&w->done_cv);
		pthread_cond_destroy(&w->room_cv);
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
	}
	free(w->seen);
	free(w->done);
	sw_owner_fini(&w->owner);
	free(w);
}

/* Out of memory: empties the stash and takes no more tasks of the
 * threads' own (the queued ones still run: the walk may wait on them).
 * Whether that gave anything back. */
bool sw_pool_shed(struct sw_pool *w)
{
	pthread_mutex_lock(&w->mu);
	bool freed = w->stash.bytes > 0;
	sw_stash_free(&w->stash);
	w->stash.max_bytes = 0;
	w->max_bytes = 0;
	pthread_mutex_unlock(&w->mu);
	return freed;
}

/* Where t goes in the queue: a task the walk waits on after the last such
 * task, any other at the end. */
static struct warm_task **queue_slot(struct sw_pool *w, const struct warm_task *t)
{
	struct warm_task *after = t->ticket ? w->waited_tail : w->tail;
	return after ? &after->next : &w->head;
}

/* Queue t for the threads, or drop it when the queue is full (in tasks, or
 * in bytes: the walk's memory bound does not count these). A task the walk
 * waits on goes in where the walk waited for room (has_room), even past the
 * bytes. Returns whether it was queued. */
bool sw_pool_submit(struct sw_pool *w, struct warm_task *t)
{
	pthread_mutex_lock(&w->mu);
	size_t bytes = sw_task_bytes(t);
	bool room = (t->n || t->unread) &&
	            (t->ticket ? has_room(w, true)
	                       : w->queued < w->max_queued && w->bytes + bytes <= w->max_bytes);
	if (room) {
		struct warm_task **at = queue_slot(w, t);
		t->next = *at;
		*at = t;
		if (!t->next)
			w->tail = t;
		if (t->ticket)
			w->waited_tail = t;
		w->queued++;
		w->bytes += bytes;
		pthread_cond_signal(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	if (!room)
		task_finish(NULL, t);
	return room;
}

void sw_warm_task_drop(struct warm_task *t)
{
	if (t)
		task_finish(NULL, t);
}

/* Whether w's threads are this process's: not in a child of fork(). */
bool sw_pool_ours(const struct sw_pool *w)
{
	return sw_owner_here(&w->owner);
}

size_t sw_pool_threads(const struct sw_pool *w)
{
	return w->nthreads;
}

/* Takes out what the stash holds of directory (dev, ino), see
 * sw_stash_take: the walk has that directory now, from there or read by
 * itself, and a thread's task of it done later is not kept. */
struct warm_task *sw_pool_claim(struct sw_pool *w, dev_t dev, ino_t ino)
{
	pthread_mutex_lock(&w->mu);
	struct warm_task *t = sw_stash_take(&w->stash, dev, ino);
	sw_stash_walk_read(&w->stash, dev, ino);
	pthread_mutex_unlock(&w->mu);
	return t;
}

/* Marks directory (dev, ino) as taken by a task, which the threads then
 * leave alone. */
void sw_pool_mark_taken(struct sw_pool *w, dev_t dev, ino_t ino)
{
	bit_mark(w->seen, dev, ino);
}

/* Whether the threads stat-ed the names of directory (dev, ino) before, as
 * far as the bitmap can tell: a hint, since the kernel's caches are the
 * truth. */
bool sw_pool_stated(const struct sw_pool *w, dev_t dev, ino_t ino)
{
	return bit_test(w->done, dev, ino);
}
