/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prewalk.c: a local run's destination, walked in its own disk order
 * (metadata only, nothing kept) by a thread of its own while the source is
 * walked, so that the quick check's look at each destination entry finds
 * it in the inode cache. Else those looks come one at a time in the
 * source's order, each waiting for its own read. The walk reads ahead of
 * them with as many reads in flight as libsweep judges the device takes.
 * In a cached tree it costs the other core a few hundred nanoseconds an
 * entry, and it stops when the copy's walk is over.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "sync.h"
#include "walkenv.h"

struct prewalk {
	pthread_t thread;
	struct sweep *sw;
	atomic_bool stop;
};

static void *run(void *arg)
{
	struct prewalk *p = arg;
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed) && sweep_next(p->sw) != NULL)
		;
	return NULL;
}

struct prewalk *sync_prewalk_start(int dfd, const char *name)
{
	struct stat st;
	if (dfd < 0 || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
		return NULL; /* nothing there yet: nothing to look at */
	struct prewalk *p = calloc(1, sizeof(*p));
	struct sweep_options so = { .flags = SWEEP_NODATA };
	walkenv_read(&so.order, &so.warm);
	/* signals are the copy's thread's: its handlers remove its temporary
	 * file, which this thread must not race */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	bool started = p && (p->sw = sweep_open(NULL, &so)) != NULL &&
	               sweep_add_root(p->sw, dfd, name) == 0 &&
	               pthread_create(&p->thread, NULL, run, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started)
		return p;
	/* without it, only slower */
	if (p && p->sw)
		sweep_close(p->sw);
	free(p);
	return NULL;
}

void sync_prewalk_end(struct prewalk *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	pthread_join(p->thread, NULL);
	sweep_close(p->sw);
	free(p);
}
