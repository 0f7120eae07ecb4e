/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * throttle.c: after each chunk of a file's data is written, the alive
 * hook (sweep-sync's --timeout watches it), and, under bwlimit, a sleep
 * until the bytes written since the window began have taken the time the
 * limit gives them. A window lasts a few seconds: a long pause (a walk
 * through unchanged files) is not made up for afterwards by a burst above
 * the limit.
 */
#include <errno.h>
#include <time.h>
#include "copyint.h"

/* seconds a window of the rate lasts */
#define THROTTLE_WINDOW 4

void throttle_wrote(struct copy *c, uint64_t n)
{
	const struct copy_opts *o = c->o;
	if (o->alive)
		o->alive(o->arg);
	if (!o->bwlimit)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (c->bw_bytes == 0 || now.tv_sec - c->bw_start.tv_sec > THROTTLE_WINDOW) {
		/* a new window: the limit applies from here */
		c->bw_start = now;
		c->bw_bytes = 0;
	}
	c->bw_bytes += n;
	double due = (double)c->bw_bytes / (double)o->bwlimit;
	double spent = (double)(now.tv_sec - c->bw_start.tv_sec) +
	               (double)(now.tv_nsec - c->bw_start.tv_nsec) / 1e9;
	if (due <= spent)
		return;
	/* in slices of a second at most, each said alive: a low limit is no
	 * --timeout, however long a chunk takes at it */
	for (double wait = due - spent; wait > 0; wait -= 1.0) {
		double slice = wait < 1.0 ? wait : 1.0;
		struct timespec ts = { (time_t)slice, (long)((slice - (double)(time_t)slice) * 1e9) };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		if (o->alive)
			o->alive(o->arg);
	}
}
