/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-lookahead.c: how far the data phase announces ahead as memory
 * pressure takes announced data back (lib/lookahead.c): a loss halves the
 * look-ahead down to its floor, whole files win it back an eighth of what
 * they announced at a time up to the caller's read-ahead, and a run of
 * losses and recoveries settles between the two.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "internal.h"

#define MAX (16u << 20)

static void loss_halves_to_the_floor(void **state)
{
	(void)state;
	size_t b = MAX;
	b = sw_lookahead_next(b, MAX, 4096, true);
	assert_int_equal(b, MAX / 2);
	for (int i = 0; i < 40; i++)
		b = sw_lookahead_next(b, MAX, 4096, true);
	assert_int_equal(b, RA_BUDGET_MIN);
}

static void whole_files_win_it_back(void **state)
{
	(void)state;
	size_t b = RA_BUDGET_MIN;
	b = sw_lookahead_next(b, MAX, 64 << 10, false);
	assert_int_equal(b, RA_BUDGET_MIN + (8u << 10));
	b = sw_lookahead_next(b, MAX, 0, false); /* an empty announcement: a byte */
	assert_int_equal(b, RA_BUDGET_MIN + (8u << 10) + 1);
	size_t n = 0;
	while (b < MAX && n < 100000) {
		b = sw_lookahead_next(b, MAX, 1 << 20, false);
		n++;
	}
	assert_int_equal(b, MAX); /* never past the caller's */
	assert_true(n > 100);     /* and gradually: 128 KiB a file here */
	assert_int_equal(sw_lookahead_next(MAX, MAX, 1 << 20, false), MAX);
}

static void settles_between(void **state)
{
	(void)state;
	size_t b = MAX;
	/* one loss in every 64 files of 64 KiB: it neither collapses nor
	 * returns to the maximum */
	for (int i = 0; i < 64 * 200; i++)
		b = sw_lookahead_next(b, MAX, 64 << 10, i % 64 == 63);
	assert_true(b > RA_BUDGET_MIN);
	assert_true(b < MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loss_halves_to_the_floor),
		cmocka_unit_test(whole_files_win_it_back),
		cmocka_unit_test(settles_between),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
