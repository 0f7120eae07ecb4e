/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timefmt.c: the time column of --time, in GNU du's styles: full-iso,
 * long-iso (the default), iso, or +FORMAT (strftime plus %N for
 * nanoseconds). TIME_STYLE applies when --time-style is not given.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "argmatch.h"
#include "du.h"

static const char *const styles[] = { "full-iso", "long-iso", "iso", NULL };
static const int style_ids[] = { 0, 1, 2 };
static const char *const formats[] = { "%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M",
                                       "%Y-%m-%d" };

/* The style from the environment, as GNU du reads it: "locale" means the
 * default, a format stops at its first newline, "posix-" prefixes go. */
static char *style_from_env(void)
{
	const char *env = getenv("TIME_STYLE");
	if (!env || strcmp(env, "locale") == 0)
		return strdup("long-iso");
	if (*env == '+')
		return strndup(env, strcspn(env, "\n"));
	while (strncmp(env, "posix-", 6) == 0)
		env += 6;
	return strdup(env);
}

/* Choose opt->time_format. Returns -1 to go on, or an exit status. */
int timefmt_choose(struct du_opts *opt, const char *style, struct diag *d)
{
	char *owned = style ? strdup(style) : style_from_env();
	if (!owned) {
		diag_error(d, 0, "memory exhausted");
		return 1;
	}
	if (owned[0] == '+') {
		opt->time_format = owned;
		memmove(owned, owned + 1, strlen(owned));
		return -1;
	}
	int i = argmatch(owned, styles, style_ids);
	if (i < 0) {
		argmatch_report(d, "time style", owned, i, styles, style_ids);
		diag_try_help(d);
		free(owned);
		return 1;
	}
	free(owned);
	opt->time_format = strdup(formats[i]);
	if (!opt->time_format) {
		diag_error(d, 0, "memory exhausted");
		return 1;
	}
	return -1;
}

/* fmt with every %N replaced by the nanoseconds, into out. */
static void expand_ns(const char *fmt, long ns, char *out, size_t size)
{
	size_t o = 0;
	for (const char *p = fmt; *p && o + 10 < size; p++) {
		if (p[0] == '%' && p[1] == 'N') {
			o += (size_t)snprintf(out + o, size - o, "%09ld", ns);
			p++;
		} else if (p[0] == '%' && p[1]) {
			out[o++] = *p++;
			out[o++] = *p;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = 0;
}

/* ts formatted by fmt into buf; false when the time cannot be broken down
 * (its year is beyond an int), and buf holds the seconds as a number. */
bool timefmt_format(const char *fmt, const struct timespec *ts, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&ts->tv_sec, &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)ts->tv_sec);
		return false;
	}
	char expanded[1024];
	expand_ns(fmt, ts->tv_nsec, expanded, sizeof(expanded));
	if (!*expanded) {
		buf[0] = 0;
		return true;
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	size_t n = strftime(buf, size, expanded, &tm);
#pragma GCC diagnostic pop
	if (n == 0)
		buf[0] = 0;
	return true;
}
