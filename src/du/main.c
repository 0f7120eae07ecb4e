/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: sweep-du, GNU du's answers from a walk in disk order.
 *
 * The walk (walk.c) gathers sizes in the order libsweep serves the tree;
 * only when it is over can the lines be printed (report.c), depth-first with
 * siblings sorted by name. In between, dedup.c settles which name of a
 * hard-linked file GNU du would have counted. Module map: du.h.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include "du.h"

/* Flush standard output and report a failure to write it as GNU du does:
 * it flushes every line, so by the end the error is an old one and only
 * a closed descriptor is worth naming. */
static void close_stdout(struct diag *d)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
		diag_error(d, errno == EBADF ? EBADF : 0, "write error");
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_SHELL_ALWAYS);
	struct du du = { .diag = &d };
	leaves_init(&du.leaves, 0, false); /* set for the walk by du_walk() */
	int status = du_parse_options(&du.opt, argc, argv, &d);
	if (status >= 0)
		goto out;
	/* a failed walk reported itself; the rest fail only for want of memory */
	if (du_walk(&du) == 0 && (tree_link(&du.tree) < 0 || du_dedup(&du) < 0 ||
	                          du_report(&du) < 0))
		diag_error(&d, ENOMEM, "memory exhausted");
	status = 0;
	close_stdout(&d);
	if (d.status > status)
		status = d.status;
out:
	tree_free(&du.tree);
	leaves_free(&du.leaves);
	du_free_options(&du.opt);
	diag_free(&d);
	return status;
}
