/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.c: the output unit, from -B SIZE or DU_BLOCK_SIZE, BLOCK_SIZE and
 * BLOCKSIZE, with the rules of GNU's block size arguments: a leading "'"
 * groups digits; "human-readable" and "si" (or a prefix) scale each number;
 * a size without digits ("K", "MB", "KiB") puts its unit after the numbers;
 * "KB" is 1000 and "KiB" or "K" 1024. Also the scaled integer parser shared
 * with -t.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "du.h"
#include "human.h"

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
		if (*v > UINTMAX_MAX / base)
			return UNITS_OVERFLOW;
		*v *= base;
	}
	return 0;
}

/* Parse s as "NUMBER[SUFFIX]" like GNU's xstrtoumax: the number in C's
 * base 0 (0x.., 0..), absent when s starts with a suffix; suffix letters
 * limited to valid; "B"/"D" after the letter for powers of 1000 and "iB"
 * for powers of 1024. Returns 0 or a UNITS_* code. */
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
	if (*end) {
		int power = strchr(valid, *end) ? unit_power(*end) : -1;
		if (power < 0)
			return UNITS_SUFFIX;
		unsigned base = 1024;
		size_t len = 1;
		if (end[1] == 'i' && end[2] == 'B')
			len = 3;
		else if (end[1] == 'B' || end[1] == 'D')
			base = 1000, len = 2;
		if (end[len])
			return UNITS_SUFFIX;
		if (!err)
			err = multiply(&v, base, power);
	}
	*out = v;
	return err;
}

/* A prefix of word, and not empty. */
static bool abbreviates(const char *s, const char *word)
{
	return *s && strncmp(s, word, strlen(s)) == 0;
}

static int parse_spec(const char *spec, uint64_t *block_size, unsigned *human)
{
	unsigned opts = 0;
	if (*spec == '\'') {
		opts |= HUMAN_GROUP;
		spec++;
	}
	if (abbreviates(spec, "human-readable") || abbreviates(spec, "si")) {
		opts |= HUMAN_AUTOSCALE | HUMAN_SUFFIX;
		if (spec[0] == 'h')
			opts |= HUMAN_BASE_1024;
		*block_size = 1;
		*human = opts;
		return 0;
	}
	uintmax_t v;
	int err = units_scaled(spec, "eEgGkKmMpPtTyYzZ0", &v);
	if (err)
		return err;
	if (v == 0)
		return UNITS_INVALID;
	if (!strpbrk(spec, "0123456789")) {
		size_t len = strlen(spec);
		opts |= HUMAN_SUFFIX;
		if (spec[len - 1] == 'B')
			opts |= HUMAN_B;
		if (spec[len - 1] != 'B' || (len > 1 && spec[len - 2] == 'i'))
			opts |= HUMAN_BASE_1024;
	}
	*block_size = v;
	*human = opts;
	return 0;
}

int units_parse(const char *spec, uint64_t *block_size, unsigned *human)
{
	if (spec)
		return parse_spec(spec, block_size, human);
	static const char *const vars[] = { "DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE" };
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *env = getenv(vars[i]);
		if (env && parse_spec(env, block_size, human) == 0)
			return 0;
		if (env)
			break; /* GNU uses the first one set, valid or not */
	}
	*block_size = getenv("POSIXLY_CORRECT") ? 512 : 1024;
	*human = 0;
	return 0;
}

void units_error(struct diag *d, int err, const char *option, const char *arg)
{
	const char *q = diag_quote_style(d, 0, QUOTE_LOCALE, arg);
	if (err == UNITS_OVERFLOW)
		diag_error(d, 0, "%s argument %s too large", option, q);
	else if (err == UNITS_SUFFIX)
		diag_error(d, 0, "invalid suffix in %s argument %s", option, q);
	else
		diag_error(d, 0, "invalid %s argument %s", option, q);
}
