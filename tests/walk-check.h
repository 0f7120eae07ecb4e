/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk-check.h: what the test-walk-*.c programs share: walks that check
 * every entry they hand out, the tree with the awkward cases, and the
 * running of a group of tests. Built on tree.h; failures fail the test
 * through cmocka.
 */
#ifndef SWEEP_TESTS_WALK_CHECK_H
#define SWEEP_TESTS_WALK_CHECK_H

#include "sweep.h"
#include "tree.h"

/* Every walk order, the automatic one included. */
#define WALK_NORDERS 6
extern const enum sweep_order walk_all_orders[WALK_NORDERS];

/* Fails unless e's stat is the file system's own answer for its path. */
void walk_assert_stat(const struct sweep_entry *e, enum sweep_follow follow);
/* Walks root with o into out (each path once), checking each entry's stat;
 * its stats into stats unless NULL. */
void walk_collect(const char *root, const struct sweep_options *o, struct strlist *out,
                  struct sweep_stats *stats);
/* Fails unless every order, directory order and warming hands out the
 * paths of ref exactly. */
void walk_every_order_matches(const char *root, enum sweep_follow follow,
                              unsigned flags, struct strlist *ref);
/* Fills root with odd names, links, a fifo, a sparse file and empty ones. */
void walk_odd_tree(const char *root);

/* A test whose state is a fresh scratch directory (tree_setup). */
#define WALK_TEST(f) cmocka_unit_test_setup_teardown(f, tree_setup, tree_teardown)
/* Runs the array tests; TEST_FILTER=name* runs only some, by hand. */
#define walk_run_tests(tests) (walk_test_filter(), cmocka_run_group_tests(tests, NULL, NULL))
void walk_test_filter(void);

#endif
