/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * human.c: rounding-up size formatting.
 *
 * The value is carried exactly as an integer part, one decimal digit and a
 * flag saying whether anything nonzero lies beyond that digit; dividing by
 * the base keeps all three exact, so the final ceiling never suffers from
 * floating point.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "human.h"

#define MAX_EXPONENT 8

struct exact {
	unsigned __int128 q; /* integer part */
	unsigned tenths;     /* first decimal digit */
	bool rest;           /* anything after it */
};

static struct exact divide(uint64_t n, uint64_t from, uint64_t to)
{
	unsigned __int128 num = (unsigned __int128)n * from;
	unsigned __int128 r = num % to;
	return (struct exact){ num / to, (unsigned)(r * 10 / to), r * 10 % to != 0 };
}

static void scale_down(struct exact *x, unsigned base)
{
	unsigned rem = (unsigned)(x->q % base);
	x->q /= base;
	unsigned t = rem * 10 + x->tenths;
	x->tenths = t / base;
	x->rest = x->rest || t % base != 0;
}

/* Digits of q, grouped when asked, at the end of the buffer ending at end. */
static char *put_integer(unsigned __int128 q, bool group, char *end)
{
	const struct lconv *lc = localeconv();
	const char *sep = group ? lc->thousands_sep : "";
	const char *grouping = lc->grouping;
	size_t seplen = strlen(sep);
	int width = seplen && grouping && grouping[0] > 0 ? grouping[0] : 0;
	int run = 0;
	char *p = end;
	*--p = 0;
	do {
		if (width && run == width) {
			p -= seplen;
			memcpy(p, sep, seplen);
			run = 0;
			if (grouping[1] > 0 && grouping[1] != 127)
				width = *++grouping;
		}
		*--p = (char)('0' + (int)(q % 10));
		q /= 10;
		run++;
	} while (q);
	return p;
}

static void put_suffix(char *buf, int exponent, unsigned opts)
{
	/* One array, not a choice between two: gcc's -fsanitize=object-size
	 * (in CI's UBSan build, at -O1) flags every index of "(c ? a : b)[i]". */
	static const char letters[2][9] = { "kMGTPEZY", "KMGTPEZY" };
	bool b1024 = opts & HUMAN_BASE_1024;
	size_t len = strlen(buf);
	if (exponent > 0)
		buf[len++] = letters[b1024][exponent - 1];
	if (opts & HUMAN_B) {
		if (b1024 && exponent > 0)
			buf[len++] = 'i';
		buf[len++] = 'B';
	}
	buf[len] = 0;
}

static char *autoscale(struct exact x, unsigned base, unsigned opts, char *buf)
{
	int e = 0;
	while (x.q >= base && e < MAX_EXPONENT) {
		scale_down(&x, base);
		e++;
	}
	char tmp[HUMAN_BUFSIZE];
	if (e > 0 && x.q < 10) {
		if (x.rest && ++x.tenths == 10) {
			x.q++;
			x.tenths = 0;
		}
		if (x.q < 10) {
			snprintf(buf, HUMAN_BUFSIZE, "%u%s%u", (unsigned)x.q,
			         localeconv()->decimal_point, x.tenths);
			put_suffix(buf, e, opts);
			return buf;
		}
	} else if (x.tenths || x.rest) {
		x.q++;
	}
	if (x.q == base && e < MAX_EXPONENT) {
		snprintf(buf, HUMAN_BUFSIZE, "1%s0", localeconv()->decimal_point);
		put_suffix(buf, e + 1, opts);
		return buf;
	}
	snprintf(buf, HUMAN_BUFSIZE, "%s", put_integer(x.q, opts & HUMAN_GROUP, tmp + sizeof(tmp)));
	put_suffix(buf, e, opts);
	return buf;
}

char *human_format(uint64_t n, uint64_t from, uint64_t to, unsigned opts, char *buf)
{
	unsigned base = opts & HUMAN_BASE_1024 ? 1024 : 1000;
	struct exact x = divide(n, from ? from : 1, to ? to : 1);
	if (opts & HUMAN_AUTOSCALE)
		return autoscale(x, base, opts, buf);
	if (x.tenths || x.rest)
		x.q++;
	char tmp[HUMAN_BUFSIZE];
	snprintf(buf, HUMAN_BUFSIZE, "%s", put_integer(x.q, opts & HUMAN_GROUP, tmp + sizeof(tmp)));
	if (opts & HUMAN_SUFFIX) {
		int e = 0;
		for (unsigned __int128 power = 1; power < to && e < MAX_EXPONENT; power *= base)
			e++;
		put_suffix(buf, e, opts);
	}
	return buf;
}
