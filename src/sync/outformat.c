/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outformat.c: rsync's --out-format and --log-file-format, a line for each
 * item from a format of %-escapes. -i is "%i %n%L", -v "%n%L", the log's
 * default "%i %n%L".
 *
 * An escape is '%', apostrophes (a number's separators: one for commas,
 * two for units of 1000, three of 1024), a '-' and a width (the field
 * padded, left-justified with '-'), then its letter: n (the name, a
 * directory's with its '/'), L (" -> target" of a link, " => first" of a
 * hard link), i (-i's change letters), f (the path at the source), l (the
 * length), b (bytes of data written: the length of a file sent, else 0),
 * o ("send", "recv", "del."), M (the modification time), B (permission
 * letters), U and G (owner and group numbers, G "DEFAULT" without -g),
 * p (our process), t (the time now), '%', m (a daemon's module: empty,
 * as rsync's outside one). The checksums c and C are refused when the
 * option is read (none is made); any other letter stays as it is
 * written, as rsync leaves its daemon's h, a, u and P outside one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "permstr.h"
#include "sync.h"

struct escape {
	bool to_log;       /* names as the log has them */
	int sep;           /* apostrophes */
	bool left;         /* '-' */
	int width;
	char letter;
	const char *end;   /* past the letter */
};

/* The escape at p (just past its '%'); false when the format ends first. */
static bool parse_escape(const char *p, struct escape *x)
{
	bool to_log = x->to_log;
	*x = (struct escape){ .to_log = to_log };
	while (*p == '\'')
		x->sep++, p++;
	if (*p == '-')
		x->left = true, p++;
	while (*p >= '0' && *p <= '9') { /* (rsync's line holds about 4 KiB) */
		x->width = x->width * 10 + (*p++ - '0');
		if (x->width > 4096)
			x->width = 4096;
	}
	while (*p == '\'')
		x->sep++, p++;
	if (!*p)
		return false;
	x->letter = *p;
	x->end = p + 1;
	return true;
}

bool out_format_has(const char *fmt, char letter)
{
	struct escape x = { 0 };
	for (const char *p = fmt ? strchr(fmt, '%') : NULL; p; p = strchr(p, '%')) {
		if (!parse_escape(p + 1, &x))
			return false;
		if (x.letter == letter)
			return true;
		p = x.end;
	}
	return false;
}

int out_format_check(struct sync *s, const char *fmt, const char *option)
{
	static const char refused[] = "cC";
	struct escape x = { 0 };
	for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
		if (!parse_escape(p + 1, &x))
			break;
		if (x.letter != '%' && strchr(refused, x.letter)) {
			diag_error(s->diag, 0, "%s: %%%c is not supported (no checksum of the data is "
			           "made)", option, x.letter);
			return -1;
		}
		p = x.end;
	}
	return 0;
}

/* rsync's time stamp: "2001/02/03 04:05:06", local time. */
static void timestring(char *buf, size_t n, time_t t)
{
	struct tm tm;
	strftime(buf, n, "%Y/%m/%d %H:%M:%S", localtime_r(&t, &tm));
}

static void spaces(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		putc(' ', f);
}

/* The field padded to x's width. */
static void put_padded(FILE *f, const struct escape *x, const char *field)
{
	int pad = x->width - (int)strlen(field);
	spaces(f, x->left ? 0 : pad);
	fputs(field, f);
	spaces(f, x->left ? pad : 0);
}

/* A name, escaped as rsync shows names, padded as rsync pads it: by its
 * length before the escapes. */
static void put_name(struct sync *s, FILE *f, const struct escape *x, const char *pre,
                     const char *name, const char *post)
{
	int pad = x->width - (int)(strlen(pre) + strlen(name) + strlen(post));
	spaces(f, x->left ? 0 : pad);
	fputs(pre, f);
	report_name_as(s, f, name, x->to_log);
	fputs(post, f);
	spaces(f, x->left ? pad : 0);
}

/* %f: the path at the source, cleaned as rsync cleans it (no "//", no
 * "." component, no '/' at the end); the name without it. */
static void put_source(struct sync *s, FILE *f, const struct escape *x,
                       const struct sync_item *it)
{
	if (!it->source) {
		put_name(s, f, x, "", it->rel, "");
		return;
	}
	char *clean = malloc(strlen(it->source) + 4), *q = clean;
	if (!clean) {
		put_name(s, f, x, "", it->source, "");
		return;
	}
	for (const char *p = it->source; *p;) {
		size_t n = strcspn(p, "/"); /* (an absolute path's '/' dropped, as
		                                rsync's sender drops it) */
		if (n && !(n == 1 && *p == '.')) {
			if (q > clean && q[-1] != '/')
				*q++ = '/';
			memcpy(q, p, n);
			q += n;
		}
		p += n;
		p += *p == '/';
	}
	if (q == clean)
		*q++ = '.';
	else if (strcmp(it->rel, ".") == 0) /* SRC/'s own: rsync's "SRC/." */
		*q++ = '/', *q++ = '.';
	*q = 0;
	put_name(s, f, x, "", clean, "");
	free(clean);
}

/* %L: a link's target, a hard link's first, else nothing (spaces under a
 * width), as rsync lays it out. */
static void put_link(struct sync *s, FILE *f, const struct escape *x, const struct sync_item *it)
{
	if (it->target) {
		fputs(it->hard ? " => " : " -> ", f);
		put_name(s, f, x, "", it->target, "");
	} else if (x->width) {
		fputs("    ", f);
		put_padded(f, x, "");
	}
}

/* One escape of it into f (the letters a format is refused for never come). */
static void put_escape(struct sync *s, FILE *f, const struct escape *x,
                       const struct sync_item *it)
{
	static const struct stat none;
	const struct stat *st = it->st ? it->st : &none;
	char buf[64];
	switch (x->letter) {
	case 'n':
		put_name(s, f, x, s->name_abs ? "/" : "", it->rel, it->dir && it->rel[strlen(it->rel) - 1] != '/' ? "/" : "");
		return;
	case 'f':
		put_source(s, f, x, it);
		return;
	case 'L':
		put_link(s, f, x, it);
		return;
	case 'i':
		put_padded(f, x, it->code ? it->code : "*deleting  ");
		return;
	case 'o':
		put_padded(f, x, it->op);
		return;
	case 'l':
	case 'b': {
		uint64_t n = x->letter == 'l' || it->sent ? (uint64_t)st->st_size : 0;
		put_padded(f, x, report_size(buf, n, x->sep > 3 ? 3 : x->sep));
		return;
	}
	case 'M':
		timestring(buf, sizeof(buf), st->st_mtim.tv_sec);
		*strchr(buf, ' ') = '-';
		put_padded(f, x, buf);
		return;
	case 't':
		timestring(buf, sizeof(buf), time(NULL));
		put_padded(f, x, buf);
		return;
	case 'B':
		perm_letters(st->st_mode, buf);
		put_padded(f, x, buf);
		return;
	case 'U':
		snprintf(buf, sizeof(buf), "%u", s->owner ? (unsigned)st->st_uid : 0);
		put_padded(f, x, buf);
		return;
	case 'G':
		if (s->group)
			snprintf(buf, sizeof(buf), "%u", (unsigned)st->st_gid);
		put_padded(f, x, s->group ? buf : "DEFAULT");
		return;
	case 'p':
		snprintf(buf, sizeof(buf), "%ld", (long)getpid());
		put_padded(f, x, buf);
		return;
	case '%':
		put_padded(f, x, "%");
		return;
	case 'm': /* a daemon's module: none */
		put_padded(f, x, "");
		return;
	}
}

void out_format_line(struct sync *s, FILE *f, const char *fmt, const struct sync_item *it)
{
	const char *p = fmt;
	struct escape x = { .to_log = f == s->log };
	for (const char *pct; (pct = strchr(p, '%')) != NULL; p = x.end) {
		fwrite(p, 1, (size_t)(pct - p), f);
		if (!parse_escape(pct + 1, &x)) {
			p = pct;
			break;
		}
		if (strchr("nfLiolbMtBUGpm%", x.letter))
			put_escape(s, f, &x, it);
		else /* rsync's: an escape it does not know stays as written */
			fwrite(pct, 1, (size_t)(x.end - pct), f);
	}
	fputs(p, f);
	putc('\n', f);
}
