/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dirreaders.c: threads that read directories through, so that their
 * blocks are in the cache when the walk reads them itself: each thread is
 * one request in flight (getdents has no asynchronous form), and the walk
 * hands them directories in its own order (dirahead.c says which and
 * when). Nothing here knows of the walk.
 *
 * A directory comes as a descriptor of its own (not a duplicate: the walk's
 * place in its own must not move), and the thread closes it. The queue
 * holds as many as there are threads; when it is full, or in a child of
 * fork() that has no such threads (owner.c), the walk is told no and reads
 * the directory itself. A lock and a wake-up a directory cost nothing
 * beside the read of one from a disk arm, the only device that gets them.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"
#include "owner.h"

#define READER_BUF (32u << 10)

struct sw_dirreaders {
	pthread_mutex_t mu;
	pthread_cond_t cv;       /* a directory queued, or stop */
	struct sw_owner owner;
	bool stop;
	size_t head, n, slots;   /* the ring of descriptors queued */
	size_t nthreads;
	pthread_t threads[DIR_DEPTH];
	int fd[DIR_DEPTH];
};

static void *reader_thread(void *arg)
{
	struct sw_dirreaders *r = arg;
	char *buf = malloc(READER_BUF);
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (!r->n && !r->stop)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->stop)
			break;
		int fd = r->fd[r->head];
		r->head = (r->head + 1) % r->slots;
		r->n--;
		pthread_mutex_unlock(&r->mu);
		while (buf && !__atomic_load_n(&r->stop, __ATOMIC_RELAXED) &&
		       getdents64(fd, buf, READER_BUF) > 0)
			;
		close(fd);
		pthread_mutex_lock(&r->mu);
	}
	pthread_mutex_unlock(&r->mu);
	free(buf);
	return NULL;
}

/* Starts up to n threads (at most DIR_DEPTH), fewer where the system gives
 * no more; NULL where none started. */
struct sw_dirreaders *sw_dirreaders_start(size_t n)
{
	struct sw_dirreaders *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->slots = n < DIR_DEPTH ? n : DIR_DEPTH;
	sw_owner_init(&r->owner);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	while (r->nthreads < r->slots &&
	       sw_thread_start(&r->threads[r->nthreads], reader_thread, r) == 0)
		r->nthreads++;
	if (!r->nthreads) {
		sw_dirreaders_stop(r);
		return NULL;
	}
	return r;
}

/* Queues directory fd to be read through; the threads then own it. false
 * (fd still the caller's) where the queue is full or the threads are not
 * this process's. */
bool sw_dirreaders_give(struct sw_dirreaders *r, int fd)
{
	if (!r || !sw_owner_here(&r->owner))
		return false;
	pthread_mutex_lock(&r->mu);
	bool room = r->n < r->slots;
	if (room) {
		r->fd[(r->head + r->n) % r->slots] = fd;
		r->n++;
		pthread_cond_signal(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	return room;
}

/* Whether r's threads are this process's (not a child of fork()'s). */
bool sw_dirreaders_here(const struct sw_dirreaders *r)
{
	return r && sw_owner_here(&r->owner);
}

size_t sw_dirreaders_threads(const struct sw_dirreaders *r)
{
	return r ? r->nthreads : 0;
}

void sw_dirreaders_stop(struct sw_dirreaders *r)
{
	if (!r)
		return;
	/* in a child of fork() the threads do not exist, and the lock may
	 * have been held by one of them: only descriptors and memory go */
	if (sw_owner_here(&r->owner)) {
		pthread_mutex_lock(&r->mu);
		__atomic_store_n(&r->stop, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		for (size_t i = 0; i < r->nthreads; i++)
			pthread_join(r->threads[i], NULL);
		pthread_cond_destroy(&r->cv);
		pthread_mutex_destroy(&r->mu);
	}
	for (size_t i = 0; i < r->n; i++)
		close(r->fd[(r->head + i) % r->slots]);
	sw_owner_fini(&r->owner);
	free(r);
}
