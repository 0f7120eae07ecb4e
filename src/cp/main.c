/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: sweep-cp, a GNU-compatible cp whose copy reads the source in
 * disk order through libsweep. Module map: cp.h.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include "cp.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_SHELL_ALWAYS);
	struct cp cp = { .diag = &d };
	int status = cp_parse_options(&cp, argc, argv);
	if (status < 0)
		status = cp_run(&cp);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_error(&d, errno, "write error");
		status = 1;
	}
	diag_free(&d);
	return status;
}
