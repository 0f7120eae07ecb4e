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
 * such thread (owner.c tells), the caller announces itself.
 *
 * The queue is a ring with one writer (the walk) and one reader (the
 * thread), passed by its two counters alone: a lock and a wake-up for every
 * file cost the walk a tenth of its time in a cold copy (the thread,
 * mostly busy, woke the walk back each time it let go of the lock). The
 * thread is woken only when it said it sleeps.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"
#include "owner.h"

struct announce_job {
	int fd;
	off_t off, len;
};

struct sw_announcer {
	pthread_mutex_t mu;      /* for sleeping and waking alone */
	pthread_cond_t cv;
	pthread_t thread;
	struct sw_owner owner;   /* whether the thread is this process's */
	atomic_bool stop;
	atomic_bool sleeping;    /* the thread waits, or is about to */
	atomic_size_t head;      /* jobs taken: the thread's to move */
	atomic_size_t tail;      /* jobs given: the walk's to move */
	size_t slots;
	struct announce_job job[];
};

/* Wait for a job or the stop. The walk publishes its tail before it looks
 * at sleeping, the thread says it sleeps before it looks at the tail: one
 * of the two sees the other (both sequentially consistent), and the signal
 * cannot fall between the look and the wait, which the lock spans. */
static void wait_for_job(struct sw_announcer *a, size_t head)
{
	pthread_mutex_lock(&a->mu);
	atomic_store(&a->sleeping, true);
	while (atomic_load(&a->tail) == head && !atomic_load(&a->stop))
		pthread_cond_wait(&a->cv, &a->mu);
	atomic_store(&a->sleeping, false);
	pthread_mutex_unlock(&a->mu);
}

static void *announce_thread(void *arg)
{
	struct sw_announcer *a = arg;
	for (;;) {
		size_t head = atomic_load_explicit(&a->head, memory_order_relaxed);
		if (atomic_load_explicit(&a->tail, memory_order_acquire) == head) {
			if (atomic_load(&a->stop))
				break;
			wait_for_job(a, head);
			continue;
		}
		/* taken before it is done: a child of fork() closes what is
		 * still queued, and must not close a descriptor this thread
		 * closed and the walk may have opened again */
		struct announce_job j = a->job[head % a->slots];
		atomic_store_explicit(&a->head, head + 1, memory_order_release);
		if (!atomic_load_explicit(&a->stop, memory_order_relaxed))
			posix_fadvise(j.fd, j.off, j.len, POSIX_FADV_WILLNEED);
		close(j.fd);
	}
	return NULL;
}

static void wake(struct sw_announcer *a)
{
	pthread_mutex_lock(&a->mu);
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

struct sw_announcer *sw_announcer_start(size_t slots)
{
	if (!slots)
		return NULL;
	struct sw_announcer *a = calloc(1, sizeof(*a) + slots * sizeof(a->job[0]));
	if (!a)
		return NULL;
	a->slots = slots;
	sw_owner_init(&a->owner);
	atomic_init(&a->stop, false);
	atomic_init(&a->sleeping, false);
	atomic_init(&a->head, 0);
	atomic_init(&a->tail, 0);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	if (sw_thread_start(&a->thread, announce_thread, a) != 0) {
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		sw_owner_fini(&a->owner);
		free(a);
		return NULL;
	}
	return a;
}

bool sw_announce(struct sw_announcer *a, int fd, off_t off, off_t len)
{
	if (!a || !sw_owner_here(&a->owner))
		return false;
	size_t tail = atomic_load_explicit(&a->tail, memory_order_relaxed);
	if (tail - atomic_load_explicit(&a->head, memory_order_acquire) >= a->slots)
		return false; /* full: the thread is behind */
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (dup < 0)
		return false;
	a->job[tail % a->slots] = (struct announce_job){ dup, off, len };
	atomic_store(&a->tail, tail + 1);
	if (atomic_load(&a->sleeping))
		wake(a);
	return true;
}

void sw_announcer_stop(struct sw_announcer *a)
{
	if (!a)
		return;
	if (sw_owner_here(&a->owner)) {
		atomic_store(&a->stop, true);
		wake(a);
		pthread_join(a->thread, NULL);
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
	}
	/* what the thread did not take (in a child of fork(), all of it) */
	for (size_t h = atomic_load(&a->head), t = atomic_load(&a->tail); h != t; h++)
		close(a->job[h % a->slots].fd);
	sw_owner_fini(&a->owner);
	free(a);
}
