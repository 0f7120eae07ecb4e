/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ask.c: -i. GNU cp's question, "cp: overwrite 'x'? " (of a file the user
 * may not write: "unwritable 'x' (mode 0444, r--r--r--); try anyway? ",
 * or, where it is to be removed first, "replace 'x', overriding mode
 * ...?"), on standard error, and a line read from standard input: yes
 * when it starts with y or Y. No answer at all (end of input) is no.
 */
#include <stdio.h>
#include <sys/stat.h>
#include "cp.h"
#include "permstr.h"

bool cp_ask(void *arg, const char *dst_shown, const struct stat *unwritable)
{
	struct cp *cp = arg;
	fflush(stdout);
	if (unwritable) {
		char perms[10];
		unsigned long mode = (unsigned long)(unwritable->st_mode & 07777);
		perm_letters(unwritable->st_mode, perms);
		if (cp->copy.remove_destination || cp->copy.force)
			fprintf(stderr, "%s: replace %s, overriding mode %04lo (%s)? ", cp->diag->prog,
			        dst_shown, mode, perms);
		else
			fprintf(stderr, "%s: unwritable %s (mode %04lo, %s); try anyway? ",
			        cp->diag->prog, dst_shown, mode, perms);
	} else {
		fprintf(stderr, "%s: overwrite %s? ", cp->diag->prog, dst_shown);
	}
	fflush(stderr);
	int c = getchar(), first = c;
	while (c != EOF && c != '\n')
		c = getchar();
	return first == 'y' || first == 'Y';
}
