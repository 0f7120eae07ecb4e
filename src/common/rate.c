/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rate.c: after bytes move, a sleep until those of the window have taken
 * the time the limit gives them. A window lasts a few seconds: a long pause
 * (a walk through unchanged files) is not made up for afterwards by a
 * burst above the limit. The sleep goes in slices of a second at most,
 * each said alive: a low limit is no --timeout, however long a chunk takes
 * at it.
 */
#include <errno.h>
#include "rate.h"

/* seconds a window of the rate lasts */
#define RATE_WINDOW 4

void rate_moved(struct rate *r, uint64_t n, void (*alive)(void *), void *arg)
{
	if (!r->limit)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (r->bytes == 0 || now.tv_sec - r->start.tv_sec > RATE_WINDOW) {
		r->start = now; /* a new window: the limit applies from here */
		r->bytes = 0;
	}
	r->bytes += n;
	double due = (double)r->bytes / (double)r->limit;
	double spent = (double)(now.tv_sec - r->start.tv_sec) +
	               (double)(now.tv_nsec - r->start.tv_nsec) / 1e9;
	for (double wait = due - spent; wait > 0; wait -= 1.0) {
		double slice = wait < 1.0 ? wait : 1.0;
		struct timespec ts = { (time_t)slice, (long)((slice - (double)(time_t)slice) * 1e9) };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		if (alive)
			alive(arg);
	}
}
