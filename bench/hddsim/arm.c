/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * arm.c: the one arm of the drive. FUSE worker threads queue their requests
 * here and block; a single thread serves them one at a time, choosing among
 * the first `depth` waiting ones (the drive's own queue: FIFO, or shortest
 * access time first), and sleeps until the modelled completion before it
 * lets the request go. Model time runs with real time divided by the scale,
 * so the platter keeps turning while the drive is idle.
 *
 * A flat device (--class flat, ssd) has no arm and no thread: the FUSE
 * thread that brings a request asks flat.c when it ends and sleeps until
 * then, so as many are served at once as there are threads waiting.
 *
 * With host_us, each request is charged that much host round trip (FUSE,
 * loop, the kernel's completion) before the drive starts on it, and its
 * answer leaves that much before the modelled end: the host's real overhead
 * then falls inside the modelled time instead of adding to it, and a stream
 * of requests reaches the drive back to back, as over a SATA link.
 */
#include <errno.h>
#include <sys/prctl.h>
#include "hddsim.h"

struct hd_req {
	uint64_t off, len;
	int write, done;
	double arrive; /* model time */
	struct hd_req *next;
	pthread_cond_t cv;
};

/* Model time now; with scale 0 the clock only moves when the arm works. */
static double model_now(const struct hd_arm *a)
{
	if (a->p->scale <= 0)
		return a->head.now;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double real = (double)(ts.tv_sec - a->t0.tv_sec) * 1e9 +
		      (double)(ts.tv_nsec - a->t0.tv_nsec);
	return real / a->p->scale;
}

static void sleep_until(const struct hd_arm *a, double model)
{
	if (a->p->scale <= 0)
		return;
	double real = model * a->p->scale;
	long long ns = (long long)real + a->t0.tv_nsec;
	struct timespec ts = { .tv_sec = a->t0.tv_sec + (time_t)(ns / 1000000000),
			       .tv_nsec = ns % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static double start_of(const struct hd_arm *a, const struct hd_req *r)
{
	return r->arrive > a->head.now ? r->arrive : a->head.now;
}

/* Unlinks and returns the request the drive serves next. */
static struct hd_req *arm_pick(struct hd_arm *a)
{
	struct hd_req **best = &a->first, **pp = &a->first;
	if (a->p->satf) {
		double best_t = 0;
		for (unsigned i = 0; *pp && i < a->p->depth; i++, pp = &(*pp)->next) {
			struct hd_cost c;
			double t = start_of(a, *pp);
			hd_cost(a->g, &a->head, &a->buf, (*pp)->off, (*pp)->len,
				(*pp)->write, t, &c);
			double ready = t + c.seek + c.rot;
			if (i == 0 || ready < best_t) {
				best = pp;
				best_t = ready;
			}
		}
	}
	struct hd_req *r = *best;
	*best = r->next;
	if (a->last == r) {
		a->last = NULL;
		for (struct hd_req *q = a->first; q; q = q->next)
			a->last = q;
	}
	a->pending--;
	return r;
}

static void *arm_main(void *arg)
{
	struct hd_arm *a = arg;
	prctl(PR_SET_TIMERSLACK, 1UL); /* the default 50 us is a seek's worth */
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->first && !a->stop)
			pthread_cond_wait(&a->work, &a->mu);
		if (!a->first)
			break;
		struct hd_req *r = arm_pick(a);
		double t = start_of(a, r);
		a->stats.idle_ns += t - a->head.now;
		double host = a->p->host_us * 1e3;
		struct hd_cost c;
		hd_cost(a->g, &a->head, &a->buf, r->off, r->len, r->write, t + host, &c);
		double tc = hd_commit(a->g, &a->head, &a->buf, r->off, r->len,
				      r->write, t + host, &c, &a->stats);
		pthread_mutex_unlock(&a->mu);
		sleep_until(a, tc - host);
		pthread_mutex_lock(&a->mu);
		r->done = 1;
		pthread_cond_signal(&r->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Starts the arm thread (a flat device needs none); returns 0 or an errno
 * value. */
int hd_arm_start(struct hd_arm *a, const struct hd_params *p, const struct hd_geom *g)
{
	*a = (struct hd_arm){ .p = p, .g = g, .buf = hd_buffer_of(p) };
	hd_head_init(&a->head);
	if (p->flat && hd_flat_init(&a->flat, p) < 0)
		return ENOMEM;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->work, NULL);
	clock_gettime(CLOCK_MONOTONIC, &a->t0);
	int e = p->flat ? 0 : pthread_create(&a->thread, NULL, arm_main, a);
	if (e)
		return e;
	a->started = 1;
	return 0;
}

void hd_arm_stop(struct hd_arm *a)
{
	if (!a->started)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->mu);
	if (!a->p->flat)
		pthread_join(a->thread, NULL);
	a->started = 0;
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->mu);
	hd_flat_free(&a->flat);
}

/* A request to the flat device: its end computed at once, then waited for
 * on the calling thread, the channels and link state updated under the lock
 * so that concurrent callers queue as the model says. host_us is taken as
 * part of the latency there: the answer leaves that much early, so that a
 * request at depth 1 takes the modelled latency, host included. */
static void flat_submit(struct hd_arm *a, uint64_t len, int write)
{
	double host = a->p->host_us * 1e3;
	pthread_mutex_lock(&a->mu);
	double t = model_now(a);
	double end = hd_flat_serve(&a->flat, a->p, len, write, t, &a->stats);
	if (++a->in_flight > a->stats.queue_max)
		a->stats.queue_max = a->in_flight;
	if (a->p->scale <= 0)
		a->head.now = end; /* the only clock there is */
	pthread_mutex_unlock(&a->mu);
	sleep_until(a, end - host);
	pthread_mutex_lock(&a->mu);
	a->in_flight--;
	pthread_mutex_unlock(&a->mu);
}

/* Queues a request and returns once the drive has served it. The request
 * lives on this stack frame: the arm unlinks it before marking it done, and
 * this function does not return before that. */
int hd_arm_submit(struct hd_arm *a, uint64_t off, uint64_t len, int write)
{
	struct hd_req r = { .off = off, .len = len, .write = write };
	if (len == 0)
		return 0;
	if (a->p->flat) {
		flat_submit(a, len, write);
		return 0;
	}
	pthread_cond_init(&r.cv, NULL);
	pthread_mutex_lock(&a->mu);
	r.arrive = model_now(a);
	if (a->last)
		a->last->next = &r;
	else
		a->first = &r;
	a->last = &r;
	if (++a->pending > a->stats.queue_max)
		a->stats.queue_max = a->pending;
	pthread_cond_signal(&a->work);
	while (!r.done)
		pthread_cond_wait(&r.cv, &a->mu);
	pthread_mutex_unlock(&a->mu);
	pthread_cond_destroy(&r.cv);
	return 0;
}

void hd_arm_stats(struct hd_arm *a, struct hd_stats *out)
{
	pthread_mutex_lock(&a->mu);
	*out = a->stats;
	pthread_mutex_unlock(&a->mu);
}
