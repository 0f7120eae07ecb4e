/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-nomem.c: memory running out is reported as what it is.
 *
 * This program's malloc() and calloc() stand in for the C library's (the
 * library's calls resolve to them), and fail on demand: a directory whose
 * names cannot be queued is a SWEEP_OP_NOMEM error, not a failure to read
 * it; a multiply-linked file the table of links cannot take is handed out,
 * then named again by a SWEEP_OP_NOMEM error, and so is its second name,
 * which comes without link_first (before, that was dropped without a
 * word).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include "sweep.h"
#include "tree.h"

#ifdef UNDER_ASAN
int main(void)
{
	fprintf(stderr, "SKIP: AddressSanitizer's malloc cannot be stood in for\n");
	return 77;
}
#else
/* glibc's own, under the names it keeps for those who replace malloc */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);

static unsigned fail_mallocs; /* how many to fail from now */
static bool fail_tables;      /* fail callocs of a table's size (cmocka's
                                 own are small) */

void *malloc(size_t size)
{
	if (fail_mallocs) {
		fail_mallocs--;
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (fail_tables && size && n >= (16u << 10) / size) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

static struct sweep *open_walk(const char *root, unsigned flags)
{
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_NAME, .warm = SWEEP_WARM_OFF,
	                           .flags = flags };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	return sw;
}

/* The directory's first name finds no memory: the directory is lost, and
 * says so. */
static void directory_out_of_memory(void **state)
{
	const char *top = *state;
	int fd = tree_open_dir(AT_FDCWD, top);
	tree_file(fd, "a", 0, 0);
	tree_file(fd, "b", 0, 0);
	close(fd);
	struct sweep *sw = open_walk(top, SWEEP_NODATA);
	const struct sweep_entry *e = sweep_next(sw);
	assert_non_null(e);
	assert_int_equal(e->kind, SWEEP_DIR);
	fail_mallocs = 1;
	e = sweep_next(sw);
	fail_mallocs = 0;
	assert_non_null(e);
	assert_int_equal(e->kind, SWEEP_ERROR);
	assert_int_equal(e->error, ENOMEM);
	assert_int_equal(e->op, SWEEP_OP_NOMEM);
	assert_string_equal(e->path, top);
	assert_null(sweep_next(sw));
	sweep_close(sw);
}

/* top/a/x and top/b/y, one file; the table of links cannot grow. */
static void link_table_out_of_memory(void **state)
{
	const char *top = *state;
	int fd = tree_open_dir(AT_FDCWD, top);
	tree_mkdir(fd, "a");
	tree_mkdir(fd, "b");
	int a = tree_open_dir(fd, "a");
	tree_file(a, "x", 100, 0);
	int b = tree_open_dir(fd, "b");
	assert_int_equal(linkat(a, "x", b, "y", 0), 0);
	close(a);
	close(b);
	close(fd);
	const unsigned modes[] = { SWEEP_NODATA, 0 };
	for (size_t m = 0; m < 2; m++) {
		struct sweep *sw = open_walk(top, modes[m]);
		fail_tables = true; /* the walk's only big calloc here is the table's */
		const struct sweep_entry *e;
		size_t n = 0, errors = 0;
		char last[4096] = "";
		while ((e = sweep_next(sw))) {
			n++;
			if (e->kind == SWEEP_ERROR) {
				/* the name just handed out, which could not be kept */
				assert_int_equal(e->op, SWEEP_OP_NOMEM);
				assert_int_equal(e->error, ENOMEM);
				assert_string_equal(e->path, last);
				assert_int_equal(e->st.st_nlink, 2);
				errors++;
			} else {
				assert_null(e->link_first);
			}
			snprintf(last, sizeof(last), "%s", e->path);
		}
		fail_tables = false;
		sweep_close(sw);
		assert_int_equal(errors, 2); /* x and y: neither could be kept */
		assert_int_equal(n, 7);      /* top, a, x, b, y and the errors */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(directory_out_of_memory, tree_setup_fast,
		                                tree_teardown),
		cmocka_unit_test_setup_teardown(link_table_out_of_memory, tree_setup_fast,
		                                tree_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
