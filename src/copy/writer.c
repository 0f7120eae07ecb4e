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
 * thread and reads on. sweep-sync hands the name instead, with a file
 * made without one (tempfile.c), which the thread writes and then names;
 * where such files cannot be made, the thread makes a temporary file,
 * writes it and renames it over the name, one at a time, so that a killed
 * run leaves no more behind than rsync. A
 * directory's attributes are a job too, after the files given before it
 * (a rename moves its times).
 *
 * A file that needs the walk's tables afterwards (a first name of several
 * hard links), an option that ties the copy to the walk's thread (-v's
 * line before its errors, a rate limit, sweep-sync's --timeout watch), or
 * bytes that a disk arm must still bring (off_the_arm) are copied on the
 * walk's thread as before; so is a file of sweep-cp that finds the queue
 * full (sweep-sync waits for room instead, and drains the thread before it
 * writes a file itself). Otherwise the walk waits for the thread only to
 * drain it: before a batch is written out, when descriptors run out, and
 * at a tree's end.
 *
 * The thread reports through a struct copy and a struct diag of its own
 * (their quoting buffers are not shared); its failures are folded into the
 * walk's exit status when it is drained. The queue is a ring with one
 * writer and one reader passed by two counters, as libsweep's announcer's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "copyint.h"

#define WRITER_SLOTS 16 /* two or three descriptors each, at most */
#define FDS_PER_SLOT 64 /* the descriptor limit's share: none below 64 */

struct writer_slot {
	bool dir;                /* a directory's attributes, after its files */
	unsigned dflags;         /* its DIR_* flags */
	int sfd, dfd;            /* a directory's sfd may be -1 */
	int pfd;                 /* sweep-sync: the directory of temp, or -1 */
	bool created;
	mode_t mode;             /* as created */
	struct stat st;          /* the source's */
	struct strbuf src;       /* its path, for messages */
	struct strbuf shown;     /* the copy's name in messages */
	struct strbuf name;      /* sweep-sync: its name in pfd */
	dev_t ddev;              /* the copy's file, to tell when another name */
	ino_t dino;              /* ... of it is to be cut (0, 0: unknown) */
};

struct writer {
	pthread_mutex_t mu;      /* for sleeping and waking alone */
	pthread_cond_t cv;       /* the thread: a job, or the stop */
	pthread_cond_t drained;  /* the walk: every job done */
	pthread_t thread;
	atomic_bool stop;
	atomic_bool sleeping;    /* the thread waits, or is about to */
	atomic_size_t waiting;   /* the walk waits (or is about to) for no more
	                            than this many jobs queued; SIZE_MAX: not */
	atomic_size_t done;      /* jobs finished: the thread's to move */
	atomic_size_t given;     /* jobs given: the walk's to move */
	atomic_uint_fast64_t bytes; /* copied by the thread, not yet folded */
	uint64_t pending;        /* the walk's: sizes given since the last drain */
	struct copy wc;          /* the thread's copy state: options, buffer */
	struct diag d;           /* and its messages */
	size_t slots;
	size_t wake_at;          /* jobs queued that wake the thread */
	atomic_bool unnamed;     /* sweep-sync's files start without a name */
	atomic_bool write_failed; /* wc.write_failed, for the walk to see */
	struct writer_slot job[WRITER_SLOTS];
};

/* Whether a job is to be dropped unwritten: a write failed and ends the
 * copy (write_error_ends), and the job's file has no name yet (a temporary
 * file's), so that nothing is left of it. */
static bool dropped(const struct copy *wc, const struct writer_slot *j)
{
	return wc->o->write_error_ends && wc->write_failed && !j->dir && j->pfd >= 0;
}

static void run_job(struct writer *w, struct writer_slot *j)
{
	struct copy *wc = &w->wc;
	wc->shown = j->shown; /* lent for the messages, given back below */
	if (dropped(wc, j)) {
		if (j->dfd >= 0)
			close(j->dfd); /* unnamed: gone with its descriptor */
		close(j->pfd);
	} else if (j->dir) {
		attrs_fd(wc, j->dfd, j->sfd, &j->st, j->created, j->mode, j->dflags);
		close(j->dfd);
	} else if (j->pfd >= 0) {
		tempfile_write(wc, j->src.s, j->sfd, &j->st, j->pfd, j->name.s, j->dfd);
		if (wc->unnamed_refused) /* (a link refused): the walk stops */
			atomic_store_explicit(&w->unnamed, false, memory_order_relaxed);
		close(j->pfd);
	} else {
		regular_finish(wc, j->sfd, &j->st, j->dfd, j->src.s, j->created, j->mode);
	}
	j->shown = wc->shown;
	wc->shown = (struct strbuf)STRBUF_INIT;
	if (j->sfd >= 0)
		close(j->sfd);
	atomic_fetch_add(&w->bytes, wc->bytes);
	wc->bytes = 0;
	if (wc->write_failed)
		atomic_store(&w->write_failed, true);
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
		size_t want = atomic_load(&w->waiting);
		if (want != SIZE_MAX && atomic_load(&w->given) - (done + 1) <= want) {
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
	return !o->no_write_thread && !o->done && !o->append && !o->verbose && !o->read_data && !o->bwlimit &&
	       !o->alive && !o->attributes_only && !o->dry_run;
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
	/* named through /proc; a part kept (--partial) needs a name at once */
	atomic_init(&w->unnamed, c->o->temp_rename && !c->o->keep_partial &&
	                         access("/proc/self/fd", X_OK) == 0);
	atomic_init(&w->waiting, SIZE_MAX);
	w->wc.o = c->o;
	w->wc.umask = c->umask;
	w->wc.d = &w->d;
	w->d.prog = c->d->prog;
	w->d.style = c->d->style;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->drained, NULL);
	if (copy_thread_start(&w->thread, writer_thread, w) == 0) {
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

/* Hand the slot filled at given to the thread. A wake-up costs the walk
 * more than a small file's copy: a sleeping thread is woken for a few
 * jobs at once (and by a drain). */
static void publish(struct writer *w, size_t given)
{
	atomic_store(&w->given, given + 1);
	if (given + 1 - atomic_load(&w->done) >= w->wake_at && atomic_load(&w->sleeping)) {
		pthread_mutex_lock(&w->mu);
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
}

/* A file without a name for a temporary file in pfd (of the source's
 * status st), or -1: a named one is made. A file system that has none is
 * not asked again. */
static int unnamed_file(struct writer *w, struct copy *c, const struct stat *st, int pfd)
{
	if (!atomic_load_explicit(&w->unnamed, memory_order_relaxed))
		return -1;
	int fd = tempfile_unnamed(c, st, pfd);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR))
		atomic_store_explicit(&w->unnamed, false, memory_order_relaxed);
	return fd;
}

/* Fill slot j of w from job, its names and descriptors its own. Returns
 * 0, or -1 (nothing taken). */
static int fill_slot(struct writer *w, struct copy *c, struct writer_slot *j,
                     const struct writer_job *job)
{
	sb_reset(&j->src);
	sb_reset(&j->shown);
	sb_reset(&j->name);
	if (sb_addstr(&j->src, job->e->path) < 0 || sb_add(&j->shown, c->shown.s, c->shown.len) < 0 ||
	    (job->pfd >= 0 && sb_addstr(&j->name, job->name) < 0))
		return -1;
	j->pfd = -1;
	/* the walk's descriptors are valid until its next entry only */
	if (job->pfd >= 0 && (j->pfd = fcntl(job->pfd, F_DUPFD_CLOEXEC, 0)) < 0)
		return -1;
	if ((j->sfd = fcntl(job->sfd, F_DUPFD_CLOEXEC, 0)) < 0) {
		if (j->pfd >= 0)
			close(j->pfd);
		return -1;
	}
	j->dir = false;
	j->dfd = job->dfd;
	/* a file this run made (or a temporary one) has no other name a later
	 * copy could write or read it by: only one found in place is looked
	 * at, which spares every new file a system call */
	struct stat ds;
	j->ddev = 0;
	j->dino = 0;
	if (!job->created && job->pfd < 0 && j->dfd >= 0 && fstat(j->dfd, &ds) == 0) {
		j->ddev = ds.st_dev;
		j->dino = ds.st_ino;
	}
	/* making the file is the larger part of a small file's copy: on the
	 * walk's thread, which waits for this one more often than not (made
	 * by the thread when its queue was short, the copy took 10% longer) */
	if (job->pfd >= 0)
		j->dfd = unnamed_file(w, c, job->st, job->pfd);
	j->st = *job->st;
	j->created = job->created;
	j->mode = job->mode;
	return 0;
}

/* Wait until at most most jobs are queued. The thread, mostly busy when
 * the walk waits for room, wakes it when half the queue is free, not for
 * every job done. */
static void wait_for_queued(struct writer *w, size_t most)
{
	pthread_mutex_lock(&w->mu);
	pthread_cond_signal(&w->cv); /* it may sleep on fewer than wake_at */
	atomic_store(&w->waiting, most);
	while (atomic_load(&w->given) - atomic_load(&w->done) > most)
		pthread_cond_wait(&w->drained, &w->mu);
	atomic_store(&w->waiting, SIZE_MAX);
	pthread_mutex_unlock(&w->mu);
}

bool writer_give(struct copy *c, const struct writer_job *job)
{
	struct writer *w = c->writer;
	const struct stat *st = job->st;
	if (!w)
		return false;
	bool temp = job->pfd >= 0;
	/* a file written in place under write_error_ends is the walk's: the
	 * queue's would have been cut to nothing (regular.c's cut()) before a
	 * failed write stops the copy (dropped() can drop only unnamed ones) */
	if (hardlink_tracked(c, job->e) || (temp && c->o->backup) ||
	    (!temp && c->o->write_error_ends) || !off_the_arm(c, job->e)) {
		/* one temporary file at a time, as rsync's: killed, the run
		 * leaves no more behind */
		if (temp)
			writer_drain(c);
		return false;
	}
	if (full(w)) {
		if (!temp)
			return false; /* the walk copies it itself */
		wait_for_queued(w, w->slots / 2);
	}
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	if (fill_slot(w, c, &w->job[given % w->slots], job) < 0) {
		if (temp)
			writer_drain(c); /* the walk writes it: the thread has none */
		return false;
	}
	w->pending += (uint64_t)st->st_size;
	publish(w, given);
	return true;
}

bool writer_give_dir(struct copy *c, const struct sweep_entry *e, int fd, int sfd,
                     unsigned flags, mode_t mode)
{
	struct writer *w = c->writer;
	if (!w)
		return false;
	if (full(w)) {
		writer_drain(c); /* its files are done: the walk's turn */
		return false;
	}
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	struct writer_slot *j = &w->job[given % w->slots];
	sb_reset(&j->shown);
	if (sb_add(&j->shown, c->shown.s, c->shown.len) < 0) {
		writer_drain(c);
		return false;
	}
	j->dir = true;
	j->dfd = fd;
	j->sfd = sfd;
	j->pfd = -1;
	j->st = e->st;
	j->created = flags & DIR_CREATED;
	j->mode = mode;
	j->dflags = flags;
	publish(w, given);
	return true;
}

void writer_wait_for(struct copy *c, const struct stat *st)
{
	struct writer *w = c->writer;
	if (!w)
		return;
	size_t given = atomic_load_explicit(&w->given, memory_order_relaxed);
	for (size_t i = atomic_load(&w->done); i != given; i++) {
		const struct writer_slot *j = &w->job[i % w->slots];
		if (!j->dir && ((j->dino == st->st_ino && j->ddev == st->st_dev) ||
		                (j->st.st_ino == st->st_ino && j->st.st_dev == st->st_dev))) {
			writer_drain(c);
			return;
		}
	}
}

void writer_remove_temps(struct copy *c)
{
	if (c->writer)
		tempfile_remove_armed(c, &c->writer->wc.temp);
}

uint64_t writer_bytes(const struct copy *c)
{
	return c->writer ? atomic_load(&c->writer->bytes) : 0;
}

bool writer_write_failed(const struct copy *c)
{
	return c->writer && atomic_load(&c->writer->write_failed);
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
	if (busy)
		wait_for_queued(w, 0);
	/* the thread is idle: what it did and said is the walk's now */
	c->bytes += atomic_exchange(&w->bytes, 0);
	w->pending = 0;
	if (w->wc.failed)
		c->failed = true;
	w->wc.failed = false;
	c->write_failed |= w->wc.write_failed;
	diag_fail(c->d, w->d.status);
	return busy;
}

void writer_stop(struct copy *c)
{
	struct writer *w = c->writer;
	if (!w)
		return;
	writer_drain(c);
	/* gone for the signal handler (copy_remove_temp) before it is freed;
	 * drained, the thread holds no temporary file */
	c->writer = NULL;
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
		sb_free(&w->job[i].name);
	}
	diag_free(&w->d);
	free(w->wc.buf);
	free(w);
}
