/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mtime.c: dates. --mtime=DATE, the time stored for every member (with
 * --clamp-mtime, for members newer than it only), as reproducible builds
 * use it; -N/--newer/--after-date=DATE and --newer-mtime=DATE, which leave
 * out files not changed (nor their status, with -N) since DATE. DATE is "@SECONDS[.FRACTION]", the name of a file whose time is
 * taken (GNU tar's rule: it starts with '/' or '.'), or a date
 * "YYYY-MM-DD[ HH:MM[:SS]]" (also with 'T'), local time unless it ends in
 * " UTC" or "Z"; "" is today's midnight. GNU tar's free-form dates
 * ("2 days ago") are not known.
 */
#include <errno.h>
#include <stdint.h>
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

/* DATE as --mtime and -N read it into *ts; *from_file says whether it
 * named a file. Returns 0, 1 when the date is not understood (not
 * reported), or -1 when the file cannot be stat-ed (fatal, reported). */
static int parse_any(struct tar *t, const char *arg, struct timespec *ts, bool *from_file)
{
	struct stat st;
	*from_file = arg[0] == '/' || arg[0] == '.';
	if (*from_file) {
		if (stat(arg, &st) < 0) {
			tar_fatal(t, errno, "%s: Cannot stat", tq(t, 0, arg));
			return -1;
		}
		*ts = st.st_mtim;
		return 0;
	}
	bool ok = arg[0] == '@' ? parse_epoch(arg + 1, ts) : !arg[0] ? today(ts) : parse_date(arg, ts);
	return ok ? 0 : 1;
}

bool mtime_parse(struct tar *t, const char *arg)
{
	bool from_file;
	int r = parse_any(t, arg, &t->opt.mtime, &from_file);
	if (r > 0)
		tar_warn(t, 0, "%s: Invalid date format", tq(t, 0, arg));
	t->opt.set_mtime = r == 0;
	return r == 0;
}

/* "2021-01-01 00:00:00", with a fraction when there is one: GNU tar's. */
static void format_time(const struct timespec *ts, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&ts->tv_sec, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)ts->tv_sec);
		return;
	}
	if (ts->tv_nsec) {
		size_t n = strlen(buf);
		snprintf(buf + n, size - n, ".%09ld", ts->tv_nsec);
		for (n = strlen(buf); buf[n - 1] == '0'; n--)
			buf[n - 1] = 0;
	}
}

bool newer_parse(struct tar *t, const char *arg, bool mtime_only)
{
	struct tar_opts *o = &t->opt;
	bool from_file;
	int r = parse_any(t, arg, &o->newer, &from_file);
	if (r < 0)
		return false;
	o->set_newer = true;
	o->newer_mtime_only = mtime_only;
	if (r > 0) {
		/* GNU tar then takes the earliest time: every file is newer */
		o->newer = (struct timespec){ .tv_sec = -INTMAX_MAX, .tv_nsec = 0 };
		tar_warn(t, 0, "Substituting %jd for unknown date format %s", (intmax_t)-INTMAX_MAX,
		         diag_quote_style(t->diag, 0, QUOTE_LOCALE, arg));
	} else if (!from_file) {
		o->newer_given = arg;
	}
	return true;
}

void newer_note(struct tar *t)
{
	char when[64];
	const struct tar_opts *o = &t->opt;
	if (!o->set_newer || !o->newer_given || !o->verbose)
		return;
	format_time(&o->newer, when, sizeof(when));
	tar_warn(t, 0, "Option %s: Treating date '%s' as %s",
	         o->newer_mtime_only ? "--newer-mtime" : "--after-date", o->newer_given, when);
}

bool newer_skips(const struct tar_opts *o, const struct stat *st)
{
	if (!o->set_newer || S_ISDIR(st->st_mode))
		return false;
	bool older_m = st->st_mtim.tv_sec < o->newer.tv_sec ||
	               (st->st_mtim.tv_sec == o->newer.tv_sec && st->st_mtim.tv_nsec < o->newer.tv_nsec);
	bool older_c = st->st_ctim.tv_sec < o->newer.tv_sec ||
	               (st->st_ctim.tv_sec == o->newer.tv_sec && st->st_ctim.tv_nsec < o->newer.tv_nsec);
	return older_m && (o->newer_mtime_only || older_c);
}
