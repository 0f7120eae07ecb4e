/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.c: the --progress line of sweep-tar and sweep-cp (progress.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "human.h"
#include "progress.h"

struct progress {
	struct timespec start, last;
};

double progress_seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

struct progress *progress_start(void)
{
	if (!isatty(STDERR_FILENO))
		return NULL;
	struct progress *p = calloc(1, sizeof(*p));
	if (p) {
		clock_gettime(CLOCK_MONOTONIC, &p->start);
		p->last = p->start;
	}
	return p;
}

static void draw(struct progress *p, const struct timespec *now, uint64_t files,
                 uint64_t bytes, uint64_t known)
{
	unsigned h = HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024 | HUMAN_B;
	char done[HUMAN_BUFSIZE], rate[HUMAN_BUFSIZE];
	double s = progress_seconds(&p->start, now);
	double r = s > 0 ? (double)bytes / s : 0;
	human_format(bytes, 1, 1, h, done);
	human_format((uint64_t)r, 1, 1, h, rate);
	fprintf(stderr, "\r%ju files, %s, %s/s, %.0f s", (uintmax_t)files, done, rate, s);
	if (r > 0 && known > bytes)
		fprintf(stderr, ", ETA %.0f s", (double)(known - bytes) / r);
	fputs("\033[K", stderr);
	fflush(stderr);
	p->last = *now;
}

void progress_update(struct progress *p, uint64_t files, uint64_t bytes, uint64_t known)
{
	struct timespec now;
	if (!p)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now); /* vDSO: cheap once per file */
	if (progress_seconds(&p->last, &now) >= 0.25)
		draw(p, &now, files, bytes, known);
}

void progress_end(struct progress *p, uint64_t files, uint64_t bytes)
{
	if (!p)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	draw(p, &now, files, bytes, 0);
	fputc('\n', stderr);
	free(p);
}
