/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.c: the output unit, from -B SIZE or DU_BLOCK_SIZE, BLOCK_SIZE and
 * BLOCKSIZE, with the rules of GNU's block size arguments: a leading "'"
 * groups digits; "human-readable" and "si" (or a prefix) scale each number;
 * a size without digits ("K", "MB", "KiB") puts its unit after the numbers;
 * "KB" is 1000 and "KiB" or "K" 1024 (src/common/scaled.c).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "du.h"
#include "human.h"

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
	uintmax_t v = 0;
	int err = units_scaled(spec, "eEgGkKmMpPtTyYzZ0", &v);
	if (err && v == 0) /* ("08", "0x": a size of 0 read, GNU's "invalid") */
		err = UNITS_INVALID;
	if (err) {
		*block_size = v; /* (what an environment variable gives: GNU's) */
		return err;
	}
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
		if (!env)
			continue;
		*block_size = 0;
		int err = parse_spec(env, block_size, human);
		/* a number with a bad suffix, or too large: GNU takes what it
		 * read ("4X": 4, "3.5K": 3; saturated), plainly */
		if (err && *block_size)
			*human = 0;
		if (!err || *block_size)
			return 0;
		break; /* GNU uses the first one set, valid or not */
	}
	*block_size = getenv("POSIXLY_CORRECT") ? 512 : 1024;
	*human = 0;
	return 0;
}
