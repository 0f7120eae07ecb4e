/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * actions.c: -print, -print0, -fprint, -fprint0, -printf, -fprintf, -ls,
 * -fls, -delete, -quit and -prune.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "prim.h"
#include "printf.h"

static void free_fmt(struct expr *x)
{
	fmt_free(x->a.print.fmt);
}

static bool eval_print(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)f;
	struct out *o = x->a.print.out;
	if (x->a.print.eol) {
		out_name(o, e->path);
		putc('\n', o->fp);
	} else {
		fwrite(e->path, 1, e->pathlen + 1, o->fp);
	}
	return true;
}

static bool eval_printf(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	fmt_run(f, x->a.print.fmt, x->a.print.out, e);
	return true;
}

static bool eval_ls(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	ls_print(f, x->a.print.out, e);
	return true;
}

/* Set up an output action writing to file (NULL: standard output). */
static int output_to(struct parser *p, struct expr *x, const char *file, eval_fn *eval, int eol)
{
	x->a.print.out = out_get(p->f, file);
	if (!x->a.print.out)
		return 1;
	x->a.print.eol = eol;
	x->eval = eval;
	return 0;
}

/* The file argument of -fprint and friends; NULL after reporting. */
static const char *file_arg(struct parser *p, struct expr *x)
{
	return parser_arg(p, x->name);
}

int parse_print(struct parser *p, struct expr *x)
{
	return output_to(p, x, NULL, eval_print, '\n');
}

int parse_print0(struct parser *p, struct expr *x)
{
	return output_to(p, x, NULL, eval_print, 0);
}

int parse_fprint(struct parser *p, struct expr *x)
{
	const char *file = file_arg(p, x);
	return file ? output_to(p, x, file, eval_print, '\n') : 1;
}

int parse_fprint0(struct parser *p, struct expr *x)
{
	const char *file = file_arg(p, x);
	return file ? output_to(p, x, file, eval_print, 0) : 1;
}

int parse_ls(struct parser *p, struct expr *x)
{
	x->needs = NEED_STAT;
	return output_to(p, x, NULL, eval_ls, 0);
}

int parse_fls(struct parser *p, struct expr *x)
{
	const char *file = file_arg(p, x);
	x->needs = NEED_STAT;
	return file ? output_to(p, x, file, eval_ls, 0) : 1;
}

static int printf_to(struct parser *p, struct expr *x, const char *file, const char *format)
{
	int status = output_to(p, x, file, eval_printf, 0);
	if (status)
		return status;
	x->a.print.fmt = fmt_compile(p->f, format);
	x->free = free_fmt;
	if (!x->a.print.fmt)
		return 1;
	x->needs = fmt_needs(x->a.print.fmt);
	return 0;
}

int parse_printf(struct parser *p, struct expr *x)
{
	const char *format = parser_arg(p, "-printf");
	return format ? printf_to(p, x, NULL, format) : 1;
}

int parse_fprintf(struct parser *p, struct expr *x)
{
	const char *file = file_arg(p, x);
	if (!file)
		return 1;
	if (p->i >= p->argc)
		return args_invalid(p, file, "-fprintf");
	return printf_to(p, x, file, p->argv[p->i++]);
}

/* -delete: a directory is removed as a directory; "." is left alone, as
 * GNU find leaves it. */
static bool eval_delete(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x;
	if (e->depth == 0 && strcmp(e->path, ".") == 0)
		return true;
	/* (under -L a link to a directory is a directory: its rmdir fails,
	 * "Not a directory", and it stays, as in GNU find) */
	int flags = S_ISDIR(e->st.st_mode) ? AT_REMOVEDIR : 0;
	if (unlinkat(e->dirfd, e->name, flags) == 0)
		return true;
	int err = errno; /* (quoting the name may change errno) */
	diag_error(f->diag, err, "cannot delete %s", diag_quote(f->diag, 0, e->path));
	return false;
}

int parse_delete(struct parser *p, struct expr *x)
{
	p->f->opt.has_delete = true;
	x->eval = eval_delete; /* tried even on what could not be examined */
	return 0;
}

static bool eval_quit(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)e;
	f->quit = true;
	return true;
}

int parse_quit(struct parser *p, struct expr *x)
{
	(void)p;
	x->eval = eval_quit;
	return 0;
}

/* -prune keeps a directory from being read; with -depth it is too late. */
static bool eval_prune(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)e;
	if (!f->opt.depth)
		f->prune = true;
	return true;
}

int parse_prune(struct parser *p, struct expr *x)
{
	p->f->opt.has_prune = true;
	x->eval = eval_prune;
	return 0;
}
