/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaled.h: "NUMBER[SUFFIX]" arguments, as GNU's tools read them.
 */
#ifndef SWEEP_SCALED_H
#define SWEEP_SCALED_H

#include <stdint.h>
#include "diag.h"

/* Parse s as "NUMBER[SUFFIX]" like GNU's xstrtoumax: the number in C's
 * base 0 (0x.., 0..), absent when s starts with a suffix; suffix letters
 * limited to valid (of "kKmMgGtTpPeEzZyY"); "B"/"D" after the letter for
 * powers of 1000 and "iB" for powers of 1024. Returns 0 or a UNITS_* code;
 * *out is set but for UNITS_INVALID (to UINTMAX_MAX on overflow, to what was
 * read before a bad suffix), as xstrtoumax sets it. */
int units_scaled(const char *s, const char *valid, uintmax_t *out);
#define UNITS_INVALID   1
#define UNITS_SUFFIX    2
#define UNITS_OVERFLOW  3

/* Say what is wrong with arg, given to option (GNU's words), for err. */
void units_error(struct diag *d, int err, const char *option, const char *arg);

#endif
