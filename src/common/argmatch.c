/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * argmatch.c: matching an option argument against a word list.
 */
#include <stdio.h>
#include <string.h>
#include "argmatch.h"

int argmatch(const char *arg, const char *const *list, const int *values)
{
	size_t len = strlen(arg);
	int found = -1;
	bool ambiguous = false;
	for (int i = 0; list[i]; i++) {
		if (strncmp(list[i], arg, len) != 0)
			continue;
		if (strlen(list[i]) == len)
			return i;
		if (found < 0)
			found = i;
		else if (values[i] != values[found])
			ambiguous = true;
	}
	return ambiguous ? -2 : found;
}

void argmatch_report(struct diag *d, const char *context, const char *arg, int result,
                     const char *const *list, const int *values)
{
	const char *q = diag_quote_style(d, 0, QUOTE_LOCALE, arg);
	const char *c = diag_quote_style(d, 1, QUOTE_LOCALE, context);
	diag_error(d, 0, "%s argument %s for %s", result == -2 ? "ambiguous" : "invalid", q, c);
	fputs("Valid arguments are:", stderr);
	for (int i = 0; list[i]; i++) {
		q = diag_quote_style(d, 0, QUOTE_LOCALE, list[i]);
		if (i == 0 || values[i] != values[i - 1])
			fprintf(stderr, "\n  - %s", q);
		else
			fprintf(stderr, ", %s", q);
	}
	fputc('\n', stderr);
}
