/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * announce.c: a thread of its own that makes the data phase's
 * announcements (posix_fadvise WILLNEED) where the device wants depth.
 *
 * An announcement is not cheap: the kernel allocates the pages, builds the
 * requests and, in a virtual machine, exits to the host to ring the
 * device's doorbell; for a tree of small files read cold from an SSD that
 * is a fifth of the walk's own time, spent while the other core idles. The
 * walk hands the thread a duplicate of the file's descriptor instead, and
 * reads on; the thread announces and closes it. On a disk arm the walk
 * announces itself: there the order of requests is the point, and one
 * thread is one I/O context to the elevator (bfq gives each its own queue
 * and turn). The queue is small (its descriptors count against the walk's
 * budget, limits.c); when it is full, or in a child of fork() that has no
 * such thread, the caller announces itself.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

struct announce_job {
	int fd;
	off_t off, len;
};

struct sw_announcer {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	pid_t pid;
	bool stop;
	size_t head, n, slots;
	struct announce_job job[];
};

static void *announce_thread(void *arg)
{
	struct sw_announcer *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->n && !a->stop)
			pthread_cond_wait(&a->cv, &a->mu);
		if (!a->n)
			break;
		struct announce_job j = a->job[a->head];
		a->head = (a->head + 1) % a->slots;
		a->n--;
		bool stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (!stop)
			posix_fadvise(j.fd, j.off, j.len, POSIX_FADV_WILLNEED);
		close(j.fd);
		pthread_mutex_lock(&a->mu);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

struct sw_announcer *sw_announcer_start(size_t slots)
{
	if (!slots)
		return NULL;
	struct sw_announcer *a = calloc(1, sizeof(*a) + slots * sizeof(a->job[0]));
	if (!a)
		return NULL;
	a->slots = slots;
	a->pid = getpid();
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	if (sw_thread_start(&a->thread, announce_thread, a) != 0) {
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		free(a);
		return NULL;
	}
	return a;
}

bool sw_announce(struct sw_announcer *a, int fd, off_t off, off_t len)
{
	if (!a || a->pid != getpid())
		return false;
	pthread_mutex_lock(&a->mu);
	int dup = a->n < a->slots ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
	if (dup >= 0) {
		a->job[(a->head + a->n) % a->slots] = (struct announce_job){ dup, off, len };
		a->n++;
		pthread_cond_signal(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return dup >= 0;
}

void sw_announcer_stop(struct sw_announcer *a)
{
	if (!a)
		return;
	if (a->pid == getpid()) {
		pthread_mutex_lock(&a->mu);
		a->stop = true;
		pthread_cond_signal(&a->cv);
		pthread_mutex_unlock(&a->mu);
		pthread_join(a->thread, NULL);
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
	}
	for (; a->n; a->n--, a->head = (a->head + 1) % a->slots)
		close(a->job[a->head].fd);
	free(a);
}
