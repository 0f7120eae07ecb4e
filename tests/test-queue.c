/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-queue.c: the metadata queue on its own.
 *
 * The C-SCAN property: with pushes arriving while it serves, every pop is the
 * smallest pending inode >= the last one served, or, when none is left, the
 * smallest of all (a wrap); nothing pushed is ever lost, equal keys included.
 * Checked against a brute-force model over a random workload. Names pushed
 * past the elevator (sw_queue_push_direct) go first, last first, and the
 * elevator's order resumes after them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "internal.h"

#define NODES 20000

/* The model: a bag of keys; the expected next key by exhaustive search. */
static ino_t model_next(const ino_t *bag, size_t n, ino_t head, size_t *at)
{
	size_t best = SIZE_MAX, low = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (bag[i] >= head && (best == SIZE_MAX || bag[i] < bag[best]))
			best = i;
		if (low == SIZE_MAX || bag[i] < bag[low])
			low = i;
	}
	*at = best != SIZE_MAX ? best : low;
	return bag[*at];
}

static void cscan_matches_model(void **state)
{
	(void)state;
	struct sw_queue q = { .cscan = true };
	struct sw_node *nodes = calloc(NODES, sizeof(*nodes));
	ino_t *bag = calloc(NODES, sizeof(*bag));
	assert_non_null(nodes);
	assert_non_null(bag);
	srandom(42);
	size_t pushed = 0, inbag = 0, popped = 0, wraps = 0;
	ino_t head = 0;
	while (popped < NODES) {
		/* a burst of arrivals, like a directory read, with many duplicates */
		int burst = pushed < NODES ? (int)(random() % 8) : 0;
		for (int i = 0; i < burst && pushed < NODES; i++) {
			nodes[pushed].ino = (ino_t)(random() % 5000);
			assert_int_equal(sw_queue_push(&q, &nodes[pushed]), 0);
			bag[inbag++] = nodes[pushed++].ino;
		}
		if (inbag == 0)
			continue;
		size_t at;
		ino_t want = model_next(bag, inbag, head, &at);
		if (want < head)
			wraps++;
		bag[at] = bag[--inbag];
		struct sw_node *n = sw_queue_pop(&q);
		assert_non_null(n);
		assert_int_equal(n->ino, want);
		head = n->ino;
		popped++;
	}
	assert_null(sw_queue_pop(&q));
	assert_int_equal(sw_queue_len(&q), 0);
	assert_int_equal(q.el.sweeps, wraps);
	assert_true(wraps > 0);
	sw_queue_free(&q);
	free(nodes);
	free(bag);
}

static void equal_keys_all_served(void **state)
{
	(void)state;
	struct sw_queue q = { .cscan = true };
	struct sw_node n[100];
	for (int i = 0; i < 100; i++) {
		n[i].ino = 7;
		assert_int_equal(sw_queue_push(&q, &n[i]), 0);
	}
	int seen[100] = {0};
	for (int i = 0; i < 100; i++) {
		struct sw_node *p = sw_queue_pop(&q);
		assert_non_null(p);
		seen[p - n]++;
	}
	for (int i = 0; i < 100; i++)
		assert_int_equal(seen[i], 1);
	assert_null(sw_queue_pop(&q));
	sw_queue_free(&q);
}

static void stack_pops_last_first(void **state)
{
	(void)state;
	struct sw_queue q = { .cscan = false };
	struct sw_node n[3] = { { .ino = 5 }, { .ino = 1 }, { .ino = 9 } };
	for (int i = 0; i < 3; i++)
		assert_int_equal(sw_queue_push(&q, &n[i]), 0);
	assert_ptr_equal(sw_queue_pop(&q), &n[2]);
	assert_ptr_equal(sw_queue_pop(&q), &n[1]);
	assert_ptr_equal(sw_queue_pop(&q), &n[0]);
	assert_null(sw_queue_pop(&q));
	sw_queue_free(&q);
}

/* In a C-SCAN queue, names pushed past the elevator pop first, last
 * first; then the elevator serves its own from the head on. */
static void direct_names_go_first(void **state)
{
	(void)state;
	struct sw_queue q = { .cscan = true };
	struct sw_node n[5] = { { .ino = 50 }, { .ino = 10 }, { .ino = 7 }, { .ino = 3 },
	                        { .ino = 30 } };
	assert_int_equal(sw_queue_push(&q, &n[0]), 0);
	assert_int_equal(sw_queue_push(&q, &n[1]), 0);
	assert_int_equal(sw_queue_push_direct(&q, &n[2]), 0);
	assert_int_equal(sw_queue_push_direct(&q, &n[3]), 0);
	assert_int_equal(sw_queue_push(&q, &n[4]), 0);
	assert_int_equal(sw_queue_len(&q), 5);
	assert_ptr_equal(sw_queue_pop(&q), &n[3]);
	assert_ptr_equal(sw_queue_pop(&q), &n[2]);
	assert_ptr_equal(sw_queue_pop(&q), &n[1]);
	assert_ptr_equal(sw_queue_pop(&q), &n[4]);
	assert_ptr_equal(sw_queue_pop(&q), &n[0]);
	assert_null(sw_queue_pop(&q));
	assert_int_equal(sw_queue_len(&q), 0);
	sw_queue_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cscan_matches_model),
		cmocka_unit_test(equal_keys_all_served),
		cmocka_unit_test(stack_pops_last_first),
		cmocka_unit_test(direct_names_go_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
