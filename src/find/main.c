/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: sweep-find, GNU find's expressions over a walk in disk order.
 *
 * The command line becomes an expression tree (parse.c, primaries.c); the
 * walk (walk.c) evaluates it for each file as libsweep serves the tree, in
 * inode order rather than depth-first, so the same lines come out in
 * another order. Commands gathered by "-exec ... +" run at the end.
 * Module map: find.h.
 */
#include <locale.h>
#include "exec.h"
#include "find.h"
#include "output.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_LOCALE);
	struct find f;
	find_init(&f, &d);
	int status = out_get(&f, NULL) ? find_parse(&f, argc, argv) : 1;
	if (status < 0) {
		status = 0;
		find_walk(&f);
		exec_flush_all(&f);
	}
	find_free(&f); /* reports write errors: before the status is read */
	if (d.status > status)
		status = d.status;
	diag_free(&d);
	return status;
}
