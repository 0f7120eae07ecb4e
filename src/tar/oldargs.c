/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * oldargs.c: old-style bundled options, "tar czf out.tgz dir".
 *
 * When the first argument does not start with '-', each of its letters is
 * an option, and the letters that need an argument take the following
 * arguments in turn, as in V7 tar. Expanding them into ordinary options
 * lets getopt do the rest.
 */
#include <stdlib.h>
#include <string.h>
#include "tar.h"

/* Short options that take an argument (GNU tar's set that sweep-tar knows). */
static const char with_arg[] = "bCfHTX";

char **oldargs_expand(int argc, char **argv, int *newargc)
{
	*newargc = argc;
	if (argc < 2 || argv[1][0] == '-' || argv[1][0] == 0)
		return argv;
	const char *letters = argv[1];
	size_t n = strlen(letters);
	/* Each letter becomes "-x", all in one block of memory after the array. */
	size_t count = (size_t)argc + n;
	char **v = malloc((count + 1) * sizeof(*v) + n * 3);
	if (!v)
		return NULL;
	char *store = (char *)(v + count + 1);
	int out = 0, next = 2;
	v[out++] = argv[0];
	for (size_t i = 0; i < n; i++) {
		store[0] = '-';
		store[1] = letters[i];
		store[2] = 0;
		v[out++] = store;
		store += 3;
		if (strchr(with_arg, letters[i]) && next < argc)
			v[out++] = argv[next++];
	}
	while (next < argc)
		v[out++] = argv[next++];
	v[out] = NULL;
	*newargc = out;
	return v;
}
