/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limits.c: the values of --bwlimit and --timeout, read as rsync reads
 * them. A rate is a number (a fraction allowed) of KiB a second, or of
 * the unit after it: B, K, M, G, T, P (powers of 1024; "KB", "MB"...
 * powers of 1000; "KiB", "MiB"... 1024 again); 0 is no limit, and a limit
 * under 512 bytes a second (or under 0) is refused. A timeout is a whole number of
 * seconds; 0 (or less) is none. --max-delete is a whole number of
 * deletions; under 0 is 0, as in rsync 3.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

#define MIN_RATE 512

/* The multiplier of the unit at u (its end into *end), 0 when unknown. */
static double unit(const char *u, const char **end)
{
	static const char units[] = "bkmgtp";
	const char *k = *u ? strchr(units, tolower((unsigned char)*u)) : NULL;
	double base = 1024, m = 1;
	if (!*u) {
		*end = u;
		return 1024; /* KiB by default */
	}
	if (!k)
		return 0;
	u++;
	if (*k != 'b' && (*u == 'b' || *u == 'B'))
		base = 1000, u++;
	else if (*k != 'b' && *u == 'i' && (u[1] == 'b' || u[1] == 'B'))
		u += 2;
	for (const char *p = units; p < k; p++)
		m *= base;
	*end = u;
	return m;
}

int limits_bwlimit(struct sync *s, const char *arg)
{
	char *num_end;
	const char *end;
	errno = 0;
	double v = strtod(arg, &num_end);
	double m = num_end != arg && errno == 0 ? unit(num_end, &end) : 0;
	if (m == 0 || *end) {
		report_error(s, 0, "--bwlimit=%s is invalid", arg);
		return -1;
	}
	if (v < 0) { /* rsync's words: it reads it unsigned */
		report_error(s, 0, "--bwlimit=%s is too large", arg);
		return -1;
	}
	double rate = v * m;
	if (rate > 0 && rate < MIN_RATE) {
		report_error(s, 0, "--bwlimit=%s is too small (min: %d or 0 for unlimited)", arg,
		             MIN_RATE);
		return -1;
	}
	s->copy.bwlimit = rate > 0 ? (uint64_t)rate : 0;
	return 0;
}

int limits_timeout(struct sync *s, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno) {
		report_error(s, 0, "--timeout=%s: invalid numeric value", arg);
		return -1;
	}
	s->timeout = v > 0 && v < 1000000000 ? (unsigned)v : 0;
	return 0;
}

int limits_max_delete(struct sync *s, const char *arg)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (end == arg || *end || errno) {
		report_error(s, 0, "--max-delete=%s: invalid numeric value", arg);
		return -1;
	}
	s->max_delete_on = true;
	s->max_delete = v >= 0 ? (uint64_t)v : 0; /* rsync: below 0 is 0 */
	return 0;
}

bool limits_delete_stopped(struct sync *s)
{
	uint64_t done = 0;
	for (int k = 0; k < K_NKINDS; k++)
		done += s->n.deleted[k];
	if (!s->max_delete_on || done < s->max_delete)
		return false;
	s->skipped_deletes++;
	return true;
}
