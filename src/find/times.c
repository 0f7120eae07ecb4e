/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * times.c: tests on times: -amin -cmin -mmin, -atime -ctime -mtime. The
 * reference moments are computed once, when the expression is parsed
 * (args.c), from the time sweep-find started. The -newer family is in
 * newer.c.
 */
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

int parse_amin(struct parser *p, struct expr *x) { return time_arg(p, x, 'a', false); }
int parse_cmin(struct parser *p, struct expr *x) { return time_arg(p, x, 'c', false); }
int parse_mmin(struct parser *p, struct expr *x) { return time_arg(p, x, 'm', false); }
int parse_atime(struct parser *p, struct expr *x) { return time_arg(p, x, 'a', true); }
int parse_ctime(struct parser *p, struct expr *x) { return time_arg(p, x, 'c', true); }
int parse_mtime(struct parser *p, struct expr *x) { return time_arg(p, x, 'm', true); }
