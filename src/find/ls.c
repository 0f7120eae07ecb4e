/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ls.c: the line of -ls and -fls, as GNU find writes it:
 *   inode blocks(1K) mode links owner group size|major, minor date name[ -> target]
 * Columns start at GNU's widths and widen for good as wider values come, so
 * a line depends on the lines before it (and thus on the walk order). A
 * date within the last 180 days and the next hour shows the time, any
 * other the year. Names are escaped: C escapes and octal for the
 * unprintable, and a backslash before '\', '"' and ' '.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include "printf.h"

#define RECENT_PAST   15552000 /* 180 days */
#define RECENT_FUTURE 3600

static int widen(int *w, size_t len)
{
	if ((int)len > *w)
		*w = (int)len;
	return *w;
}

static void put_escaped(FILE *fp, const char *s)
{
	static const char from[] = "\a\b\f\n\r\t\v", to[] = "abfnrtv";
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *at = c ? strchr(from, c) : NULL;
		if (at)
			fprintf(fp, "\\%c", to[at - from]);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\%03o", c);
		else if (c == '\\' || c == '"' || c == ' ')
			fprintf(fp, "\\%c", c);
		else
			putc(c, fp);
	}
}

static void put_owner(struct find *f, FILE *fp, const struct stat *st)
{
	struct ls_widths *w = &f->ls;
	const char *user = idcache_user(&f->ids, st->st_uid);
	if (user) {
		fprintf(fp, "%-*s ", widen(&w->owner, strlen(user)), user);
	} else {
		int n = fprintf(fp, "%-8ju ", (uintmax_t)st->st_uid);
		widen(&w->owner, n > 0 ? (size_t)n : 0);
	}
	const char *group = idcache_group(&f->ids, st->st_gid);
	if (group) {
		fprintf(fp, "%-*s ", widen(&w->group, strlen(group)), group);
	} else {
		char num[32];
		snprintf(num, sizeof(num), "%ju", (uintmax_t)st->st_gid);
		fprintf(fp, "%-*s ", widen(&w->group, strlen(num)), num);
	}
}

static void put_size(struct find *f, FILE *fp, const struct stat *st)
{
	struct ls_widths *w = &f->ls;
	char a[32], b[32];
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		snprintf(a, sizeof(a), "%ju", (uintmax_t)major(st->st_rdev));
		snprintf(b, sizeof(b), "%ju", (uintmax_t)minor(st->st_rdev));
		fprintf(fp, "%*s, %*s ", widen(&w->major, strlen(a)), a,
		        widen(&w->minor, strlen(b)), b);
		return;
	}
	snprintf(a, sizeof(a), "%jd", (intmax_t)st->st_size);
	fprintf(fp, "%*s ", widen(&w->size, strlen(a)), a);
}

static void put_date(const struct find *f, FILE *fp, const struct timespec *ts)
{
	time_t now = f->opt.now.tv_sec;
	bool recent = ts->tv_sec >= now - RECENT_PAST && ts->tv_sec <= now + RECENT_FUTURE;
	struct tm tm;
	char buf[64];
	if (!localtime_r(&ts->tv_sec, &tm) ||
	    !strftime(buf, sizeof(buf), recent ? "%b %e %H:%M" : "%b %e  %Y", &tm))
		snprintf(buf, sizeof(buf), "%jd", (intmax_t)ts->tv_sec);
	fprintf(fp, "%s ", buf);
}

void ls_print(struct find *f, struct out *o, const struct sweep_entry *e)
{
	struct ls_widths *w = &f->ls;
	const struct stat *st = entry_stat(f, e);
	FILE *fp = o->fp;
	if (!st)
		return;
	char num[32], mode[12];
	snprintf(num, sizeof(num), "%ju", (uintmax_t)st->st_ino);
	fprintf(fp, "%*s ", widen(&w->inode, strlen(num)), num);
	snprintf(num, sizeof(num), "%ju", ((uintmax_t)st->st_blocks + 1) / 2);
	fprintf(fp, "%*s ", widen(&w->blocks, strlen(num)), num);
	mode_string(st->st_mode, mode);
	snprintf(num, sizeof(num), "%ju", (uintmax_t)st->st_nlink);
	fprintf(fp, "%s %*s ", mode, widen(&w->nlink, strlen(num)), num);
	put_owner(f, fp, st);
	put_size(f, fp, st);
	put_date(f, fp, &st->st_mtim);
	put_escaped(fp, e->path);
	const char *target = entry_link(e, &f->scratch);
	if (target) {
		fputs(" -> ", fp);
		put_escaped(fp, target);
	}
	putc('\n', fp);
}
