/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * date.c: the dates -newerXt compares with. GNU find reads them with
 * gnulib's parse_datetime, which knows far more than this; these are the
 * forms its manual shows: "@SECONDS[.FRACTION]", "YYYY-MM-DD" (midnight),
 * "YYYY-MM-DD HH:MM[:SS[.FRACTION]]" (also with a T between), in local
 * time, and the empty string, which parse_datetime takes for midnight today.
 */
#include <ctype.h>
#include <stdint.h>
#include <time.h>
#include "prim.h"

static void skip_spaces(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

/* At least one and at most max digits, their value in *v. */
static bool take_digits(const char **s, int max, long *v)
{
	int n = 0;
	*v = 0;
	for (; n < max && isdigit((unsigned char)**s); n++, (*s)++)
		*v = *v * 10 + (**s - '0');
	return n > 0 && !isdigit((unsigned char)**s);
}

/* ".DIGITS" as nanoseconds (extra digits truncated), or nothing. */
static long take_fraction(const char **s)
{
	long ns = 0, scale = 100000000;
	if (**s != '.' && **s != ',')
		return 0;
	for ((*s)++; isdigit((unsigned char)**s); (*s)++, scale /= 10)
		ns += (**s - '0') * scale;
	return ns;
}

static bool take_epoch(const char *s, struct timespec *out)
{
	bool neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	long long sec = 0;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		if (sec > (INT64_MAX - 9) / 10)
			return false;
		sec = sec * 10 + (*s - '0');
	}
	long ns = take_fraction(&s);
	skip_spaces(&s);
	if (*s)
		return false;
	out->tv_sec = neg ? -(time_t)sec : (time_t)sec;
	out->tv_nsec = ns;
	if (neg && ns) { /* -1.5 is 1.5 seconds before the epoch */
		out->tv_sec--;
		out->tv_nsec = 1000000000 - ns;
	}
	return true;
}

/* "HH:MM[:SS[.FRACTION]]" into tm and *ns. */
static bool take_clock(const char **s, struct tm *tm, long *ns)
{
	long h, m, sec = 0;
	if (!take_digits(s, 2, &h) || *(*s)++ != ':' || !take_digits(s, 2, &m))
		return false;
	if (**s == ':') {
		(*s)++;
		if (!take_digits(s, 2, &sec))
			return false;
		*ns = take_fraction(s);
	}
	if (h > 23 || m > 59 || sec > 60)
		return false;
	tm->tm_hour = (int)h, tm->tm_min = (int)m, tm->tm_sec = (int)sec;
	return true;
}

/* The calendar date (and time) in local time. */
static bool take_calendar(const char *s, struct timespec *out)
{
	long y, mon, d, ns = 0;
	struct tm tm = { .tm_isdst = -1 };
	if (!take_digits(&s, 9, &y) || *s++ != '-' || !take_digits(&s, 2, &mon) ||
	    *s++ != '-' || !take_digits(&s, 2, &d))
		return false;
	if (*s == 'T' || *s == ' ') {
		bool t = *s++ == 'T';
		skip_spaces(&s);
		if ((*s || t) && !take_clock(&s, &tm, &ns)) /* a T wants a time */
			return false;
	}
	skip_spaces(&s);
	if (*s || mon < 1 || mon > 12 || d < 1 || d > 31)
		return false;
	tm.tm_year = (int)(y - 1900), tm.tm_mon = (int)mon - 1, tm.tm_mday = (int)d;
	time_t t = mktime(&tm);
	/* mktime moves 31 February into March: such a day does not exist */
	if (t == (time_t)-1 || tm.tm_mday != d)
		return false;
	out->tv_sec = t;
	out->tv_nsec = ns;
	return true;
}

bool date_parse(const char *s, struct timespec now, struct timespec *out)
{
	skip_spaces(&s);
	if (*s == '@')
		return take_epoch(s + 1, out);
	if (*s)
		return take_calendar(s, out);
	struct tm tm;
	localtime_r(&now.tv_sec, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	out->tv_sec = mktime(&tm);
	out->tv_nsec = 0;
	return out->tv_sec != (time_t)-1;
}
