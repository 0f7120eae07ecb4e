/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mtime.c: dates. --mtime=DATE, the time stored for every member (with
 * --clamp-mtime, for members newer than it only), as reproducible builds
 * use it; -N/--newer/--after-date=DATE and --newer-mtime=DATE, which leave
 * out files not changed (nor their status, with -N) since DATE. DATE is the
 * name of a file whose time is taken (GNU tar's rule: it starts with '/'
 * or '.'), or a date as GNU's tools read them (datetime.c: "2 days ago",
 * "2020-01-05 10:00 +0200", "@SECONDS").
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "datetime.h"
#include "tar.h"

/* DATE as --mtime and -N read it into *ts; *from_file says whether it
 * named a file. Returns 0, 1 when the date is not understood (not
 * reported), or -1 when the file cannot be stat-ed (reported, as GNU tar's
 * usage error). */
static int parse_any(struct tar *t, const char *arg, struct timespec *ts, bool *from_file)
{
	struct stat st;
	*from_file = arg[0] == '/' || arg[0] == '.';
	if (*from_file) {
		if (stat(arg, &st) < 0) {
			tar_error(t, errno, "%s: Cannot stat", tq(t, 0, arg));
			tar_error(t, 0, "Date sample file not found");
			return -1;
		}
		*ts = st.st_mtim;
		return 0;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	return datetime_parse(arg, &now, ts) ? 0 : 1;
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
	/* (GNU tar's -t counts as a -v) */
	if (!o->set_newer || !o->newer_given || !(o->verbose || o->mode == MODE_LIST))
		return;
	format_time(&o->newer, when, sizeof(when));
	if (strcmp(when, o->newer_given) == 0)
		return; /* (said as GNU tar would say it: nothing to note) */
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
