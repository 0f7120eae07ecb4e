/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ask.c: -i. GNU cp's question, "cp: overwrite 'x'? ", on standard error,
 * and a line read from standard input: yes when it starts with y or Y.
 * No answer at all (end of input) is no.
 */
#include <stdio.h>
#include "cp.h"

bool cp_ask(void *arg, const char *dst_shown)
{
	struct cp *cp = arg;
	fflush(stdout);
	fprintf(stderr, "%s: overwrite %s? ", cp->diag->prog, dst_shown);
	fflush(stderr);
	int c = getchar(), first = c;
	while (c != EOF && c != '\n')
		c = getchar();
	return first == 'y' || first == 'Y';
}
