/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * behind.c: a batch written out by a thread of its own while the walk reads
 * the next one, for a copy onto another disk than its source.
 *
 * On one disk a batch must be written before the sweep reads on: the arm
 * cannot do both. Onto a second disk that wait only serializes two arms
 * that could work at once: the whole Linux tree onto a second emulated disk
 * left the source idle 48 s of 64 (bench/results/cp-full-s1/). Here the
 * batch's syncfs() goes to the thread, and the walk reads on; the next
 * batch waits for it, so at most two batches are dirty at once. The thread
 * only writes out and keeps the error: what it found is reported by the
 * walk's thread, at the next batch or at the end.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include "copyint.h"

struct behind {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	int fd;       /* on the destination's file system */
	bool want;    /* a batch to write out */
	bool stop;
	int err;      /* of the last write-out, until taken */
};

static void *behind_thread(void *arg)
{
	struct behind *b = arg;
	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (!b->want && !b->stop)
			pthread_cond_wait(&b->cv, &b->mu);
		if (!b->want)
			break;
		pthread_mutex_unlock(&b->mu);
		int err = syncfs(b->fd) < 0 ? errno : 0;
		pthread_mutex_lock(&b->mu);
		b->want = false;
		if (err && !b->err)
			b->err = err;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

struct behind *behind_start(int fd)
{
	struct behind *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->fd = fd;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	if (copy_thread_start(&b->thread, behind_thread, b) != 0) {
		pthread_cond_destroy(&b->cv);
		pthread_mutex_destroy(&b->mu);
		free(b);
		return NULL;
	}
	return b;
}

/* Wait for the batch being written out, if any. Returns its errno, or 0. */
int behind_wait(struct behind *b)
{
	pthread_mutex_lock(&b->mu);
	while (b->want)
		pthread_cond_wait(&b->cv, &b->mu);
	int err = b->err;
	b->err = 0;
	pthread_mutex_unlock(&b->mu);
	return err;
}

/* Have the thread write out what is dirty now; the caller waited first. */
void behind_write(struct behind *b)
{
	pthread_mutex_lock(&b->mu);
	b->want = true;
	pthread_cond_signal(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

/* Stop the thread (after behind_wait: nothing is being written). */
void behind_stop(struct behind *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->stop = true;
	pthread_cond_signal(&b->cv);
	pthread_mutex_unlock(&b->mu);
	pthread_join(b->thread, NULL);
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
	free(b);
}
