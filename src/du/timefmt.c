/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timefmt.c: the time column of --time, in GNU du's styles: full-iso,
 * long-iso (the default), iso, or +FORMAT: strftime's conversions, and
 * GNU's own as its nstrftime writes them (%N for nanoseconds, %q for the
 * quarter, %:z and the like for the offset). TIME_STYLE applies when
 * --time-style is not given.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "argmatch.h"
#include "du.h"
#include "strbuf.h"

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

/* One conversion of a format: "%", flags, width, colons, E or O, the
 * letter. */
struct conv {
	char pad;     /* the flag: '_', '-', '0', or 0 */
	int width;    /* -1: none */
	int colons;
	char letter;
	size_t len;   /* of the whole, from its '%' */
};

static bool parse_conv(const char *p, struct conv *c)
{
	const char *s = p + 1;
	*c = (struct conv){ .width = -1 };
	for (; strchr("_-0^#", *s) && *s; s++)
		if (*s != '^' && *s != '#')
			c->pad = *s;
	for (; *s >= '0' && *s <= '9'; s++)
		c->width = (c->width < 0 ? 0 : c->width) * 10 + (*s - '0') > 4096 ? 4096
		           : (c->width < 0 ? 0 : c->width) * 10 + (*s - '0');
	for (; *s == ':' && c->colons < 3; s++)
		c->colons++;
	if (*s == 'E' || *s == 'O')
		s++;
	if (!*s)
		return false;
	c->letter = *s;
	c->len = (size_t)(s + 1 - p);
	return true;
}

/* n spaces or zeros as the flag asks, none under '-'. */
static int pad_out(struct strbuf *out, char pad, int n, char dflt)
{
	char ch = pad == '_' ? ' ' : pad == '-' ? 0 : pad == '0' ? '0' : dflt;
	for (; ch && n > 0; n--)
		if (sb_addc(out, ch) < 0)
			return -1;
	return 0;
}

/* %N: the nanoseconds' first digits, as many as the width (9 by default),
 * trailing zeros turned to padding, as GNU's nstrftime writes them. */
static int put_ns(struct strbuf *out, const struct conv *c, long ns)
{
	int width = c->width > 0 ? c->width : 9, digits = 9;
	while (width < digits || (digits > 1 && ns % 10 == 0)) {
		digits--;
		ns /= 10;
	}
	return sb_printf(out, "%0*ld", digits, ns) < 0 ? -1 : pad_out(out, c->pad, width - digits, '0');
}

/* %q: the quarter, a number of at least width digits. */
static int put_quarter(struct strbuf *out, const struct conv *c, const struct tm *tm)
{
	int width = c->width > 1 ? c->width : 1;
	return pad_out(out, c->pad, width - 1, '0') < 0 ? -1 : sb_printf(out, "%d", tm->tm_mon / 3 + 1);
}

/* %:z, %::z, %:::z: the offset as +hh:mm, +hh:mm:ss, or as short as it
 * can be said. */
static int put_zone(struct strbuf *out, const struct conv *c, const struct tm *tm)
{
	long off = tm->tm_gmtoff, a = off < 0 ? -off : off;
	long h = a / 3600, m = a / 60 % 60, s = a % 60;
	char sign = off < 0 ? '-' : '+';
	if (c->colons == 1 || (c->colons == 3 && s == 0 && m != 0))
		return sb_printf(out, "%c%02ld:%02ld", sign, h, m);
	if (c->colons == 2 || s != 0)
		return sb_printf(out, "%c%02ld:%02ld:%02ld", sign, h, m, s);
	return sb_printf(out, "%c%02ld", sign, h);
}

/* One conversion of glibc's strftime, appended. */
static int put_strftime(struct strbuf *out, const char *p, size_t len, const struct tm *tm)
{
	char spec[64], buf[4200];
	if (len >= sizeof(spec))
		return sb_add(out, p, len);
	memcpy(spec, p, len);
	spec[len] = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	size_t n = strftime(buf, sizeof(buf), spec, tm); /* (0: nothing, as %p may be) */
#pragma GCC diagnostic pop
	return sb_add(out, buf, n);
}

bool timefmt_format(const char *fmt, const struct timespec *ts, struct strbuf *out)
{
	struct tm tm;
	sb_reset(out);
	if (!localtime_r(&ts->tv_sec, &tm)) {
		(void)sb_printf(out, "%jd", (intmax_t)ts->tv_sec);
		return false;
	}
	int r = 0;
	for (const char *p = fmt; *p && r == 0;) {
		struct conv c;
		if (*p != '%' || !parse_conv(p, &c)) {
			size_t n = *p == '%' ? strlen(p) : strcspn(p, "%");
			r = sb_add(out, p, n);
			p += n;
			continue;
		}
		if (c.letter == 'N')
			r = put_ns(out, &c, ts->tv_nsec);
		else if (c.letter == 'q')
			r = put_quarter(out, &c, &tm);
		else if (c.letter == 'z' && c.colons)
			r = put_zone(out, &c, &tm);
		else
			r = put_strftime(out, p, c.len, &tm);
		p += c.len;
	}
	return true; /* (no memory: the line as far as it got) */
}
