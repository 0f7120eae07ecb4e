/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parse.c: sweep-find's command line.
 *
 *   find [-H] [-L] [-P] [-D opts] [-Olevel] [-s] [starting-point...] [expression]
 *
 * The expression grammar, loosest first:
 *   list := or { "," or }
 *   or   := and { ("-o" | "-or") and }
 *   and  := unary { ["-a" | "-and"] unary }
 *   unary := ("!" | "-not") unary | "(" list ")" | primary
 * Mistakes are reported with GNU find's messages and exit status 1. An
 * expression without an action gets "-print" added, as in GNU find.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "find.h"
#include "prim.h"

struct pstate;
static struct expr *take_primary(struct pstate *s, const char *t, bool *action);

struct pstate {
	struct parser p;
	bool has_action;
	int status;      /* set once a mistake was reported */
	const char *skipped; /* the last word peek() took since an operator */
	bool acted;      /* an action other than -quit was seen (GNU's words) */
};

static bool is(const char *tok, const char *a, const char *b)
{
	return tok && (strcmp(tok, a) == 0 || (b && strcmp(tok, b) == 0));
}

/* The next word; GNU's options that put nothing in the expression
 * (-daystart, -files0-from FILE) taken on the way, so that an operator
 * around one sees past it ("! -daystart -print" prints all; "( -daystart
 * )" is empty). NULL at the end, or where one failed (said). */
static const char *peek(struct pstate *s)
{
	const char *t;
	while (!s->status && (t = s->p.i < s->p.argc ? s->p.argv[s->p.i] : NULL) &&
	       is(t, "-daystart", "-files0-from")) {
		bool action;
		expr_free(take_primary(s, t, &action));
		s->skipped = t;
	}
	return s->status || s->p.i >= s->p.argc ? NULL : s->p.argv[s->p.i];
}

static bool is_binary(const char *tok)
{
	return is(tok, "-a", "-and") || is(tok, "-o", "-or") || is(tok, ",", NULL);
}

static void fail(struct pstate *s)
{
	s->status = 1;
}

/* The first non-option word names itself in GNU's global option warning;
 * the last one names itself in its "possible unquoted pattern" note. */
static void note_operator(struct pstate *s, const char *op)
{
	if (!s->p.first_arg)
		s->p.first_arg = op;
	s->p.last_prim = op;
	s->skipped = NULL;
}

static struct expr *new_expr(enum expr_kind kind, struct expr *l, struct expr *r)
{
	struct expr *x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->kind = kind;
	x->l = l;
	x->r = r;
	return x;
}

/* What follows an operator must be an expression. */
static bool operand_follows(struct pstate *s, const char *op)
{
	const char *t = peek(s);
	if (!t && s->status)
		return false;
	if (!t && s->acted) { /* (GNU's words once an action was seen) */
		diag_error(s->p.f->diag, 0, "invalid expression");
		fail(s);
		return false;
	}
	if (!t) { /* (GNU names the last word, one taken on the way too) */
		diag_error(s->p.f->diag, 0, "expected an expression after '%s'",
		           s->skipped ? s->skipped : op);
		fail(s);
		return false;
	}
	if (is(t, ")", NULL)) {
		diag_error(s->p.f->diag, 0, "expected an expression between '%s' and ')'", op);
		fail(s);
		return false;
	}
	return true;
}

static struct expr *parse_list(struct pstate *s);
static struct expr *parse_unary(struct pstate *s);

static struct expr *parse_paren(struct pstate *s)
{
	struct diag *d = s->p.f->diag;
	s->p.i++;
	note_operator(s, "(");
	const char *t = peek(s);
	if (!t && s->status)
		return NULL;
	if (!t) {
		diag_error(d, 0, "invalid expression; expected to find a ')' but didn't see one. "
		                 "Perhaps you need an extra predicate after '('");
		fail(s);
		return NULL;
	}
	if (is(t, ")", NULL)) {
		diag_error(d, 0, "invalid expression; empty parentheses are not allowed.");
		fail(s);
		return NULL;
	}
	struct expr *x = parse_list(s);
	if (!x)
		return NULL;
	if (!is(peek(s), ")", NULL)) {
		diag_error(d, 0, "invalid expression; I was expecting to find a ')' somewhere "
		                 "but did not see one.");
		fail(s);
		expr_free(x);
		return NULL;
	}
	s->p.i++;
	s->p.last_prim = ")";
	return x;
}

static struct expr *parse_not(struct pstate *s, const char *op)
{
	s->p.i++;
	note_operator(s, op);
	if (!operand_follows(s, op))
		return NULL;
	struct expr *l = parse_unary(s);
	if (!l)
		return NULL;
	struct expr *x = new_expr(EX_NOT, l, NULL);
	if (!x)
		expr_free(l);
	return x;
}

static struct expr *parse_unary(struct pstate *s)
{
	const char *t = peek(s);
	struct diag *d = s->p.f->diag;
	if (is(t, "!", "-not"))
		return parse_not(s, t);
	if (is(t, "(", NULL))
		return parse_paren(s);
	if (is_binary(t)) {
		diag_error(d, 0, "invalid expression; you have used a binary operator '%s' with "
		                 "nothing before it.", t);
		fail(s);
		return NULL;
	}
	if (is(t, ")", NULL)) {
		diag_error(d, 0, "you have too many ')'");
		fail(s);
		return NULL;
	}
	bool action;
	struct expr *x = take_primary(s, t, &action);
	s->has_action |= action;
	s->acted |= action && strcmp(t, "-quit") != 0;
	return x;
}

/* The primary t, the next word: taken, its node (NULL, said, with
 * s->status set) and whether it is an action. */
static struct expr *take_primary(struct pstate *s, const char *t, bool *action)
{
	s->p.i++;
	int status = 0;
	*action = false;
	struct expr *x = parse_primary(&s->p, t, action, &status);
	if (!x)
		s->status = status ? status : 1;
	return x;
}

/* Join l and r with op, or free both. */
static struct expr *join(enum expr_kind op, struct expr *l, struct expr *r)
{
	if (!l || !r) {
		expr_free(l);
		expr_free(r);
		return NULL;
	}
	struct expr *x = new_expr(op, l, r);
	if (!x) {
		expr_free(l);
		expr_free(r);
	}
	return x;
}

static struct expr *parse_and(struct pstate *s)
{
	struct expr *x = parse_unary(s);
	for (;;) {
		const char *t = peek(s);
		if (!x || !t || is(t, ")", NULL) || is(t, "-o", "-or") || is(t, ",", NULL))
			return x;
		if (is(t, "-a", "-and")) {
			s->p.i++;
			note_operator(s, t);
			if (!operand_follows(s, t)) {
				expr_free(x);
				return NULL;
			}
		}
		x = join(EX_AND, x, parse_unary(s));
	}
}

static struct expr *parse_or(struct pstate *s)
{
	struct expr *x = parse_and(s);
	while (x && is(peek(s), "-o", "-or")) {
		const char *op = peek(s);
		s->p.i++;
		note_operator(s, op);
		if (!operand_follows(s, op)) {
			expr_free(x);
			return NULL;
		}
		x = join(EX_OR, x, parse_and(s));
	}
	return x;
}

static struct expr *parse_list(struct pstate *s)
{
	struct expr *x = parse_or(s);
	while (x && is(peek(s), ",", NULL)) {
		s->p.i++;
		note_operator(s, ",");
		if (!operand_follows(s, ",")) {
			expr_free(x);
			return NULL;
		}
		x = join(EX_COMMA, x, parse_or(s));
	}
	return x;
}

/* Where the starting points end: at "-anything", "(" or "!". */
static bool starts_expression(const char *arg)
{
	return (arg[0] == '-' && arg[1]) || strcmp(arg, "(") == 0 || strcmp(arg, "!") == 0;
}

/* -D FLAGS: GNU's debug flags, taken (nothing is shown for them), an
 * unknown one warned of as GNU warns; "help" lists them, as GNU's, and
 * ends the run. Returns whether it did. */
static bool debug_flags(struct find *f, const char *flags)
{
	static const char *const known[] = { "exec", "opt", "rates", "search", "stat", "time",
	                                     "tree", "all", "help", NULL };
	static const char *const says[] = {
		"Show diagnostic information relating to -exec, -execdir, -ok and -okdir",
		"Show diagnostic information relating to optimisation",
		"Indicate how often each predicate succeeded",
		"Navigate the directory tree verbosely",
		"Trace calls to stat(2) and lstat(2)",
		"Show diagnostic information relating to time-of-day and timestamp comparisons",
		"Display the expression tree",
		"Set all of the debug flags (but help)",
		"Explain the various -D options",
	};
	bool help = false;
	char *copy = strdup(flags), *save = NULL;
	for (char *w = copy ? strtok_r(copy, ",", &save) : NULL; w; w = strtok_r(NULL, ",", &save)) {
		size_t k = 0;
		while (known[k] && strcmp(known[k], w) != 0)
			k++;
		help |= known[k] && strcmp(known[k], "help") == 0;
		if (!known[k])
			diag_warn(f->diag, 0, "Ignoring unrecognised debug flag %s",
			          diag_quote_style(f->diag, 0, QUOTE_LOCALE, w));
	}
	free(copy);
	if (help) {
		puts("Valid arguments for -D:");
		for (size_t k = 0; known[k]; k++)
			printf("%-10s %s\n", known[k], says[k]);
	}
	return help;
}

/* -O LEVEL: a number right after it, as GNU's; the expression is evaluated
 * as written whatever it is. 0, or -1 (said). */
static int optimisation_level(struct find *f, const char *a)
{
	if (!a[2]) {
		diag_error(f->diag, 0, "The -O option must be immediately followed by a decimal integer");
		return -1;
	}
	if (strspn(a + 2, "0123456789") != strlen(a + 2)) {
		diag_error(f->diag, 0, "Please specify a decimal number immediately after -O");
		return -1;
	}
	return 0;
}

/* -H -L -P -D -O and our -s, before the starting points. Returns the index
 * of the first argument after them, -1 (said), or -2 when -D help ended
 * the run. */
static int leading_options(struct find *f, int argc, char **argv)
{
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-H") == 0)
			f->opt.follow = SWEEP_FOLLOW_ROOTS;
		else if (strcmp(a, "-L") == 0)
			f->opt.follow = SWEEP_FOLLOW_ALL;
		else if (strcmp(a, "-P") == 0)
			f->opt.follow = SWEEP_FOLLOW_NONE;
		else if (strcmp(a, "-s") == 0)
			f->opt.order = SWEEP_ORDER_NAME;
		else if (strcmp(a, "-D") == 0 && i + 1 < argc) {
			if (debug_flags(f, argv[++i]))
				return -2;
		} else if (strcmp(a, "-D") == 0) {
			diag_error(f->diag, 0, "Missing argument after the -D option.");
			diag_try_help(f->diag);
			return -1;
		} else if (strncmp(a, "-O", 2) == 0) {
			if (optimisation_level(f, a) < 0)
				return -1;
		} else if (strcmp(a, "--") == 0)
			return i + 1;
		else
			break;
	}
	return i;
}

/* The expression's result with -print added when it has no action. */
static struct expr *add_default_print(struct pstate *s, struct expr *x)
{
	if (s->has_action)
		return x;
	bool dummy = false;
	int status = 0;
	struct expr *print = parse_primary(&s->p, "-print", &dummy, &status);
	return x ? join(EX_AND, x, print) : print;
}

static int check_delete(struct find *f)
{
	if (f->opt.has_delete && f->opt.has_prune && !f->opt.depth_given) {
		diag_error(f->diag, 0, "The -delete action automatically turns on -depth, but -prune "
		                       "does nothing when -depth is in effect.  If you want to carry "
		                       "on anyway, just explicitly use the -depth option.");
		return 1;
	}
	if (f->opt.has_delete)
		f->opt.depth = true;
	return -1;
}

int find_parse(struct find *f, int argc, char **argv)
{
	static char *dot[] = { ".", NULL };
	int i = leading_options(f, argc, argv);
	if (i < 0)
		return i == -2 ? 0 : 1;
	int first = i;
	while (i < argc && !starts_expression(argv[i]))
		i++;
	f->roots = i > first ? argv + first : dot;
	f->nroots = i > first ? (size_t)(i - first) : 1;
	struct pstate s = { .p = { .f = f, .argv = argv, .argc = argc, .i = i } };
	struct expr *x = NULL;
	if (peek(&s)) {
		x = parse_list(&s);
		if (x && peek(&s)) {
			const char *t = peek(&s);
			if (is(t, ")", NULL))
				diag_error(f->diag, 0, "you have too many ')'");
			else
				diag_error(f->diag, 0, "paths must precede expression: `%s'", t);
			expr_free(x);
			return 1;
		}
		if (!x)
			return s.status < 0 ? 0 : s.status ? s.status : 1;
	}
	/* (an option peek() took after the expression, or alone, failed:
	 * nothing is run) */
	if (s.status) {
		expr_free(x);
		return s.status < 0 ? 0 : s.status;
	}
	f->expr = add_default_print(&s, x);
	if (!f->expr)
		return 1;
	if (f->opt.files0_from) {
		int status = files0_roots(f, argv + first, i - first);
		if (status >= 0)
			return status;
	}
	return check_delete(f);
}
