/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.c: a thread that finishes regular files' copies (the bytes, the
 * attributes, the close) while the walk goes on to the next file.
 *
 * On a destination that does not wait for its arm, a cold copy is bound by
 * the walk's own thread: creating, copying, stat-ing and closing each file
 * in turn while the other core idles (bench/results/ssd-copy-sync/). The
 * walk still makes every destination name itself, in the order it reads
 * (so backups, replacements, -i and the messages about names stay where
 * they were); it hands the open copy and a duplicate of the source to this
 * thread and reads on. A file that needs the walk's tables afterwards (a
 * first name of several hard links), or an option that ties the copy to
 * the walk's thread (-v's line before its errors, a rate limit, sweep-sync's
 * renames and hooks), or whose bytes a disk arm must still bring (see
 * off_the_arm), is copied on the walk's thread as before, and so is any
 * file that finds the queue full: the walk never waits for the thread
 * but to drain it, before a batch is written out and at a tree's end.
 *
 * The thread reports through a struct copy and a struct diag of its own
 * (their quoting buffers are not shared); its failures are folded into the
 * walk's exit status when it is drained. The queue is a ring with one
 * writer and one reader passed by two counters, as libsweep's announcer's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "copyint.h"

#define WRITER_SLOTS 16 /* two descriptors each, at most */
#define FDS_PER_SLOT 64 /* the descriptor limit's share: none below 64 */

struct writer_job {
	int sfd, dfd;
	bool created;
	mode_t mode;             /* as created */
	struct stat st;          /* the source's */
	struct strbuf src;       /* its path, for messages */
	struct strbuf shown;     /* the copy's name in messages */
};

struct writer {
	pthread_mutex_t mu;      /* for sleeping and waking alone */
	pthread_cond_t cv;       /* the thread: a job, or the stop */
	pthread_cond_t drained;  /* the walk: every job done */
	pthread_t thread;
	atomic_bool stop;
	atomic_bool sleeping;    /* the thread waits, or is about to */
	atomic_bool draining;    /* the walk waits, or is about to */
	atomic_size_t done;      /* jobs finished: the thread's to move */
	atomic_size_t given;     /* jobs given: the walk's to move */
	atomic_uint_fast64_t bytes; /* copied by the thread, not yet folded */
	uint64_t pending;        /* the walk's: sizes given since the last drain */
	struct copy wc;          /* the thread's copy state: options, buffer */
	struct diag d;           /* and its messages */
	size_t slots;
	size_t wake_at;          /* jobs queued that wake the thread */
	struct writer_job job[WRITER_SLOTS];
};

static void run_job(struct writer *w, struct writer_job *j)
{
	struct copy *wc = &w->wc;
	sb_reset(&wc->shown);
	if (sb_add(&wc->shown, j->shown.s, j->shown.len) < 0) {
		copy_error(wc, ENOMEM, "%s", j->shown.s);
	} else if (data_copy(wc, j->sfd, &j->st, j->dfd, j->src.s) == 0) {
		attrs_fd(wc, j->dfd, j->sfd, &j->st, j->created, j->mode, 0);
	}
	if (close(j->dfd) < 0)
		copy_error(wc, errno, "failed to close %s", cq(wc, 0, j->shown.s));
	close(j->sfd);
	atomic_fetch_add(&w->bytes, wc->bytes);
	wc->bytes = 0;
}

/* Sleep until woken; the lock spans the look and the wait (see
 * announce.c: one side always sees the other's flag or counter). */
static void wait_for_job(struct writer *w, size_t done)
{
	pthread_mutex_lock(&w->mu);
	atomic_store(&w->sleeping, true);
	while (atomic_load(&w->given) == done && !atomic_load(&w->stop))
		pthread_cond_wait(&w->cv, &w->mu);
	atomic_store(&w->sleeping, false);
	pthread_mutex_unlock(&w->mu);
}

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	for (;;) {
		size_t done = atomic_load_explicit(&w->done, memory_order_relaxed);
		if (atomic_load_explicit(&w->given, memory_order_acquire) == done) {
			if (atomic_load(&w->stop))
				break;
			wait_for_job(w, done);
			continue;
		}
		run_job(w, &w->job[done % w->slots]);
		atomic_store(&w->done, done + 1);
		if (atomic_load(&w->draining)) {
			pthread_mutex_lock(&w->mu);
			pthread_cond_signal(&w->drained);
			pthread_mutex_unlock(&w->mu);
		}
	}
	return NULL;
}

/* Whether the options let a file's copy leave the walk's thread. */
static bool options_allow(const struct copy_opts *o)
{
	return !o->no_write_thread && !o->verbose && !o->temp_rename && !o->read_data &&
	       !o->decide && !o->bwlimit && !o->alive && !o->attributes_only && !o->dry_run;
}

/* Slots for the descriptor limit: the queue's share is small, so that the
 * walk and the destination's directories keep what they count on. */
static size_t slots_allowed(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / FDS_PER_SLOT >= WRITER_SLOTS)
		return WRITER_SLOTS;
	return (size_t)(rl.rlim_cur / FDS_PER_SLOT);
}

void writer_start(struct copy *c)
{
	c->writer = NULL;
	size_t slots = slots_allowed();
	if (!options_allow(c->o) || !slots)
		return;
	struct writer *w = calloc(1, sizeof(*w));
	if (!w || !(w->wc.buf = malloc(COPY_BUFSIZE)))
		goto fail;
	w->slots = slots;
	w->wake_at = (slots + 3) / 4;
	w->wc.o = c->o;
	w->wc.umask = c->umask;
	w->wc.d = &w->d;
	w->d.prog = c->d->prog;
	w->d.style = c->d->style;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->drained, NULL);
	/* signals stay the walk's thread's to take, as behind.c's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&w->thread, NULL, writer_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err == 0) {
		c->writer = w;
		return;
	}
	pthread_cond_destroy(&w->drained);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
fail:
	if (w)
		free(w->wc.buf);
	free(w); /* the walk's thread copies every file itself */
}

/* Whether e's bytes may be read by another thread than the walk's: they
 * are in the page cache (the walk found them there, or has no place for
 * them on a disk), or the walk keeps requests in flight from threads of
 * its own (its helpers run: the device is not an arm). On an arm the
 * walk's thread alone reads, in the sweep's order, as one I/O context
 * (bfq gives each its own queue and turn). */
static bool off_the_arm(const struct copy *c, const struct sweep_entry *e)
{
	if (e->phys == SWEEP_PHYS_NONE || !c->sw)
		return true;
	struct sweep_stats s;
	sweep_get_stats(c->sw, &s, sizeof(s));
	return s.warm_threads > 0;
}

static bool full(struct writer *w)
{
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	return given - atomic_load_explicit(&w->done, memory_order_acquire) >= w->slots;
}

bool writer_give(struct copy *c, const struct sweep_entry *e, int sfd, int dfd,
                 const struct stat *st, bool created, mode_t mode)
{
	struct writer *w = c->writer;
	if (!w || (c->o->preserve_links && st->st_nlink > 1) || full(w) || !off_the_arm(c, e))
		return false;
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	struct writer_job *j = &w->job[given % w->slots];
	sb_reset(&j->src);
	sb_reset(&j->shown);
	if (sb_addstr(&j->src, e->path) < 0 || sb_add(&j->shown, c->shown.s, c->shown.len) < 0)
		return false;
	/* the walk's descriptor is valid until its next entry only */
	if ((j->sfd = fcntl(sfd, F_DUPFD_CLOEXEC, 0)) < 0)
		return false;
	j->dfd = dfd;
	j->st = *st;
	j->created = created;
	j->mode = mode;
	w->pending += (uint64_t)st->st_size;
	atomic_store(&w->given, given + 1);
	/* a wake-up costs the walk more than a small file's copy: a sleeping
	 * thread is woken for a few files at once (and by a drain) */
	if (given + 1 - atomic_load(&w->done) >= w->wake_at && atomic_load(&w->sleeping)) {
		pthread_mutex_lock(&w->mu);
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	return true;
}

uint64_t writer_bytes(const struct copy *c)
{
	return c->writer ? atomic_load(&c->writer->bytes) : 0;
}

uint64_t writer_pending(const struct copy *c)
{
	return c->writer ? c->writer->pending : 0;
}

bool writer_drain(struct copy *c)
{
	struct writer *w = c->writer;
	if (!w)
		return false;
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	bool busy = atomic_load(&w->done) != given;
	if (busy) {
		pthread_mutex_lock(&w->mu);
		pthread_cond_signal(&w->cv); /* it may sleep on fewer than wake_at */
		atomic_store(&w->draining, true);
		while (atomic_load(&w->done) != given)
			pthread_cond_wait(&w->drained, &w->mu);
		atomic_store(&w->draining, false);
		pthread_mutex_unlock(&w->mu);
	}
	/* the thread is idle: what it did and said is the walk's now */
	c->bytes += atomic_exchange(&w->bytes, 0);
	w->pending = 0;
	if (w->wc.failed)
		c->failed = true;
	w->wc.failed = false;
	diag_fail(c->d, w->d.status);
	return busy;
}

void writer_stop(struct copy *c)
{
	struct writer *w = c->writer;
	if (!w)
		return;
	writer_drain(c);
	pthread_mutex_lock(&w->mu);
	atomic_store(&w->stop, true);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->drained);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	for (size_t i = 0; i < WRITER_SLOTS; i++) {
		sb_free(&w->job[i].src);
		sb_free(&w->job[i].shown);
	}
	sb_free(&w->wc.shown);
	diag_free(&w->d);
	free(w->wc.buf);
	free(w);
	c->writer = NULL;
}
