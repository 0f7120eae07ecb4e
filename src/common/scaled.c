/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaled.c: numbers with a unit suffix, as GNU's xstrtoumax reads them
 * (du's -B and -t, sweep-cp's --write-batch).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "quote.h"
#include "scaled.h"

/* The power of the unit named by letter c, or -1. */
static int unit_power(char c)
{
	static const char upper[] = "KMGTPEZY";
	const char *p = strchr(upper, c);
	if (p && c)
		return (int)(p - upper) + 1;
	switch (c) {
	case 'k': return 1;
	case 'm': return 2;
	case 'g': return 3;
	case 't': return 4;
	}
	return -1;
}

static int multiply(uintmax_t *v, unsigned base, int power)
{
	while (power-- > 0) {
		if (*v > UINTMAX_MAX / base) {
			*v = UINTMAX_MAX;
			return UNITS_OVERFLOW;
		}
		*v *= base;
	}
	return 0;
}

/* See scaled.h. */
int units_scaled(const char *s, const char *valid, uintmax_t *out)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return UNITS_INVALID;
	char *end;
	errno = 0;
	uintmax_t v = strtoumax(s, &end, 0);
	int err = errno == ERANGE ? UNITS_OVERFLOW : 0;
	if (end == s) {
		if (!*s || !strchr(valid, *s))
			return UNITS_INVALID;
		v = 1;
	}
	/* (on a bad suffix *out is what was read up to it, as xstrtoumax
	 * leaves it, saturated on overflow: GNU du's DU_BLOCK_SIZE takes it) */
	if (*end) {
		int power = strchr(valid, *end) ? unit_power(*end) : -1;
		if (power < 0) {
			*out = v;
			return UNITS_SUFFIX;
		}
		unsigned base = 1024;
		size_t len = 1;
		if (end[1] == 'i' && end[2] == 'B')
			len = 3;
		else if (end[1] == 'B' || end[1] == 'D')
			base = 1000, len = 2;
		int over = multiply(&v, base, power);
		if (end[len]) {
			*out = v;
			return UNITS_SUFFIX;
		}
		if (!err)
			err = over;
	}
	*out = v;
	return err;
}

void units_error(struct diag *d, int err, const char *option, const char *arg)
{
	/* (gnulib's xstrtol_fatal puts the argument in plain quotes, as it
	 * is, whatever the locale) */
	if (err == UNITS_OVERFLOW)
		diag_error(d, 0, "%s argument '%s' too large", option, arg);
	else if (err == UNITS_SUFFIX)
		diag_error(d, 0, "invalid suffix in %s argument '%s'", option, arg);
	else
		diag_error(d, 0, "invalid %s argument '%s'", option, arg);
}
