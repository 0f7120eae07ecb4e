/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * files0.c: -files0-from FILE, the starting points read from FILE ('-':
 * standard input), each ended by a NUL (the last may be unended), as GNU
 * find reads them: an empty name is reported with its place in the list
 * and skipped; an empty list walks nothing (not "."); starting points on
 * the command line too, or -ok reading the same standard input, are
 * refused. The list is read whole before the walk, which takes its names
 * together.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec.h"
#include "prim.h"

static bool eval_files0(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f, (void)e;
	return true;
}

int parse_files0_from(struct parser *p, struct expr *x)
{
	const char *file = parser_arg(p, x->name);
	if (!file)
		return 1;
	p->f->opt.files0_from = file;
	x->eval = eval_files0;
	return 0;
}

/* All of fd into *data (NUL-terminated; *len without it). Returns 0 or -1
 * with errno set. */
static int slurp(int fd, char **data, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	for (;;) {
		if (sb_reserve(&sb, 65536) < 0)
			goto fail;
		ssize_t n = read(fd, sb.s + sb.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		sb.len += (size_t)n;
	}
	if (sb_reserve(&sb, 1) < 0)
		goto fail;
	sb.s[sb.len] = 0;
	*data = sb.s;
	*len = sb.len;
	return 0;
fail:
	sb_free(&sb);
	return -1;
}

/* Whether an -ok or -okdir reads standard input. */
static bool asks(const struct find *f)
{
	for (const struct exec *ex = f->execs; ex; ex = ex->next)
		if (ex->ok)
			return true;
	return false;
}

/* The names of data (len bytes) into f->roots, empty ones reported. */
static int split(struct find *f, char *data, size_t len)
{
	size_t n = 0;
	for (size_t off = 0; off < len; off += strlen(data + off) + 1)
		n++;
	f->files0_roots = calloc(n + 1, sizeof(*f->files0_roots));
	if (!f->files0_roots) {
		diag_error(f->diag, ENOMEM, "-files0-from");
		return 1;
	}
	const char *shown = strcmp(f->opt.files0_from, "-") == 0 ? "(standard input)"
	                                                         : f->opt.files0_from;
	size_t k = 0, record = 0;
	for (size_t off = 0; off < len; off += strlen(data + off) + 1) {
		record++;
		if (data[off])
			f->files0_roots[k++] = data + off;
		else
			diag_error(f->diag, 0, "%s:%zu: invalid zero-length file name",
			           diag_quote(f->diag, 0, shown), record);
	}
	f->roots = f->files0_roots;
	f->nroots = k;
	return -1;
}

int files0_roots(struct find *f, char **operands, int n)
{
	const char *file = f->opt.files0_from;
	bool from_stdin = strcmp(file, "-") == 0;
	if (n > 0) {
		diag_error(f->diag, 0, "extra operand %s", diag_quote(f->diag, 0, operands[0]));
		diag_error(f->diag, 0, "file operands cannot be combined with -files0-from");
		return 1;
	}
	if (from_stdin && asks(f)) {
		/* GNU find's message ends with an empty line too */
		diag_error(f->diag, 0, "option -files0-from reading from standard input cannot be "
		                       "combined with -ok, -okdir\n");
		return 1;
	}
	int fd = from_stdin ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
	size_t len;
	if (fd < 0) {
		diag_error(f->diag, errno, "cannot open %s for reading", diag_quote(f->diag, 0, file));
		return 1;
	}
	if (slurp(fd, &f->files0_data, &len) < 0) { /* (a directory: GNU's words) */
		diag_error(f->diag, errno, "%s: read error", diag_quote(f->diag, 0, file));
		if (!from_stdin)
			close(fd);
		return 1;
	}
	if (!from_stdin)
		close(fd);
	return split(f, f->files0_data, len);
}
