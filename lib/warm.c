/*
 * warm.c: helper threads that pull metadata into the cache ahead of the walk.
 *
 * On a device where seeks are cheap (an SSD) the order of requests hardly
 * matters, their number in flight does: this VM's disk does 44k random
 * reads a second at depth 32 and 10k at depth 1. The walk itself issues one
 * request at a time, so while it runs on such a device with a cold cache,
 * every directory it reads is handed to a pool of threads that stat its
 * names and read its subdirectories, which fills the inode and directory
 * caches one level ahead of the walk. The threads change nothing: on a tree
 * that does not change meanwhile the walk's results are the same, and a task
 * dropped (queue full, no memory) only costs its I/O later. What they found they hand over, since a cold walk
 * here is CPU-bound and doing it twice showed (the walk's own warm statx and
 * getdents were a fifth of the CPU of a cold du): the stats of a task the
 * walk waits on go back with its ticket (hold.c), and the names and stats of
 * a directory a thread read on its own go to the stash (stash.c), where the
 * walk takes them instead of reading the directory. Directories are read
 * only with O_NOATIME, so that the walk finds
 * the atime it would have found without the threads; a name is stat-ed
 * without automounting before it is opened, and a directory on another
 * file system (a mount point, an automount trigger) is not opened.
 *
 * Stat-ing the names of a directory the walk has just read is not far enough
 * ahead: the walk serves those names soon after, and then waits on the very
 * lookups the threads started (measured: the walk's thread spent 0.9 s of a
 * 1.3 s cold du in statx). So a thread that meets a subdirectory reads its
 * names into a task of its own, down to WARM_LEVELS below the directory the
 * walk read, and fixed bitmaps of the directories so taken (and done) let the
 * walk skip what the threads already did; a directory the walk later prunes
 * costs at most those levels. A false hit in them only costs warmth: on a
 * tree of millions of directories they fill, and the walk gets less help.
 * (Clearing a directory's bits once the walk read it let a late task of its
 * parent take it again, and cost more than it saved.)
 *
 * A task holds a duplicate of the directory's descriptor and a copy of the
 * names to warm, with room for their stats (some 170 bytes a name), at most
 * WARM_CHUNK of them: the walk gives a big directory to the threads in parts,
 * each with a ticket of its own; a thread leaves a big subdirectory to the
 * walk. Descriptors are the scarce part: the threads and their queue keep to
 * the share of RLIMIT_NOFILE that limits.c gives them (one per task waiting,
 * two per thread at work, and the task being filled), at most WARM_QUEUE
 * tasks; under RLIMIT_AS, their stacks are small and their queue and stash
 * take a share of the address space left, given back when the walk runs
 * short (warm_shed). The queued tasks are
 * kept under a quarter of the walk's memory bound, and so is the stash.
 * Tasks the walk waits on (with a ticket) go before the threads' own. While
 * the queue is full the walk waits for room before it reads a directory:
 * reading it without a task, it would stat the names itself, cold and one
 * at a time, and the threads would not read its subdirectories ahead either
 * (measured: with a queue full at 745 of 3,400 reads, the walk then stat-ed
 * 15,000 names itself, and the cores idled twice as long, 0.2 s a walk).
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
#include "warm.h"

#define WARM_QUEUE    128        /* tasks waiting (each with a descriptor), at most */
#define WARM_DENTBUF  (32u << 10)
#define WARM_CHUNK    1024       /* names of a task, at most */
#define WARM_LEVELS   2          /* of subdirectories taken ahead of the walk */
#define WARM_SEEN_BITS 21
#define WARM_SEEN     (1u << WARM_SEEN_BITS) /* bits of each bitmap of directories */
#define WARM_STACK    (64u << 10) /* a thread's: a few frames, no buffers */

struct sw_warm {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_cond_t done_cv;  /* a ticket is done */
	pthread_cond_t room_cv;  /* a task left the queue */
	unsigned room_waiters;   /* the walk waits on room_cv */
	struct warm_task *head, *tail;
	struct warm_task *waited_tail; /* the last task with a ticket: those
	                                  go first, the walk waits on them */
	size_t queued, max_queued;
	size_t bytes, max_bytes; /* held by queued tasks (task_bytes) */
	bool stop;               /* read without the lock by run_task() */
	uint64_t *seen;          /* directories taken as tasks, hashed; atomic */
	uint64_t *done;          /* ... and whose names were all stat-ed */
	struct warm_stash stash; /* what the threads' own tasks found */
	pid_t pid;               /* the process the threads belong to */
	size_t nthreads;
	pthread_t threads[SWEEP_WARM_THREADS];
};

struct warm_ticket *warm_ticket_get(struct warm_ticket *k)
{
	__atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
	return k;
}

void warm_ticket_put(struct warm_ticket *k)
{
	if (k && __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		if (k->result)
			task_free(k->result);
		free(k);
	}
}

bool warm_ticket_done(const struct warm_ticket *k)
{
	return __atomic_load_n(&k->done, __ATOMIC_ACQUIRE);
}

/* Waits until the threads are done with k's task. */
void warm_ticket_wait(struct sw_warm *w, const struct warm_ticket *k)
{
	pthread_mutex_lock(&w->mu);
	while (!warm_ticket_done(k))
		pthread_cond_wait(&w->done_cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

void task_free(struct warm_task *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->ents);
	free(t->names);
	free(t);
}

/* What t holds, for the bounds of the queue and the stash. */
size_t task_bytes(const struct warm_task *t)
{
	return sizeof(*t) + t->cap + t->capents * sizeof(*t->ents);
}

/* Gives back what t's vectors hold beyond their use: a stashed task may
 * wait long. */
static void task_shrink(struct warm_task *t)
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

/* Hands t on once a thread ran it: to the walk, which waits on its ticket
 * (its names are only there: hold.c), run or not; a task of the threads'
 * own that went through, to the stash; else to nothing. w is NULL where t
 * did not run (dropped), and then no one can be waiting: the walk itself
 * is calling, or the threads are gone, or a thread drops a task it made. */
static void task_finish(struct sw_warm *w, struct warm_task *t)
{
	struct warm_ticket *k = t->ticket;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->ticket = NULL;
	bool keep = k || (w && t->stat_all && t->complete && !t->walk_read);
	if (!keep)
		task_free(t);
	else if (!k)
		task_shrink(t);
	if (w && keep)
		pthread_mutex_lock(&w->mu);
	if (k) {
		k->result = t;
		__atomic_store_n(&k->done, true, __ATOMIC_RELEASE);
	} else if (keep) {
		stash_put(&w->stash, t);
	}
	if (w && keep) {
		if (k)
			pthread_cond_broadcast(&w->done_cv);
		pthread_mutex_unlock(&w->mu);
	}
	warm_ticket_put(k);
}

static struct warm_task *task_new(int fd, const struct stat *st, uid_t euid, bool stat_all,
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
			    !warm_task_add(c, de->d_ino, de->d_type, de->d_name,
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
 * walk's task whatever its bounds: the walk waits for room (wait_room). */
static bool has_room(const struct sw_warm *w, bool walk)
{
	if (walk && !w->queued)
		return true;
	size_t max = walk ? w->max_queued : w->max_queued / 2;
	return w->queued < max && w->bytes < (walk ? w->max_bytes : w->max_bytes / 2);
}

/* has_room(), under the lock. */
static bool queue_room(struct sw_warm *w, bool walk)
{
	pthread_mutex_lock(&w->mu);
	bool room = has_room(w, walk);
	pthread_mutex_unlock(&w->mu);
	return room;
}

/* Waits until a task of the walk's fits in the queue (see above): the
 * threads, at work on a full queue, have the cores meanwhile. */
static void wait_room(struct sw_warm *w)
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
static void stash_listing(struct sw_warm *w, struct warm_task *c)
{
	close(c->fd);
	c->fd = -1;
	task_shrink(c);
	pthread_mutex_lock(&w->mu);
	stash_put(&w->stash, c);
	pthread_mutex_unlock(&w->mu);
}

/* Takes subdirectory name of t as a task of its own, one level further down;
 * past the levels, or without room in the queue, only reads its names for
 * the stash (which warms its blocks). Neither where the walk or a thread
 * took it already: its names come with that task, and a listing made after
 * the walk read it would wait in the stash for nothing (measured: 800 of
 * the 5,100 directories of a Linux tree were read twice so). */
static void warm_subdir(struct sw_warm *w, const struct warm_task *t, const char *name,
                        const struct stat *st, char *buf)
{
	bool take = t->levels > 0 && queue_room(w, false);
	if (take ? bit_mark(w->seen, st->st_dev, st->st_ino)
	         : bit_test(w->seen, st->st_dev, st->st_ino))
		return;
	int fd = open_subdir(t, name, st);
	struct warm_task *c = NULL;
	if (fd >= 0 && (take || t->stat_below) && is_dir(fd, st))
		c = task_new(fd, st, t->euid, t->stat_below, t->stat_below, t->levels - 1);
	if (c && read_names(c, buf)) {
		if (!take)
			stash_listing(w, c);
		else if (warm_submit(w, c)) /* else it is gone, and its fd */
			return;
	} else if (c) {
		read_through(c->fd, buf);
		task_free(c); /* closes fd */
	} else if (fd >= 0) {
		read_through(fd, buf);
		close(fd);
	}
	if (take)
		bit_clear(w->seen, st->st_dev, st->st_ino);
}

/* Stat the names of t, keeping what was found, and read its
 * subdirectories, until told to stop. A name is always stat-ed (without
 * automounting) before it is opened: a mount point or an automount trigger
 * is left alone. Unless all are to be, only what may be a directory is. */
static void run_task(struct sw_warm *w, struct warm_task *t, char *buf)
{
	size_t i;
	for (i = 0; i < t->n && !__atomic_load_n(&w->stop, __ATOMIC_RELAXED); i++) {
		struct warm_ent *e = &t->ents[i];
		const char *name = t->names + e->off;
		if (!t->stat_all && e->type != DT_DIR && e->type != DT_UNKNOWN)
			continue;
		if (fstatat(t->fd, name, &e->st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT) < 0)
			continue;
		e->stated = true;
		if (S_ISDIR(e->st.st_mode) && e->st.st_dev == t->dev)
			warm_subdir(w, t, name, &e->st, buf);
	}
	t->complete = i == t->n;
}

static void *warm_thread(void *arg)
{
	struct sw_warm *w = arg;
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
		w->bytes -= task_bytes(t);
		if (w->room_waiters)
			pthread_cond_signal(&w->room_cv);
		pthread_mutex_unlock(&w->mu);
		if (buf)
			run_task(w, t, buf);
		if (buf && t->stat_all) /* a hint: the kernel's caches are the truth */
			bit_mark(w->done, t->dev, t->ino);
		task_finish(w, t);
		pthread_mutex_lock(&w->mu);
	}
	pthread_mutex_unlock(&w->mu);
	free(buf);
	return NULL;
}

/* Starts up to n threads on w, fewer where the system gives no more, each
 * with a stack of WARM_STACK: the default (8 MiB) would take address space
 * that a limit on it leaves to the walk. */
static void start_threads(struct sw_warm *w, size_t n)
{
	pthread_attr_t attr;
	bool small = pthread_attr_init(&attr) == 0;
	if (small && pthread_attr_setstacksize(&attr, WARM_STACK) != 0) {
		pthread_attr_destroy(&attr);
		small = false;
	}
	/* the caller's signals stay the caller's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (w->nthreads < n && pthread_create(&w->threads[w->nthreads], small ? &attr : NULL,
	                                         warm_thread, w) == 0)
		w->nthreads++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (small)
		pthread_attr_destroy(&attr);
}

/* Starts the threads, as many as fds (the descriptors they and their queue
 * may hold: limits.c) and space (the address space they may take, or
 * SIZE_MAX) allow; max_bytes bounds their queue and their stash. NULL where
 * none could start: the walk goes on without them. */
struct sw_warm *warm_start(size_t max_bytes, size_t fds, size_t space)
{
	/* a thread at work holds its task's descriptor and a subdirectory's,
	 * and the walk one or two for the task it fills */
	size_t threads = fds < 5 ? 0 : (fds + 1) / 4;
	if (threads > SWEEP_WARM_THREADS)
		threads = SWEEP_WARM_THREADS;
	size_t bitmaps = 2 * WARM_SEEN / 8;
	if (space < SIZE_MAX) {
		size_t left = space > bitmaps ? space - bitmaps : 0;
		size_t fit = left / 2 / (WARM_STACK + WARM_DENTBUF);
		threads = fit < threads ? fit : threads;
		max_bytes = left / 8 < max_bytes ? left / 8 : max_bytes;
	}
	if (!threads)
		return NULL;
	struct sw_warm *w = calloc(1, sizeof(*w));
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
	w->pid = getpid();
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->done_cv, NULL);
	pthread_cond_init(&w->room_cv, NULL);
	start_threads(w, threads);
	if (!w->nthreads) {
		warm_stop(w);
		return NULL;
	}
	return w;
}

void warm_stop(struct sw_warm *w)
{
	if (!w)
		return;
	/* In a child of fork() the threads do not exist, and the lock may have
	 * been held by one of them: only memory and descriptors are let go. */
	bool ours = w->pid == getpid();
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
		stash_free(&w->stash);
	if (ours) {
		pthread_cond_destroy(&w->done_cv);
		pthread_cond_destroy(&w->room_cv);
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
	}
	free(w->seen);
	free(w->done);
	free(w);
}

/* Out of memory: empty the stash and take no more tasks, for the rest of
 * the walk (the queued ones still run: the walk may wait on them). Whether
 * that gave anything back. */
bool warm_shed(struct sweep *sw)
{
	struct sw_warm *w = sw->warm;
	if (!w || w->pid != getpid())
		return false;
	bool first = !sw->warm_failed;
	sw->warm_failed = true;
	pthread_mutex_lock(&w->mu);
	bool freed = w->stash.bytes > 0;
	stash_free(&w->stash);
	w->stash.max_bytes = 0;
	w->max_bytes = 0;
	pthread_mutex_unlock(&w->mu);
	return first || freed;
}

/* Whether to warm ahead now: asked for; or by default, while directory
 * reads miss and misses are cheap (latency.c). Started, the threads stay
 * for the rest of the walk, and get work for as long as misses are cheap
 * (a later root may be on a disk arm); a warm cache does not stop them,
 * since it is warm because of them. */
static bool warm_wanted(struct sweep *sw)
{
	if (sw->opt.warm == SWEEP_WARM_OFF || sw->warm_failed)
		return false;
	if (sw->opt.warm == SWEEP_WARM_AUTO && !misses_cheap(sw))
		return false;
	if (sw->opt.warm == SWEEP_WARM_AUTO && !sw->warm && dirs_cached(sw))
		return false;
	if (sw->warm)
		return true;
	if (!(sw->warm = warm_start(sw->opt.max_bytes / 4, sw->warm_fds, limits_space()))) {
		sw->warm_failed = true;
		return false;
	}
	sw->stats.warm_threads = (unsigned)sw->warm->nthreads;
	return true;
}

/* Whether to give the threads a task for the directory about to be read:
 * warming is wanted, and there is room for it in their queue, once the
 * threads made some if there was none. Before the stash is asked
 * (warm_claim): a thread may finish that directory meanwhile. */
bool warm_ready(struct sweep *sw)
{
	if (!warm_wanted(sw) || sw->warm->pid != getpid()) /* a child of fork() */
		return false;
	wait_room(sw->warm);
	return true;
}

/* A task to fill with the names of directory dirfd (st: its stat) as they
 * are read, once warm_ready() said so, or NULL (no memory, or no
 * descriptor). Where a thread has stat-ed its names already (stated, or so
 * the bitmap says), only its subdirectories are taken, to keep WARM_LEVELS
 * ahead; where a thread took it but is not done, the names are stat-ed
 * again (cheap if the other got there first), since only a task of the
 * walk's own has a ticket to wait on. Only a walk in inode order waits
 * (hold.c): others get no ticket. The task is never stashed: the walk has
 * read its directory. */
struct warm_task *warm_task_for(struct sweep *sw, int dirfd, const struct stat *st,
                                bool stated)
{
	struct sw_warm *w = sw->warm;
	bool done = stated || bit_test(w->done, st->st_dev, st->st_ino);
	bool stat = !(sw->opt.flags & SWEEP_NOSTAT) || (sw->opt.flags & SWEEP_STAT_AHEAD);
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	struct warm_task *t = fd < 0 ? NULL
	                             : task_new(fd, st, sw->euid, stat && !done, stat,
	                                        WARM_LEVELS);
	if (!t && fd >= 0)
		close(fd);
	if (t && !done && sw->q.cscan && (t->ticket = calloc(1, sizeof(*t->ticket))))
		t->ticket->refs = 1;
	if (t) {
		t->walk_read = true;
		bit_mark(w->seen, st->st_dev, st->st_ino);
	}
	return t;
}

/* What tells when the threads are done with t (its names stat-ed, or under
 * SWEEP_NOSTAT its subdirectories read), or NULL where they did that before
 * (the names are warm: nothing to wait for). */
struct warm_ticket *warm_task_ticket(const struct warm_task *t)
{
	return t->ticket;
}

/* Add a name to warm: every name when stat_all or when the walk holds them
 * (a ticket), else only those that may be directories. Returns false when
 * memory ran out (the task is then best dropped). */
bool warm_task_add(struct warm_task *t, ino_t ino, unsigned char type, const char *name,
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

/* Where t goes in the queue: a task the walk waits on after the last such
 * task, any other at the end. */
static struct warm_task **queue_slot(struct sw_warm *w, const struct warm_task *t)
{
	struct warm_task *after = t->ticket ? w->waited_tail : w->tail;
	return after ? &after->next : &w->head;
}

/* Queue t for the threads, or drop it when the queue is full (in tasks, or
 * in bytes: the walk's memory bound does not count these). A task the walk
 * waits on goes in where the walk waited for room (has_room), even past the
 * bytes. Returns whether it was queued. */
bool warm_submit(struct sw_warm *w, struct warm_task *t)
{
	pthread_mutex_lock(&w->mu);
	size_t bytes = task_bytes(t);
	bool room = t->n && (t->ticket ? has_room(w, true)
	                               : w->queued < w->max_queued &&
	                                 w->bytes + bytes <= w->max_bytes);
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

/* Whether t holds as many names as a task may. */
bool warm_task_full(const struct warm_task *t)
{
	return t->n >= WARM_CHUNK;
}

/* Submits t, full, and returns a task for the next names of the same
 * directory, with a ticket of its own if t had one, or NULL. */
struct warm_task *warm_task_next(struct sweep *sw, struct warm_task *t)
{
	const struct stat dir = { .st_dev = t->dev, .st_ino = t->ino, .st_mtim = t->mtime,
	                          .st_ctim = t->ctime };
	int fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
	struct warm_task *c = fd < 0 ? NULL
	                             : task_new(fd, &dir, t->euid, t->stat_all, t->stat_below,
	                                        t->levels);
	if (c)
		c->walk_read = t->walk_read;
	if (c && t->ticket && (c->ticket = calloc(1, sizeof(*c->ticket))))
		c->ticket->refs = 1;
	else if (!c && fd >= 0)
		close(fd);
	warm_submit(sw->warm, t);
	return c;
}

void warm_task_drop(struct warm_task *t)
{
	if (t)
		task_finish(NULL, t);
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
struct warm_task *warm_claim(struct sweep *sw, int dirfd, const struct stat *dirst)
{
	struct sw_warm *w = sw->warm;
	if (!w || w->pid != getpid())
		return NULL;
	pthread_mutex_lock(&w->mu);
	struct warm_task *t = stash_take(&w->stash, dirst->st_dev, dirst->st_ino);
	pthread_mutex_unlock(&w->mu);
	struct stat st;
	if (t && (fstat(dirfd, &st) < 0 || st.st_dev != t->dev || st.st_ino != t->ino ||
	          !same_time(t->mtime, st.st_mtim) || !same_time(t->ctime, st.st_ctim))) {
		task_free(t);
		t = NULL;
	}
	return t;
}

/* Whether the threads stat-ed the names of finished task t (or only read
 * them: a listing, whose names the walk gives them to stat). */
bool warm_task_stated(const struct warm_task *t)
{
	return t->complete;
}

size_t warm_task_len(const struct warm_task *t)
{
	return t->n;
}

/* Name i of finished task t, its length, its d_ino and d_type, and its
 * stat or NULL. */
const char *warm_task_name(const struct warm_task *t, size_t i, size_t *namelen,
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
size_t warm_task_bytes(const struct warm_task *t)
{
	return task_bytes(t);
}

/* What the threads keep of one name of a task. */
size_t warm_name_bytes(void)
{
	return sizeof(struct warm_ent);
}

/* k's task, with every name the walk gave it, and the stats the threads
 * took of them if it ran. Only once k is done; it lives as long as k. */
struct warm_task *warm_ticket_task(const struct warm_ticket *k)
{
	return k->result;
}
