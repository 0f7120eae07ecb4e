/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * match.c: tests on names: -name, -iname, -path, -ipath, -regex, -iregex,
 * -lname, -ilname, and -regextype. Shell patterns go to fnmatch() without
 * FNM_PERIOD or FNM_PATHNAME, as in GNU find; regular expressions use
 * GNU's emacs syntax (find's default: '.' does not match a newline,
 * "\(a\|b\)" groups), or the syntax the last -regextype before them
 * names (glibc's syntax bits for GNU find's names), and must match the
 * whole path.
 */
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "prim.h"

static bool eval_name(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const char *name = entry_matchname(e, &f->scratch);
	return fnmatch(x->a.glob.pat, name, x->a.glob.flags) == 0;
}

static bool eval_path(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)f;
	return fnmatch(x->a.glob.pat, e->path, x->a.glob.flags) == 0;
}

static bool eval_lname(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const char *target = entry_link(e, &f->scratch);
	return target && fnmatch(x->a.glob.pat, target, x->a.glob.flags) == 0;
}

static bool eval_regex(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)f;
	regoff_t len = (regoff_t)e->pathlen;
	return re_match(x->a.re, e->path, len, 0, NULL) == len;
}

/* A pattern argument; warns (-warn) when a base-name pattern holds a '/'. */
static int glob_arg(struct parser *p, struct expr *x, const char *prim, int flags,
                    eval_fn *eval, const char *instead)
{
	const char *pat = parser_arg(p, prim);
	if (!pat)
		return 1;
	struct diag *d = p->f->diag;
	if (instead && p->f->opt.warnings && strchr(pat, '/') && strcmp(pat, "/") != 0)
		diag_warn(d, 0, "warning: %s matches against basenames only, but the given pattern "
		          "contains a directory separator (%s), thus the expression will evaluate to "
		          "false all the time.  Did you mean %s?",
		          diag_quote_style(d, 0, QUOTE_LOCALE, prim),
		          diag_quote_style(d, 1, QUOTE_LOCALE, "/"),
		          diag_quote_style(d, 2, QUOTE_LOCALE, instead));
	x->a.glob.pat = pat;
	x->a.glob.flags = flags;
	x->eval = eval;
	x->narrows = true;
	return 0;
}

int parse_name(struct parser *p, struct expr *x)
{
	return glob_arg(p, x, "-name", 0, eval_name, "-wholename");
}

int parse_iname(struct parser *p, struct expr *x)
{
	return glob_arg(p, x, "-iname", FNM_CASEFOLD, eval_name, "-iwholename");
}

/* Whether pattern pat matches a starting point. */
static bool matches_root(const struct find *f, const char *pat, int flags)
{
	for (size_t i = 0; i < f->nroots; i++)
		if (fnmatch(pat, f->roots[i], flags) == 0)
			return true;
	return false;
}

/* (a pattern ending in '/' matches only a starting point written so:
 * said, as GNU says it, -nowarn or not, unless one is, or POSIXLY_CORRECT
 * is set) */
static int path_arg(struct parser *p, struct expr *x, int flags)
{
	int status = glob_arg(p, x, x->name, flags, eval_path, NULL);
	size_t n = status ? 0 : strlen(x->a.glob.pat);
	if (n > 0 && x->a.glob.pat[n - 1] == '/' && !getenv("POSIXLY_CORRECT") &&
	    !matches_root(p->f, x->a.glob.pat, flags))
		diag_warn(p->f->diag, 0, "warning: %s %s will not match anything because it ends "
		          "with /.", x->name, x->a.glob.pat);
	return status;
}

int parse_path(struct parser *p, struct expr *x)
{
	return path_arg(p, x, 0);
}

int parse_ipath(struct parser *p, struct expr *x)
{
	return path_arg(p, x, FNM_CASEFOLD);
}

int parse_lname(struct parser *p, struct expr *x)
{
	x->needs = NEED_TYPE;
	return glob_arg(p, x, "-lname", 0, eval_lname, NULL);
}

int parse_ilname(struct parser *p, struct expr *x)
{
	x->needs = NEED_TYPE;
	return glob_arg(p, x, "-ilname", FNM_CASEFOLD, eval_lname, NULL);
}

static void free_regex(struct expr *x)
{
	regfree(x->a.re);
	free(x->a.re);
}

static int regex_arg(struct parser *p, struct expr *x, bool icase)
{
	const char *pat = parser_arg(p, x->name);
	if (!pat)
		return 1;
	struct re_pattern_buffer *re = calloc(1, sizeof(*re));
	if (!re) {
		diag_error(p->f->diag, errno, "%s", x->name);
		return 1;
	}
	x->a.re = re;
	x->eval = eval_regex;
	x->free = free_regex;
	x->narrows = true;
	/* re_syntax_options is glibc's own global: set just for this call */
	reg_syntax_t saved = re_syntax_options;
	reg_syntax_t syntax = p->f->opt.regex_type ? p->f->opt.regex_syntax : RE_SYNTAX_EMACS;
	re_syntax_options = syntax | (icase ? RE_ICASE : 0);
	const char *err = re_compile_pattern(pat, strlen(pat), re);
	re_syntax_options = saved;
	if (err) {
		diag_error(p->f->diag, 0, "failed to compile regular expression '%s': %s", pat, err);
		return 1;
	}
	return 0;
}

int parse_regex(struct parser *p, struct expr *x)
{
	return regex_arg(p, x, false);
}

int parse_iregex(struct parser *p, struct expr *x)
{
	return regex_arg(p, x, true);
}

/* GNU find's -regextype names, in its order, and glibc's syntaxes. Named,
 * findutils-default lets '.' match a newline; with no -regextype, as in GNU
 * find, it does not. */
static const struct {
	const char *name;
	reg_syntax_t syntax;
} regex_types[] = {
	{ "findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE },
	{ "ed", RE_SYNTAX_ED },
	{ "emacs", RE_SYNTAX_EMACS },
	{ "gnu-awk", RE_SYNTAX_GNU_AWK },
	{ "grep", RE_SYNTAX_GREP },
	{ "posix-awk", RE_SYNTAX_POSIX_AWK },
	{ "awk", RE_SYNTAX_AWK },
	{ "posix-basic", RE_SYNTAX_POSIX_BASIC },
	{ "posix-egrep", RE_SYNTAX_POSIX_EGREP },
	{ "egrep", RE_SYNTAX_EGREP },
	{ "posix-extended", RE_SYNTAX_POSIX_EXTENDED },
	{ "posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC },
	{ "sed", RE_SYNTAX_SED },
};

static bool eval_regextype(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f, (void)e;
	return true;
}

/* GNU's message for an unknown type, every valid one named. */
static void unknown_type(struct find *f, const char *type)
{
	struct strbuf msg = STRBUF_INIT;
	size_t n = sizeof(regex_types) / sizeof(regex_types[0]);
	for (size_t i = 0; i < n; i++)
		sb_printf(&msg, "%s%s", i ? ", " : "", diag_quote(f->diag, 1, regex_types[i].name));
	diag_error(f->diag, 0, "Unknown regular expression type %s; valid types are %s.",
	           diag_quote(f->diag, 0, type), sb_str(&msg));
	sb_free(&msg);
}

int parse_regextype(struct parser *p, struct expr *x)
{
	const char *type = parser_arg(p, x->name);
	if (!type)
		return 1;
	x->eval = eval_regextype;
	for (size_t i = 0; i < sizeof(regex_types) / sizeof(regex_types[0]); i++) {
		if (strcmp(type, regex_types[i].name) == 0) {
			p->f->opt.regex_type = regex_types[i].name;
			p->f->opt.regex_syntax = regex_types[i].syntax;
			return 0;
		}
	}
	unknown_type(p->f, type);
	return 1;
}
