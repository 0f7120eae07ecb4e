/*
 * progress.c: --progress, one line on standard error redrawn a few times a
 * second: files, bytes written, and the rate. Only on a terminal: a log
 * file would fill with carriage returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "human.h"
#include "tar.h"

struct progress {
	struct timespec start, last;
	uint64_t files, bytes;
	bool drawn;
};

static double seconds(const struct timespec *a, const struct timespec *b)
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

static void draw(struct progress *p, const struct timespec *now)
{
	unsigned h = HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024 | HUMAN_B;
	char bytes[HUMAN_BUFSIZE], rate[HUMAN_BUFSIZE];
	double s = seconds(&p->start, now);
	human_format(p->bytes, 1, 1, h, bytes);
	human_format(s > 0 ? (uint64_t)((double)p->bytes / s) : 0, 1, 1, h, rate);
	fprintf(stderr, "\r%ju files, %s, %s/s, %.0f s\033[K", (uintmax_t)p->files, bytes,
	        rate, s);
	fflush(stderr);
	p->drawn = true;
	p->last = *now;
}

void progress_update(struct progress *p, uint64_t files, uint64_t bytes)
{
	if (!p)
		return;
	p->files = files;
	p->bytes = bytes;
	/* The clock is read every 256 files only: this runs once per file. */
	if (files % 256)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (seconds(&p->last, &now) >= 0.25)
		draw(p, &now);
}

void progress_end(struct progress *p)
{
	if (!p)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	draw(p, &now);
	fputc('\n', stderr);
	free(p);
}

void totals_print(const char *label, uint64_t n, const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double s = seconds(start, &now);
	unsigned h = HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024 | HUMAN_B;
	char abbr[HUMAN_BUFSIZE], rate[HUMAN_BUFSIZE];
	human_format(n, 1, 1, h, abbr);
	if (s > 0)
		human_format((uint64_t)((double)n / s), 1, 1, h, rate);
	fflush(stdout);
	fprintf(stderr, "%s: %ju (%s, %s/s)\n", label, (uintmax_t)n, abbr, s > 0 ? rate : "?");
}
