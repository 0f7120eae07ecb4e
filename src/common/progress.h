/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.h: --progress for the tools that move data (sweep-tar,
 * sweep-cp): one line on standard error, redrawn a few times a second,
 * with files and bytes done, the rate, the time so far and, when the total
 * is known, the time left. Only on a terminal: a log would fill with
 * carriage returns.
 */
#ifndef SWEEP_PROGRESS_H
#define SWEEP_PROGRESS_H

#include <stdint.h>
#include <time.h>

struct progress;

/* A progress line, or NULL when standard error is no terminal (or memory
 * is short: there is then no line, and nothing else changes). */
struct progress *progress_start(void);
/* Redraw when a quarter second has passed; known is the bytes the run is
 * known to have to move in all (0: not known). p may be NULL. */
void progress_update(struct progress *p, uint64_t files, uint64_t bytes, uint64_t known);
/* Seconds from a to b, for --progress and GNU tar's --totals. */
double progress_seconds(const struct timespec *a, const struct timespec *b);
/* Draw the last state, end the line, free p (which may be NULL). */
void progress_end(struct progress *p, uint64_t files, uint64_t bytes);

#endif
