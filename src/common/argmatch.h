/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * argmatch.h: option arguments chosen from a list of words, abbreviations
 * allowed, with GNU's messages when the word is unknown or ambiguous.
 */
#ifndef SWEEP_ARGMATCH_H
#define SWEEP_ARGMATCH_H

#include "diag.h"

/* The index in the NULL-terminated list of the word arg names (exactly, or
 * as the only prefix, or as a prefix of words with the same value): >= 0;
 * -1 when it names none, -2 when it is ambiguous. */
int argmatch(const char *arg, const char *const *list, const int *values);

/* Report a failed argmatch() in GNU's words: the invalid or ambiguous
 * argument, then the valid ones grouped by value. context is the option as
 * GNU names it ("--time", "time style"). */
void argmatch_report(struct diag *d, const char *context, const char *arg, int result,
                     const char *const *list, const int *values);

#endif
