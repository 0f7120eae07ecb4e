/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: sweep-tar, a GNU-compatible tar whose create reads the tree in
 * disk order through libsweep and writes the archive through libarchive.
 * Module map: tar.h.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tar.h"
#include "update.h"

/* Flush standard output (listings, -O) and report a failure to write it. */
static void close_stdout(struct tar *t)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		tar_error(t, errno, "write error");
}

/* --index-file: where -v's lines (and -t's, -d's) go. Returns 0 or -1
 * (fatal, reported). */
static int open_index(struct tar *t)
{
	if (!t->opt.index_file)
		return 0;
	FILE *f = fopen(t->opt.index_file, "w");
	if (!f) {
		tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, t->opt.index_file));
		return -1;
	}
	t->listing = f;
	return 0;
}

static void close_index(struct tar *t)
{
	if (!t->opt.index_file || t->listing == stdout || t->listing == stderr)
		return;
	if (fclose(t->listing) != 0)
		tar_error(t, errno, "%s: Cannot write", tq(t, 0, t->opt.index_file));
	t->listing = stdout;
}

/* The operation the options chose, then -W's comparison. */
static int run(struct tar *t)
{
	int status;
	newer_note(t);
	switch (t->opt.mode) {
	case MODE_CREATE:
		if (t->opt.verify && strcmp(t->opt.archive, "-") == 0) {
			tar_fatal(t, 0, "Cannot verify stdin/stdout archive");
			return TAR_FAILURE;
		}
		status = tar_create(t);
		break;
	case MODE_APPEND:
	case MODE_UPDATE:
	case MODE_CATENATE:
		status = tar_update(t);
		break;
	case MODE_DELETE:
		return tar_delete(t);
	default:
		return tar_extract(t);
	}
	if (t->opt.verify && !t->fatal)
		status = tar_verify(t);
	return status;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_SHELL_ALWAYS);
	struct tar t;
	tar_init(&t, &d);
	int newargc;
	char **args = oldargs_expand(argc, argv, &newargc);
	int status = TAR_FAILURE;
	if (!args) {
		tar_fatal(&t, ENOMEM, "memory exhausted");
		goto out;
	}
	status = tar_parse_options(&t, newargc, args);
	if (status >= 0)
		goto out;
	status = open_index(&t) < 0 ? TAR_FAILURE : run(&t);
	close_stdout(&t);
	close_index(&t);
	if (d.status > status)
		status = d.status;
	if (status == TAR_FAILURE && !t.fatal)
		tar_warn(&t, 0, "Exiting with failure status due to previous errors");
out:
	if (args != argv)
		free(args);
	tar_free(&t);
	diag_free(&d);
	return status;
}
