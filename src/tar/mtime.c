/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mtime.c: --mtime=DATE, the time stored for every member (with
 * --clamp-mtime, for members newer than it only), as reproducible builds
 * use it. DATE is "@SECONDS[.FRACTION]", the name of a file whose time is
 * taken (GNU tar's rule: it starts with '/' or '.'), or a date
 * "YYYY-MM-DD[ HH:MM[:SS]]" (also with 'T'), local time unless it ends in
 * " UTC" or "Z"; "" is today's midnight. GNU tar's free-form dates
 * ("2 days ago") are not known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "tar.h"

/* "@SECONDS[.FRACTION]". */
static bool parse_epoch(const char *s, struct timespec *ts)
{
	char *end;
	errno = 0;
	long long sec = strtoll(s, &end, 10);
	if (errno || end == s)
		return false;
	long nsec = 0;
	if (*end == '.') {
		long scale = 100000000L;
		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			nsec += (*end - '0') * scale;
	}
	if (*end)
		return false;
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = sec < 0 && nsec ? 1000000000L - nsec : nsec;
	if (sec < 0 && nsec)
		ts->tv_sec--;
	return true;
}

/* A calendar date, local or UTC. */
static bool parse_date(const char *s, struct timespec *ts)
{
	static const char *const formats[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
	                                       "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct tm tm;
		memset(&tm, 0, sizeof(tm));
		const char *end = strptime(s, formats[i], &tm);
		if (!end)
			continue;
		bool utc = strcmp(end, " UTC") == 0 || strcmp(end, "Z") == 0;
		if (*end && !utc)
			continue;
		tm.tm_isdst = -1;
		ts->tv_sec = utc ? timegm(&tm) : mktime(&tm);
		ts->tv_nsec = 0;
		return true;
	}
	return false;
}

/* Midnight, local time, today: what GNU tar's date parser makes of "". */
static bool today(struct timespec *ts)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!localtime_r(&now, &tm))
		return false;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	ts->tv_sec = mktime(&tm);
	ts->tv_nsec = 0;
	return true;
}

bool mtime_parse(struct tar *t, const char *arg)
{
	struct timespec *ts = &t->opt.mtime;
	struct stat st;
	bool ok;
	if (arg[0] == '@') {
		ok = parse_epoch(arg + 1, ts);
	} else if (arg[0] == '/' || arg[0] == '.') {
		ok = stat(arg, &st) == 0;
		if (!ok) {
			tar_fatal(t, errno, "%s: Cannot stat", tq(t, 0, arg));
			return false;
		}
		*ts = st.st_mtim;
	} else if (!arg[0]) {
		ok = today(ts);
	} else {
		ok = parse_date(arg, ts);
	}
	if (!ok)
		tar_warn(t, 0, "%s: Invalid date format", tq(t, 0, arg));
	t->opt.set_mtime = ok;
	return ok;
}
