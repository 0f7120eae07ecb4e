/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c: where find's actions write. Standard output and every file
 * named by -fprint, -fprint0, -fprintf or -fls are opened once, when the
 * expression is parsed; a file named twice shares one stream, as in GNU
 * find. Names written to a terminal show unprintable characters as '?'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "quote.h"

static struct out *out_new(FILE *fp, const char *path)
{
	struct out *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->fp = fp;
	o->path = path;
	o->tty = isatty(fileno(fp));
	struct stat st;
	if (fstat(fileno(fp), &st) == 0) {
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	return o;
}

/* The stream for path; NULL when it could not be opened (reported). */
struct out *out_get(struct find *f, const char *path)
{
	if (!f->outs && !(f->outs = out_new(stdout, NULL)))
		goto oom;
	if (!path)
		return f->outs;
	FILE *std = strcmp(path, "/dev/stdout") == 0 ? stdout
	          : strcmp(path, "/dev/stderr") == 0 ? stderr : NULL;
	for (struct out *o = f->outs; o; o = o->next)
		if ((std && o->fp == std) || (o->path && strcmp(o->path, path) == 0))
			return o;
	FILE *fp = std ? std : fopen(path, "we");
	if (!fp) {
		diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, path));
		return NULL;
	}
	struct out *o = out_new(fp, path);
	if (!o) {
		if (!std)
			fclose(fp);
		goto oom;
	}
	o->next = f->outs->next;
	f->outs->next = o;
	return o;
oom:
	diag_error(f->diag, ENOMEM, "%s", path ? path : "standard output");
	return NULL;
}

void out_name(struct out *o, const char *s)
{
	if (!o->tty) {
		fputs(s, o->fp);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	if (quote_append(&sb, QUOTE_QMARK, s, strlen(s)) == 0)
		fputs(sb_str(&sb), o->fp);
	sb_free(&sb);
}

/* GNU find's two messages for standard output it could not write. */
static void write_error(struct find *f, const struct out *o)
{
	int err = errno;
	const char *name = o->fp == stdout ? "standard output" : "standard error";
	diag_error(f->diag, err, "%s", diag_quote(f->diag, 0, name));
	diag_error(f->diag, err == EBADF ? EBADF : 0, "write error");
}

/* Close every file (standard output is flushed, closed by main); report
 * write errors. */
void out_close_all(struct find *f)
{
	struct out *o = f->outs;
	while (o) {
		struct out *next = o->next;
		bool std = o->fp == stdout || o->fp == stderr;
		if (!std && (ferror(o->fp) | fclose(o->fp)))
			diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, o->path));
		else if (std && (fflush(o->fp) != 0 || ferror(o->fp)))
			write_error(f, o);
		free(o);
		o = next;
	}
	f->outs = NULL;
}
