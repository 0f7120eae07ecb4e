/*
 * warm.c: helper threads that pull metadata into the cache ahead of the walk.
 *
 * On a device where seeks are cheap (an SSD) the order of requests hardly
 * matters, their number in flight does: this VM's disk does 44k random
 * reads a second at depth 32 and 10k at depth 1. The walk itself issues one
 * request at a time, so while it runs on such a device with a cold cache,
 * every directory it reads is handed to a pool of threads that stat its
 * names and read its subdirectories, which fills the inode and directory
 * caches one level ahead of the walk. The threads change nothing and hand
 * nothing back: the walk finds the caches warm, its order and results are
 * the same, and a task dropped (queue full, no memory) only costs its I/O
 * later.
 *
 * A task holds a duplicate of the directory's descriptor and a packed copy
 * of the names to warm. Descriptors are the scarce part: the threads and
 * their queue keep to an eighth of RLIMIT_NOFILE (one per task waiting, two
 * per thread at work), at most WARM_QUEUE tasks; a task that does not fit
 * is not made. Subdirectories of another file system are not read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define WARM_QUEUE    128        /* tasks waiting (each with a descriptor), at most */
#define WARM_DENTBUF  (32u << 10)

struct warm_task {
	struct warm_task *next;
	int fd;          /* the directory, dup-ed */
	dev_t dev;       /* its device: subdirectories elsewhere are skipped */
	bool stat_all;   /* stat every name, not only directories */
	size_t len;      /* bytes used in names: (type byte, name, NUL)... */
	size_t cap;
	char *names;
};

struct sw_warm {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct warm_task *head, *tail;
	size_t queued, max_queued;
	bool stop;
	size_t nthreads;
	pthread_t threads[SWEEP_WARM_THREADS];
};

static void task_free(struct warm_task *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->names);
	free(t);
}

/* Read directory fd to its end; what is read is not kept. */
static void read_through(int fd, char *buf)
{
	while (getdents64(fd, buf, WARM_DENTBUF) > 0)
		;
}

static void warm_subdir(const struct warm_task *t, const char *name, char *buf)
{
	int fd = openat(t->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
	                O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_dev == t->dev)
		read_through(fd, buf);
	close(fd);
}

static void run_task(const struct warm_task *t, char *buf)
{
	for (size_t off = 0; off < t->len;) {
		unsigned char type = (unsigned char)t->names[off];
		const char *name = t->names + off + 1;
		off += 2 + strlen(name);
		bool dir = type == DT_DIR;
		if (t->stat_all || type == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(t->fd, name, &st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT) < 0)
				continue;
			dir = S_ISDIR(st.st_mode) && st.st_dev == t->dev;
		}
		if (dir)
			warm_subdir(t, name, buf);
	}
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
		w->queued--;
		pthread_mutex_unlock(&w->mu);
		if (buf)
			run_task(t, buf);
		task_free(t);
		pthread_mutex_lock(&w->mu);
	}
	pthread_mutex_unlock(&w->mu);
	free(buf);
	return NULL;
}

/* How many descriptors the threads and their queue may hold. */
static size_t fd_share(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return WARM_QUEUE + SWEEP_WARM_THREADS;
	return (size_t)rl.rlim_cur / 8;
}

struct sw_warm *warm_start(void)
{
	size_t share = fd_share();
	if (share < 4)
		return NULL;
	struct sw_warm *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	/* a thread at work holds its task's descriptor and a subdirectory's */
	size_t threads = share / 4 < SWEEP_WARM_THREADS ? share / 4 : SWEEP_WARM_THREADS;
	size_t room = share - 2 * threads;
	w->max_queued = room < WARM_QUEUE ? room : WARM_QUEUE;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	/* the caller's signals stay the caller's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (w->nthreads < threads &&
	       pthread_create(&w->threads[w->nthreads], NULL, warm_thread, w) == 0)
		w->nthreads++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
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
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (size_t i = 0; i < w->nthreads; i++)
		pthread_join(w->threads[i], NULL);
	while (w->head) {
		struct warm_task *t = w->head;
		w->head = t->next;
		task_free(t);
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

/* Whether to warm ahead now: asked for; or by default, while directory
 * reads miss and misses are cheap (latency.c). Once started, the threads
 * stay for the rest of the walk. */
static bool warm_wanted(struct sweep *sw)
{
	if (sw->opt.warm == SWEEP_WARM_OFF || sw->warm_failed)
		return false;
	if (!sw->warm && sw->opt.warm == SWEEP_WARM_AUTO &&
	    (dirs_cached(sw) || !misses_cheap(sw)))
		return false;
	if (!sw->warm && !(sw->warm = warm_start())) {
		sw->warm_failed = true;
		return false;
	}
	sw->stats.warm_threads = (unsigned)sw->warm->nthreads;
	return true;
}

/* A task to fill with the names of directory dirfd as they are read, or
 * NULL when no warming is wanted now (or possible). */
struct warm_task *warm_task_for(struct sweep *sw, int dirfd, dev_t dev)
{
	if (!warm_wanted(sw))
		return NULL;
	struct sw_warm *w = sw->warm;
	pthread_mutex_lock(&w->mu);
	bool full = w->queued >= w->max_queued;
	pthread_mutex_unlock(&w->mu);
	if (full)
		return NULL;
	struct warm_task *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (t->fd < 0) {
		free(t);
		return NULL;
	}
	t->dev = dev;
	t->stat_all = !(sw->opt.flags & SWEEP_NOSTAT);
	return t;
}

/* Add a name to warm: every name when stat_all, else only those that may be
 * directories. Returns false when memory ran out (the task is then best
 * dropped). */
bool warm_task_add(struct warm_task *t, unsigned char type, const char *name, size_t namelen)
{
	if (!t->stat_all && type != DT_DIR && type != DT_UNKNOWN)
		return true;
	char *v = sw_grow(t->names, &t->cap, t->len + namelen + 2, 1);
	if (!v)
		return false;
	t->names = v;
	t->names[t->len] = (char)type;
	memcpy(t->names + t->len + 1, name, namelen + 1);
	t->len += namelen + 2;
	return true;
}

void warm_submit(struct sw_warm *w, struct warm_task *t)
{
	if (!t->len) {
		task_free(t);
		return;
	}
	pthread_mutex_lock(&w->mu);
	if (w->queued >= w->max_queued) {
		pthread_mutex_unlock(&w->mu);
		task_free(t);
		return;
	}
	if (w->tail)
		w->tail->next = t;
	else
		w->head = t;
	w->tail = t;
	w->queued++;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void warm_task_drop(struct warm_task *t)
{
	if (t)
		task_free(t);
}
