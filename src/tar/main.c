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
#include "tar.h"

/* Flush standard output (listings, -O) and report a failure to write it. */
static void close_stdout(struct tar *t)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		tar_error(t, errno, "write error");
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
	status = t.opt.mode == MODE_CREATE ? tar_create(&t) : tar_extract(&t);
	close_stdout(&t);
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
