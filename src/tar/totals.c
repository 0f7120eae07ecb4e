/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * totals.c: --totals, GNU tar's last line of the bytes moved and the
 * rate (--progress is src/common/progress.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "human.h"
#include "tar.h"

void totals_print(const char *label, uint64_t n, const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double s = progress_seconds(start, &now);
	unsigned h = HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024 | HUMAN_B;
	char abbr[HUMAN_BUFSIZE], rate[HUMAN_BUFSIZE];
	human_format(n, 1, 1, h, abbr);
	if (s > 0)
		human_format((uint64_t)((double)n / s), 1, 1, h, rate);
	fflush(stdout);
	fprintf(stderr, "%s: %ju (%s, %s/s)\n", label, (uintmax_t)n, abbr, s > 0 ? rate : "?");
}
