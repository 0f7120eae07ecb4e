/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c: arguments of find's tests, parsed as GNU find parses them.
 *
 * Times: "-mtime N" is true when the file's age lies in [N, N+1) days; +N
 * means more than N+1 days, -N less than N days and a second (GNU's).
 * "-mmin N" takes minutes and has no such rounding: (N-1, N], more than
 * N, less than N. N may have a fraction. Both compare against a reference
 * moment computed once, here.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "prim.h"

static enum cmp take_cmp(const char **s)
{
	if (**s == '+') {
		(*s)++;
		return CMP_GT;
	}
	if (**s == '-') {
		(*s)++;
		return CMP_LT;
	}
	return CMP_EQ;
}

/* After the comparison GNU find reads the number as strtoumax does, less
 * its negative numbers: so "-+1" is "less than 1", and " 1" is 1. */
bool args_cmp_uint(const char *s, enum cmp *cmp, uintmax_t *n)
{
	*cmp = take_cmp(&s);
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	*n = strtoumax(s, &end, 10);
	return !errno && !*end;
}

bool args_time(struct find *f, const char *s, char which, bool days, struct time_arg *t)
{
	t->cmp = take_cmp(&s);
	t->which = which;
	/* (as strtod reads it, blanks before the number taken, as GNU's) */
	char *end;
	errno = 0;
	double n = strtod(s, &end);
	if (errno || end == s || *end || isnan(n))
		return false;
	int unit = days ? 86400 : 60;
	if (days && t->cmp != CMP_LT)
		n += 1; /* "-mtime 0" is the last 24 hours; "+0" older than that */
	/* beyond any file's time, and small enough that eval_time()'s
	 * subtraction cannot overflow; converting a larger double to time_t
	 * would be undefined */
	const double far = 0x1p62;
	double back = n * unit;
	/* GNU find moves its moment a day less a second on for "-N" days
	 * (parse_time()): a file of N days and under a second still is */
	if (days && t->cmp == CMP_LT)
		back += 1;
	back = back > far ? far : back < -far ? -far : back;
	double whole;
	double frac = modf(back, &whole);
	t->ref = f->opt.origin;
	t->ref.tv_sec -= (time_t)whole;
	t->ref.tv_nsec -= (long)(frac * 1e9);
	while (t->ref.tv_nsec < 0) {
		t->ref.tv_nsec += 1000000000;
		t->ref.tv_sec--;
	}
	while (t->ref.tv_nsec >= 1000000000) {
		t->ref.tv_nsec -= 1000000000;
		t->ref.tv_sec++;
	}
	t->window = unit;
	return true;
}

int args_invalid(struct parser *p, const char *arg, const char *prim)
{
	diag_error(p->f->diag, 0, "invalid argument `%s' to `%s'", arg, prim);
	return 1;
}

int args_stat_ref(struct parser *p, const char *file, struct stat *st)
{
	bool follow = p->f->opt.follow != SWEEP_FOLLOW_NONE;
	int r = follow ? stat(file, st) : lstat(file, st);
	/* a dangling link stands for itself; so does one whose way passes
	 * through a file that is no directory, as in GNU find */
	if (r < 0 && follow && (errno == ENOENT || errno == ENOTDIR) && lstat(file, st) == 0)
		r = 0;
	if (r == 0)
		return 0;
	diag_error(p->f->diag, errno, "%s", diag_quote(p->f->diag, 0, file));
	return 1;
}
