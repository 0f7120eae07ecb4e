/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c: where find's actions write. Standard output and every file
 * named by -fprint, -fprint0, -fprintf or -fls are opened once, when the
 * expression is parsed; a file named twice, under one name or another (a
 * hard or symbolic link to it), shares one stream, as in GNU find: each
 * name is opened (and so truncated) when parsed, before anything is
 * written, and a file already open is then known by its device and inode.
 * Names written to a terminal show unprintable characters as '?'.
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

/* An output file other than standard output and error already open on the
 * file o was opened on; NULL when there is none. */
static struct out *out_same_file(const struct find *f, const struct out *o)
{
	for (struct out *p = f->outs->next; p; p = p->next)
		if (p->fp != stdout && p->fp != stderr && p->dev == o->dev && p->ino == o->ino)
			return p;
	return NULL;
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
	if (std)
		for (struct out *o = f->outs; o; o = o->next)
			if (o->fp == std)
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
	struct out *same = std ? NULL : out_same_file(f, o);
	if (same) {
		fclose(fp);
		free(o);
		return same;
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
