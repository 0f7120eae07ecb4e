/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * times.c: tests on times: -amin -cmin -mmin, -atime -ctime -mtime, -used. The
 * reference moments are computed once, when the expression is parsed
 * (args.c), from the time sweep-find started. The -newer family is in
 * newer.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "prim.h"

struct timespec stat_time(const struct stat *st, char which)
{
	return which == 'a' ? st->st_atim : which == 'c' ? st->st_ctim : st->st_mtim;
}

int ts_cmp(struct timespec a, struct timespec b)
{
	if (a.tv_sec != b.tv_sec)
		return a.tv_sec < b.tv_sec ? -1 : 1;
	return a.tv_nsec < b.tv_nsec ? -1 : a.tv_nsec > b.tv_nsec;
}

static bool eval_time(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct time_arg *t = &x->a.time;
	const struct stat *st = entry_stat(f, e);
	if (!st)
		return false;
	struct timespec ts = stat_time(st, t->which);
	if (t->cmp == CMP_GT)
		return ts_cmp(ts, t->ref) < 0;
	if (t->cmp == CMP_LT)
		return ts_cmp(ts, t->ref) > 0;
	double delta = (double)(ts.tv_sec - t->ref.tv_sec) +
	               (double)(ts.tv_nsec - t->ref.tv_nsec) / 1e9;
	return delta > 0 && delta <= t->window;
}

static int time_arg(struct parser *p, struct expr *x, char which, bool days)
{
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	if (!args_time(p->f, s, which, days, &x->a.time))
		return args_invalid(p, s, x->name);
	x->eval = eval_time;
	x->needs = NEED_STAT;
	return 0;
}

/* -used N: accessed N days after the last status change, in GNU find's
 * windows, which are not -atime's: [N-1, N) days, more than N, less than N;
 * an access before the change matches none of them, as in GNU find 4.9. */
static bool eval_used(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	if (!st)
		return false;
	double delta = (double)(st->st_atim.tv_sec - st->st_ctim.tv_sec) +
	               (double)(st->st_atim.tv_nsec - st->st_ctim.tv_nsec) / 1e9;
	double days = x->a.used.days * 86400;
	if (delta < 0)
		return false;
	if (x->a.used.cmp == CMP_GT)
		return delta > days;
	if (x->a.used.cmp == CMP_LT)
		return delta < days;
	return delta >= days - 86400 && delta < days;
}

int parse_used(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	const char *n = s;
	char *end;
	x->a.used.cmp = *n == '+' ? CMP_GT : *n == '-' ? CMP_LT : CMP_EQ;
	n += x->a.used.cmp != CMP_EQ;
	errno = 0;
	x->a.used.days = strtod(n, &end);
	if (end == n || *end || errno || isnan(x->a.used.days)) {
		diag_error(p->f->diag, 0, "Invalid argument %s to -used", s);
		return 1;
	}
	x->eval = eval_used;
	x->needs = NEED_STAT;
	return 0;
}

int parse_amin(struct parser *p, struct expr *x) { return time_arg(p, x, 'a', false); }
int parse_cmin(struct parser *p, struct expr *x) { return time_arg(p, x, 'c', false); }
int parse_mmin(struct parser *p, struct expr *x) { return time_arg(p, x, 'm', false); }
int parse_atime(struct parser *p, struct expr *x) { return time_arg(p, x, 'a', true); }
int parse_ctime(struct parser *p, struct expr *x) { return time_arg(p, x, 'c', true); }
int parse_mtime(struct parser *p, struct expr *x) { return time_arg(p, x, 'm', true); }
