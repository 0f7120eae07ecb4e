/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rate.h: a limit on bytes a second (--bwlimit of sweep-sync, on the data
 * its copy engine writes and on what it sends to a far end).
 */
#ifndef SWEEP_RATE_H
#define SWEEP_RATE_H

#include <stdint.h>
#include <time.h>

struct rate {
	uint64_t limit;        /* bytes a second; 0: no limit */
	uint64_t bytes;        /* moved since the window began */
	struct timespec start; /* the window's start */
};

/* n bytes moved: sleeps until the bytes of the window have taken the time
 * the limit gives them, calling alive(arg) (if set) each second of it. */
void rate_moved(struct rate *r, uint64_t n, void (*alive)(void *), void *arg);

#endif
