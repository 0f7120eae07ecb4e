/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exclude.h: lists of shell patterns that exclude names from a walk
 * (du --exclude and -X, tar --exclude and -X).
 */
#ifndef SWEEP_EXCLUDE_H
#define SWEEP_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>

/* Per-pattern options. */
#define EXCL_ANCHORED    0x01u /* match the whole name only; otherwise also
                                  any tail of it that follows a '/' */
#define EXCL_LITERAL     0x02u /* no wildcards: compare as a string */
#define EXCL_CASEFOLD    0x04u
#define EXCL_LEADING_DIR 0x08u /* a match may be followed by "/anything" */
#define EXCL_PATHNAME    0x10u /* wildcards do not match '/' */

struct exclude_pattern {
	char *pattern;
	unsigned flags;
};

struct exclude {
	struct exclude_pattern *v;
	size_t n, cap;
};

#define EXCLUDE_INIT { NULL, 0, 0 }

/* Add one pattern. Returns 0 or -1 (ENOMEM). */
int exclude_add(struct exclude *ex, const char *pattern, unsigned flags);

/* Add one pattern per line of file ("-": standard input), as GNU's -X does:
 * lines end at eol; when eol is white space, trailing white space is dropped
 * and blank lines are skipped. Returns 0 or -1 with errno set. */
int exclude_add_file(struct exclude *ex, const char *file, unsigned flags, char eol);

/* Whether name matches any pattern. */
bool exclude_match(const struct exclude *ex, const char *name);

void exclude_free(struct exclude *ex);

#endif
