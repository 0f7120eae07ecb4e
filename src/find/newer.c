/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * newer.c: -newer -anewer -cnewer and -newerXY: whether the entry's time X
 * (a access, B birth, c change, m modification) is later than the
 * reference file's time Y, or than the date Y=t names (date.c). Birth
 * times come from statx, only when asked for: a file whose file system
 * keeps none is newer than nothing, as in GNU find.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include "datetime.h"
#include "prim.h"

/* The birth time of the file at dirfd/name, or false when it has none. */
static bool birth_time(int dirfd, const char *name, bool follow, struct timespec *ts)
{
	struct statx sx;
	int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
	if (statx(dirfd, name, flags, STATX_BTIME, &sx) < 0 || !(sx.stx_mask & STATX_BTIME))
		return false;
	ts->tv_sec = sx.stx_btime.tv_sec;
	ts->tv_nsec = sx.stx_btime.tv_nsec;
	return true;
}

static bool eval_newer(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	struct timespec ts;
	if (x->a.time.which == 'B') {
		if (!birth_time(e->dirfd, e->name, entry_follows(f, e), &ts))
			return false;
	} else {
		const struct stat *st = entry_stat(f, e);
		if (!st)
			return false;
		ts = stat_time(st, x->a.time.which);
	}
	return ts_cmp(ts, x->a.time.ref) > 0;
}

/* Time y of the reference file, stat-ed as args_stat_ref() does. */
static int reference_time(struct parser *p, const char *file, char y, struct timespec *ts)
{
	struct stat st;
	int status = args_stat_ref(p, file, &st);
	if (status)
		return status;
	if (y != 'B') {
		*ts = stat_time(&st, y);
		return 0;
	}
	bool follow = p->f->opt.follow != SWEEP_FOLLOW_NONE && !S_ISLNK(st.st_mode);
	if (birth_time(AT_FDCWD, file, follow, ts))
		return 0;
	diag_error(p->f->diag, 0, "Cannot obtain birth time of file %s",
	           diag_quote(p->f->diag, 0, file));
	return 1;
}

static int newer_set(struct expr *x, char which)
{
	x->a.time.which = which;
	x->eval = eval_newer;
	x->needs = NEED_STAT;
	return 0;
}

static int newer_arg(struct parser *p, struct expr *x, char which, char y)
{
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	int status = reference_time(p, s, y, &x->a.time.ref);
	if (status)
		return status;
	return newer_set(x, which);
}

int parse_newer(struct parser *p, struct expr *x) { return newer_arg(p, x, 'm', 'm'); }
int parse_anewer(struct parser *p, struct expr *x) { return newer_arg(p, x, 'a', 'm'); }
int parse_cnewer(struct parser *p, struct expr *x) { return newer_arg(p, x, 'c', 'm'); }

/* -newerXY: the primary's name is a pattern (PRIM_NAMED), x->name the word
 * as written. */
int parse_newerxy(struct parser *p, struct expr *x)
{
	char xl = x->name[6], yl = x->name[7];
	if (!strchr("aBcm", xl) || !strchr("aBcmt", yl)) {
		diag_error(p->f->diag, 0, "invalid predicate `%s'", x->name);
		return 1;
	}
	if (p->i >= p->argc) {
		diag_error(p->f->diag, 0, "The %s test needs an argument",
		           diag_quote(p->f->diag, 0, x->name));
		return 1;
	}
	if (yl != 't')
		return newer_arg(p, x, xl, yl);
	const char *s = p->argv[p->i++];
	if (!datetime_parse(s, &p->f->opt.now, &x->a.time.ref)) {
		diag_error(p->f->diag, 0, "I cannot figure out how to interpret %s as a date or time",
		           diag_quote(p->f->diag, 0, s));
		return 1;
	}
	return newer_set(x, xl);
}
