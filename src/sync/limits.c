/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limits.c: the values of --bwlimit and --timeout, read as rsync reads
 * them. A rate is a number (a fraction allowed) of KiB a second, or of
 * the unit after it: B, K, M, G, T, P (powers of 1024; "KB", "MB"...
 * powers of 1000; "KiB", "MiB"... 1024 again); 0 is no limit, and a limit
 * under 512 bytes a second (or under 0) is refused. A timeout is a whole number of
 * seconds; 0 (or less) is none. --max-size and --min-size are sizes as
 * rates are, in bytes without a unit, "+1" or "-1" after it added; the
 * files of other sizes are left (0 is no minimum). --max-delete is a whole number of
 * deletions; under 0 is 0, as in rsync 3.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

#define MIN_RATE 512

/* The multiplier of the unit at u (its end into *end), 0 when unknown;
 * none: bare, the number counts units of plain. B, K, M, G, T, P, in
 * either case, then "B" for powers of 1000 or "iB" for 1024 (the
 * default), as rsync reads them. */
static double unit(const char *u, const char **end, double plain)
{
	static const char units[] = "bkmgtp";
	const char *k = *u ? strchr(units, tolower((unsigned char)*u)) : NULL;
	double base = 1024, m = 1;
	if (!*u || *u == '+' || *u == '-') {
		*end = u;
		return plain;
	}
	if (!k)
		return 0;
	u++;
	if (*u == 'b' || *u == 'B')
		base = 1000, u++;
	else if ((*u == 'i' || *u == 'I') && (u[1] == 'b' || u[1] == 'B'))
		u += 2;
	for (const char *p = units; p < k; p++)
		m *= base;
	*end = u;
	return m;
}

/* A size as rsync's parse_size_arg() reads it for --NAME: digits with a
 * fraction or not (none: 0), the unit after them (plain without one),
 * then "+1" or "-1" to be added; nothing else (no sign, space, exponent
 * or hexadecimal). Returns 0 with it in *size, or -1 (reported). */
static int size_arg(struct sync *s, const char *name, const char *arg, double plain,
                    double *size)
{
	bool minus = *arg == '-'; /* rsync: too large where it comes out below 0 */
	const char *p = arg + minus, *end = p;
	double v = 0, frac = 1;
	for (; isdigit((unsigned char)*p); p++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			v += (*p - '0') * (frac /= 10);
	double m = unit(p, &end, plain), add = 0;
	bool number = m != 0 && end > arg + minus; /* "+1" adds to something, is none */
	if (m != 0 && number && (strcmp(end, "+1") == 0 || strcmp(end, "-1") == 0)) {
		add = *end == '+' ? 1 : -1;
		end += 2;
	}
	*size = (minus ? -v : v) * m + add;
	if (m == 0 || *end || (minus && (v == 0 || *size >= 0))) {
		report_error(s, 0, "--%s=%s is invalid", name, arg);
		return -1;
	}
	if (*size < 0 || *size >= 9.2e18) { /* rsync's words: it reads it unsigned */
		report_error(s, 0, "--%s=%s is too large", name, arg);
		return -1;
	}
	return 0;
}

int limits_size(struct sync *s, const char *arg, bool max)
{
	double v;
	if (size_arg(s, max ? "max-size" : "min-size", arg, 1, &v) < 0)
		return -1;
	uint64_t n = v < 1 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v; /* whole bytes */
	if (max) {
		s->max_size_on = true;
		s->max_size = n;
	} else { /* 0: no limit, as in rsync */
		s->min_size = n;
	}
	return 0;
}

bool limits_size_skips(const struct sync *s, const struct stat *st, const char *rel)
{
	uint64_t n = (uint64_t)st->st_size;
	const char *why = s->max_size_on && n > s->max_size ? "over max-size"
	                  : n < s->min_size ? "under min-size" : NULL;
	if (why && s->info[INFO_SKIP] >= 1 && !s->sender_side) {
		report_name(s, stdout, rel);
		printf(" is %s\n", why);
	}
	return why != NULL;
}

int limits_bwlimit(struct sync *s, const char *arg)
{
	double rate;
	if (size_arg(s, "bwlimit", arg, 1024, &rate) < 0) /* KiB by default */
		return -1;
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
	/* as rsync's popt reads an int: 010 is 8, 0x10 16, "" 0 */
	long long v = *arg ? strtoll(arg, &end, 0) : 0;
	if (*arg && (end == arg || *end || errno || v > INT_MAX || v < INT_MIN)) {
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
