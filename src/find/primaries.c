/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * primaries.c: the table of sweep-find's primaries and the global options
 * (-maxdepth, -mindepth, -depth, -xdev, -mount...), which are always true
 * and apply to the whole expression wherever they stand.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "prim.h"

#define PARSE_DONE (-1) /* --help, --version: leave with status 0 */

static bool eval_option(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f, (void)e;
	return true;
}

/* GNU find's warning for a global option after a test, an action or an
 * operator (it names the first of them). */
static void warn_global(struct parser *p, const char *opt)
{
	if (!p->f->opt.warnings || !p->first_arg)
		return;
	diag_warn(p->f->diag, 0, "warning: you have specified the global option %s after the "
	          "argument %s, but global options are not positional, i.e., %s affects tests "
	          "specified before it as well as those specified after it.  Please specify "
	          "global options before other arguments.", opt, p->first_arg, opt);
}

static int depth_arg(struct parser *p, struct expr *x, int *out)
{
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (isdigit((unsigned char)*s) && !*end && (errno == ERANGE || v > 0x7fffffff)) {
		diag_error(p->f->diag, ERANGE, "%s", s); /* (GNU's words: too large) */
		return 1;
	}
	if (!isdigit((unsigned char)*s) || *end || errno) {
		diag_error(p->f->diag, 0, "Expected a positive decimal integer argument to %s, "
		           "but got %s", x->name, diag_quote(p->f->diag, 0, s));
		return 1;
	}
	*out = (int)v;
	warn_global(p, x->name);
	x->eval = eval_option;
	return 0;
}

static int parse_maxdepth(struct parser *p, struct expr *x)
{
	return depth_arg(p, x, &p->f->opt.maxdepth);
}

static int parse_mindepth(struct parser *p, struct expr *x)
{
	return depth_arg(p, x, &p->f->opt.mindepth);
}

static int parse_depth(struct parser *p, struct expr *x)
{
	p->f->opt.depth = p->f->opt.depth_given = true;
	warn_global(p, x->name);
	x->eval = eval_option;
	return 0;
}

/* The old spelling of -depth, which GNU find warns about. */
static int parse_d(struct parser *p, struct expr *x)
{
	parse_depth(p, x);
	if (p->f->opt.warnings)
		diag_warn(p->f->diag, 0, "warning: the -d option is deprecated; please use -depth "
		          "instead, because the latter is a POSIX-compliant feature.");
	return 0;
}

/* -follow, the old -L: GNU's takes effect where it stands (references
 * named after it are followed) and says nothing. */
static int parse_follow(struct parser *p, struct expr *x)
{
	p->f->opt.follow = SWEEP_FOLLOW_ALL;
	x->eval = eval_option;
	return 0;
}

/* -daystart: the time tests after it count from the coming midnight, local
 * time (so "-mtime 0" is today), as GNU find's does; only the first counts. */
static int parse_daystart(struct parser *p, struct expr *x)
{
	struct find_opts *o = &p->f->opt;
	x->eval = eval_option;
	if (o->daystart)
		return 0;
	o->daystart = true;
	struct tm tm;
	time_t t = o->now.tv_sec + 86400;
	if (!localtime_r(&t, &tm))
		return 0;
	o->origin.tv_sec = t - (tm.tm_sec + tm.tm_min * 60 + tm.tm_hour * 3600);
	o->origin.tv_nsec = 0;
	return 0;
}

static int parse_xdev(struct parser *p, struct expr *x)
{
	p->f->opt.xdev = true;
	warn_global(p, x->name);
	x->eval = eval_option;
	return 0;
}

/* -ignore_readdir_race, -noignore_readdir_race: the last one counts. */
static int parse_readdir_race(struct parser *p, struct expr *x)
{
	p->f->opt.ignore_race = strcmp(x->name, "-ignore_readdir_race") == 0;
	warn_global(p, x->name);
	x->eval = eval_option;
	return 0;
}

/* An option that changes nothing here: the walk never assumes leaf counts. */
static int parse_noop_global(struct parser *p, struct expr *x)
{
	warn_global(p, x->name);
	x->eval = eval_option;
	return 0;
}

static int parse_warn(struct parser *p, struct expr *x)
{
	p->f->opt.warnings = strcmp(x->name, "-warn") == 0;
	x->eval = eval_option;
	return 0;
}

static int parse_help(struct parser *p, struct expr *x)
{
	(void)x;
	printf("Usage: %s [-H] [-L] [-P] [-s] [starting-point...] [expression]\n\n"
	       "Searches the trees below the starting points in disk order and evaluates\n"
	       "the expression (GNU find's tests, operators, options and actions) for\n"
	       "every file. Results come in the walk's order; -s sorts siblings by name.\n"
	       "See sweep-find(1).\n", p->f->diag->prog);
	return PARSE_DONE;
}

static int parse_version(struct parser *p, struct expr *x)
{
	(void)x;
	printf("%s (sweep) %s\n", p->f->diag->prog, PACKAGE_VERSION);
	return PARSE_DONE;
}

static const struct primary table[] = {
	{ "-amin", parse_amin, 0 },
	{ "-anewer", parse_anewer, 0 },
	{ "-atime", parse_atime, 0 },
	{ "-cmin", parse_cmin, 0 },
	{ "-cnewer", parse_cnewer, 0 },
	{ "-context", parse_context, 0 },
	{ "-ctime", parse_ctime, 0 },
	{ "-d", parse_d, PRIM_OPTION },
	{ "-daystart", parse_daystart, PRIM_OPTION },
	{ "-delete", parse_delete, PRIM_ACTION },
	{ "-depth", parse_depth, PRIM_OPTION },
	{ "-empty", parse_empty, 0 },
	{ "-exec", parse_exec, PRIM_ACTION },
	{ "-execdir", parse_execdir, PRIM_ACTION },
	{ "-executable", parse_executable, 0 },
	{ "-false", parse_false, 0 },
	{ "-files0-from", parse_files0_from, PRIM_OPTION },
	{ "-fls", parse_fls, PRIM_ACTION },
	{ "-follow", parse_follow, PRIM_OPTION },
	{ "-fprint", parse_fprint, PRIM_ACTION },
	{ "-fprint0", parse_fprint0, PRIM_ACTION },
	{ "-fprintf", parse_fprintf, PRIM_ACTION },
	{ "-fstype", parse_fstype, 0 },
	{ "-gid", parse_gid, 0 },
	{ "-group", parse_group, 0 },
	{ "-help", parse_help, PRIM_OPTION },
	{ "-ignore_readdir_race", parse_readdir_race, PRIM_OPTION },
	{ "-ilname", parse_ilname, 0 },
	{ "-iname", parse_iname, 0 },
	{ "-inum", parse_inum, 0 },
	{ "-ipath", parse_ipath, 0 },
	{ "-iregex", parse_iregex, 0 },
	{ "-iwholename", parse_ipath, 0 },
	{ "-links", parse_links, 0 },
	{ "-lname", parse_lname, 0 },
	{ "-ls", parse_ls, PRIM_ACTION },
	{ "-maxdepth", parse_maxdepth, PRIM_OPTION },
	{ "-mindepth", parse_mindepth, PRIM_OPTION },
	{ "-mmin", parse_mmin, 0 },
	{ "-mount", parse_xdev, PRIM_OPTION },
	{ "-mtime", parse_mtime, 0 },
	{ "-name", parse_name, 0 },
	{ "-newer", parse_newer, 0 },
	{ "-noignore_readdir_race", parse_readdir_race, PRIM_OPTION },
	{ "-noleaf", parse_noop_global, PRIM_OPTION },
	{ "-nogroup", parse_nogroup, 0 },
	{ "-nouser", parse_nouser, 0 },
	{ "-nowarn", parse_warn, PRIM_OPTION },
	{ "-ok", parse_ok, PRIM_ACTION },
	{ "-okdir", parse_okdir, PRIM_ACTION },
	{ "-path", parse_path, 0 },
	{ "-perm", parse_perm, 0 },
	{ "-print", parse_print, PRIM_ACTION },
	{ "-print0", parse_print0, PRIM_ACTION },
	{ "-printf", parse_printf, PRIM_ACTION },
	{ "-prune", parse_prune, 0 },
	{ "-quit", parse_quit, PRIM_ACTION },
	{ "-readable", parse_readable, 0 },
	{ "-regex", parse_regex, 0 },
	{ "-regextype", parse_regextype, PRIM_OPTION },
	{ "-samefile", parse_samefile, 0 },
	{ "-size", parse_size, 0 },
	{ "-true", parse_true, 0 },
	{ "-type", parse_type, 0 },
	{ "-uid", parse_uid, 0 },
	{ "-used", parse_used, 0 },
	{ "-user", parse_user, 0 },
	{ "-version", parse_version, PRIM_OPTION },
	{ "-warn", parse_warn, PRIM_OPTION },
	{ "-wholename", parse_path, 0 },
	{ "-writable", parse_writable, 0 },
	{ "-xdev", parse_xdev, PRIM_OPTION },
	{ "-xtype", parse_xtype, 0 },
	{ "--help", parse_help, PRIM_OPTION },
	{ "--version", parse_version, PRIM_OPTION },
};

const struct primary *primary_find(const char *name)
{
	/* -newerXY: its letters are checked by the parser, as GNU's are */
	static const struct primary newer_xy = { "-newerXY", parse_newerxy, PRIM_NAMED };
	if (strncmp(name, "-newer", 6) == 0 && strlen(name) == 8)
		return &newer_xy;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

const char *parser_arg(struct parser *p, const char *prim)
{
	if (p->i < p->argc)
		return p->argv[p->i++];
	diag_error(p->f->diag, 0, "missing argument to `%s'", prim);
	return NULL;
}

/* A word that is no primary: a mistyped one, or a starting point after the
 * expression, maybe a pattern the shell expanded (GNU find says so when
 * the word names a file and follows a pattern test). */
static void report_unknown(struct parser *p, const char *tok)
{
	struct stat st;
	if (tok[0] == '-') {
		diag_error(p->f->diag, 0, "unknown predicate `%s'", tok);
		return;
	}
	diag_error(p->f->diag, 0, "paths must precede expression: `%s'", tok);
	/* after whatever came last, as GNU find says it, when the word names
	 * a file (a pattern the shell expanded) */
	const char *prev = p->last_prim;
	if (prev && stat(tok, &st) == 0)
		diag_warn(p->f->diag, 0, "possible unquoted pattern after predicate `%s'?", prev);
}

/* The primary tok, its arguments taken from the parser; NULL with *status
 * set (PARSE_DONE after --help) when there is none. */
struct expr *parse_primary(struct parser *p, const char *tok, bool *is_action, int *status)
{
	const struct primary *prim = primary_find(tok);
	if (!prim) {
		report_unknown(p, tok);
		*status = 1;
		return NULL;
	}
	struct expr *x = calloc(1, sizeof(*x));
	if (!x) {
		diag_error(p->f->diag, ENOMEM, "%s", tok);
		*status = 1;
		return NULL;
	}
	x->kind = EX_PRED;
	x->name = prim->flags & PRIM_NAMED ? tok : prim->name;
	*status = prim->parse(p, x);
	if (*status) {
		expr_free(x);
		return NULL;
	}
	if (!(prim->flags & PRIM_OPTION) && !p->first_arg)
		p->first_arg = x->name;
	p->last_prim = x->name;
	*is_action = prim->flags & PRIM_ACTION;
	return x;
}

void expr_free(struct expr *x)
{
	if (!x)
		return;
	expr_free(x->l);
	expr_free(x->r);
	if (x->free)
		x->free(x);
	free(x);
}
