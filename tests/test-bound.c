/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-bound.c: memory stays bounded whatever the size of the tree.
 *
 * A 200,000-file tree walked with a small bound must flush many times, never
 * hold more files in the data queue than the bound, never hold much more
 * memory in its queues than the bound (one directory's names may pass it), and
 * need no more resident memory than a tree ten times smaller.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "sweep.h"
#include "tree.h"

#define MAX_ENTRIES 1000
#define MAX_BYTES   (1u << 20)
#define SLACK       (64u << 10) /* one directory of 100 names, and change */

/* top/NN/MM/fileKK: dirs1 x dirs2 directories of 100 empty files, so no
 * directory holds more than 100 names (files with data would be in the page
 * cache on tmpfs, handed out as served and never queued). Every directory
 * is made before any file: their inodes are all lower, so the elevator reaches
 * every directory before the first file, the worst case for the queue. */
static void make_tree(const char *top, int dirs1, int dirs2)
{
	int fd = tree_open_dir(AT_FDCWD, top);
	char name[32];
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < dirs1; i++) {
			snprintf(name, sizeof(name), "%02d", i);
			if (pass == 0)
				tree_mkdir(fd, name);
			int d1 = tree_open_dir(fd, name);
			for (int j = 0; j < dirs2; j++) {
				snprintf(name, sizeof(name), "%02d", j);
				if (pass == 0) {
					tree_mkdir(d1, name);
					continue;
				}
				int d2 = tree_open_dir(d1, name);
				for (int k = 0; k < 100; k++) {
					snprintf(name, sizeof(name), "file%02d", k);
					tree_file(d2, name, 0, 0);
				}
				close(d2);
			}
			close(d1);
		}
	}
	close(fd);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long maxrss_kib(void)
{
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

static void walk(const char *root, size_t max_entries, size_t max_bytes,
                 enum sweep_warm warm, unsigned flags, struct sweep_stats *s)
{
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .max_entries = max_entries, .max_bytes = max_bytes,
	                           .order = SWEEP_ORDER_DISK, .warm = warm, .flags = flags };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		assert_int_not_equal(e->kind, SWEEP_ERROR);
		sweep_get_stats(sw, s, sizeof(*s));
		assert_true(s->peak_data_entries <= max_entries);
	}
	sweep_get_stats(sw, s, sizeof(*s));
	sweep_close(sw);
}

static void memory_bound_holds(void **state)
{
	const char *top = *state;
	char small[4096], large[4096];
	snprintf(small, sizeof(small), "%s/small", top);
	snprintf(large, sizeof(large), "%s/large", top);
	tree_mkdir(AT_FDCWD, small);
	tree_mkdir(AT_FDCWD, large);
	double t0 = now();
	make_tree(small, 10, 20);  /* 20,000 files */
	make_tree(large, 50, 40);  /* 200,000 files */
	print_message("trees made in %.1f s\n", now() - t0);
	t0 = now();

	struct sweep_stats s;
	walk(small, MAX_ENTRIES, MAX_BYTES, SWEEP_WARM_AUTO, 0, &s);
	long rss_small = maxrss_kib();
	assert_int_equal(s.entries, 1 + 10 + 200 + 20000);
	walk(large, MAX_ENTRIES, MAX_BYTES, SWEEP_WARM_AUTO, 0, &s);
	long rss_large = maxrss_kib();
	assert_int_equal(s.entries, 1 + 50 + 2000 + 200000);
	print_message("walked in %.1f s\n", now() - t0);
	print_message("200,000 files: %ju flushes, peak %zu files and %zu bytes queued; "
	              "max RSS %ld KiB after 20,000 files, %ld KiB after 200,000\n",
	              (uintmax_t)s.flushes, s.peak_data_entries, s.peak_bytes, rss_small,
	              rss_large);
	assert_true(s.flushes >= 200000 / MAX_ENTRIES);
	assert_true(s.peak_data_entries <= MAX_ENTRIES);
	assert_true(s.peak_bytes <= MAX_BYTES + SLACK);
#ifdef UNDER_ASAN
	print_message("AddressSanitizer keeps freed memory: RSS not compared\n");
#else
	assert_true(rss_large - rss_small < 4096);
#endif

	/* with a byte bound far below what 1000 files take, the bytes decide:
	 * more flushes, and directory reads put off while names pile up */
	walk(large, MAX_ENTRIES, 16u << 10, SWEEP_WARM_AUTO, 0, &s);
	print_message("16 KiB bound: %ju flushes, peak %zu bytes, %ju directory reads put off\n",
	              (uintmax_t)s.flushes, s.peak_bytes, (uintmax_t)s.dirs_deferred);
	assert_int_equal(s.entries, 1 + 50 + 2000 + 200000);
	assert_true(s.peak_bytes <= (16u << 10) + SLACK);
	assert_true(s.peak_data_entries < MAX_ENTRIES);
	assert_true(s.dirs_deferred > 0);

	/* the same with the helper threads on: the walk holds each directory's
	 * names in the threads' task and serves them from there (hold.c), and
	 * a directory among them is put off as well. (Their queue, a sixteenth
	 * of this bound, takes no task of 100 names: the names come back
	 * unstat-ed, and the walk stats them.) */
	walk(large, MAX_ENTRIES, 16u << 10, SWEEP_WARM_ON, 0, &s);
	print_message("16 KiB bound, helpers: %ju flushes, peak %zu bytes, %ju directory "
	              "reads put off\n", (uintmax_t)s.flushes, s.peak_bytes,
	              (uintmax_t)s.dirs_deferred);
	assert_true(s.warm_threads > 0);
	assert_int_equal(s.entries, 1 + 50 + 2000 + 200000);
	assert_true(s.peak_bytes <= (16u << 10) + SLACK);
	assert_true(s.dirs_deferred > 0);
}

/* The names waiting for the elevator may fill half the bound on a disk arm
 * (the more, the fewer passes), but while the helper threads run (a device
 * judged not to seek) only a sixteenth (internal.h): there the queue buys no
 * order, only memory. With every directory before every file, the worst
 * case, and a bound of 4 MiB: a quarter of a MiB, and one directory more. */
static void helpers_keep_the_metadata_queue_short(void **state)
{
	const char *top = *state;
	char root[4096];
	snprintf(root, sizeof(root), "%s/t", top);
	tree_mkdir(AT_FDCWD, root);
	make_tree(root, 10, 20); /* 200 directories of 100 files */
	struct sweep_stats s;
	walk(root, MAX_ENTRIES, 4u << 20, SWEEP_WARM_OFF, SWEEP_NODATA, &s);
	print_message("no helpers: peak %zu bytes\n", s.peak_bytes);
	assert_int_equal(s.entries, 1 + 10 + 200 + 20000);
	assert_true(s.peak_bytes > (256u << 10) + SLACK); /* the tree can fill more */
	walk(root, MAX_ENTRIES, 4u << 20, SWEEP_WARM_ON, SWEEP_NODATA, &s);
	print_message("helpers: peak %zu bytes, %ju directory reads put off\n", s.peak_bytes,
	              (uintmax_t)s.dirs_deferred);
	assert_true(s.warm_threads > 0);
	assert_int_equal(s.entries, 1 + 10 + 200 + 20000);
	assert_true(s.peak_bytes <= (256u << 10) + SLACK);
}

/* Every object charged against the bound is uncharged as much when it
 * goes: walks in every order, with and without the helpers, post-order
 * entries and data, under bounds tiny enough to defer and flush often,
 * end holding nothing. */
static void charges_come_back_to_zero(void **state)
{
	const char *top = *state;
	char root[4096];
	snprintf(root, sizeof(root), "%s/t", top);
	tree_mkdir(AT_FDCWD, root);
	make_tree(root, 4, 5); /* 2,000 empty files */
	int fd = tree_open_dir(AT_FDCWD, root);
	char name[32];
	for (int i = 0; i < 50; i++) { /* and some with data */
		snprintf(name, sizeof(name), "data%02d", i);
		tree_file(fd, name, (off_t)i * 1000, 1);
	}
	close(fd);
	const enum sweep_order orders[] = { SWEEP_ORDER_DISK, SWEEP_ORDER_INODE,
	                                    SWEEP_ORDER_NAME, SWEEP_ORDER_NONE,
	                                    SWEEP_ORDER_BLOCK };
	const unsigned flags[] = { 0, SWEEP_POSTORDER, SWEEP_NODATA | SWEEP_NOSTAT };
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++)
		for (int warm = SWEEP_WARM_OFF; warm <= SWEEP_WARM_ON; warm++)
			for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
				const char *roots[] = { root, NULL };
				struct sweep_options opt = {
					.order = orders[o], .warm = (enum sweep_warm)warm,
					.flags = flags[f], .max_entries = 50,
					.max_bytes = 4u << 10,
				};
				struct sweep *sw = sweep_open(roots, &opt);
				assert_non_null(sw);
				struct sweep_stats s;
				size_t held = 0;
				const struct sweep_entry *e;
				while ((e = sweep_next(sw))) {
					assert_int_not_equal(e->kind, SWEEP_ERROR);
					sweep_get_stats(sw, &s, sizeof(s));
					held = s.bytes_held > held ? s.bytes_held : held;
				}
				sweep_get_stats(sw, &s, sizeof(s));
				sweep_close(sw);
				assert_true(held > 0);
				assert_int_equal(s.entries, 1 + 4 + 20 + 2000 + 50 +
				                 (flags[f] & SWEEP_POSTORDER ? 1 + 4 + 20 : 0));
				assert_int_equal(s.bytes_held, 0);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(memory_bound_holds, tree_setup_fast, tree_teardown),
		cmocka_unit_test_setup_teardown(helpers_keep_the_metadata_queue_short,
		                                tree_setup_fast, tree_teardown),
		cmocka_unit_test_setup_teardown(charges_come_back_to_zero, tree_setup_fast,
		                                tree_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
