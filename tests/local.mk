# SPDX-License-Identifier: BSD-2-Clause
# tests: cmocka unit tests of libsweep and tool-level tests. Shell tests
# source tests/lib.sh; exit 77 means skipped (with the reason on stderr).
AM_TESTS_ENVIRONMENT = \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir;
EXTRA_DIST += tests/lib.sh tests/uninstalled.sh tests/tree.sh tests/shim-fd.h tests/shim-open.h

noinst_PROGRAMS += tests/walk-dump
tests_walk_dump_LDADD = lib/libsweep.la

if HAVE_CMOCKA
check_PROGRAMS += tests/test-queue
TESTS += tests/test-queue
tests_test_queue_SOURCES = tests/test-queue.c lib/queue.c
tests_test_queue_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_queue_LDADD = $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-latency
TESTS += tests/test-latency
tests_test_latency_SOURCES = tests/test-latency.c lib/latency.c
tests_test_latency_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_latency_LDADD = $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-announce
TESTS += tests/test-announce
tests_test_announce_SOURCES = tests/test-announce.c lib/announce.c lib/pool.c lib/task.c \
	lib/stash.c lib/queue.c lib/owner.c
tests_test_announce_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_announce_LDADD = $(CMOCKA_LIBS) -lpthread
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-lookahead
TESTS += tests/test-lookahead
tests_test_lookahead_SOURCES = tests/test-lookahead.c lib/lookahead.c
tests_test_lookahead_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_lookahead_LDADD = $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-pool
TESTS += tests/test-pool
tests_test_pool_SOURCES = tests/test-pool.c lib/pool.c lib/task.c lib/stash.c lib/queue.c \
	lib/owner.c
tests_test_pool_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_pool_LDADD = $(CMOCKA_LIBS) -lpthread
endif

# libsweep's walk on real trees, one program per concern (walk-check.c
# holds what they share)
if HAVE_CMOCKA
WALK_TESTS = tests/test-walk-entries tests/test-walk-errors tests/test-walk-order \
	tests/test-walk-data tests/test-walk-helpers
check_PROGRAMS += $(WALK_TESTS)
TESTS += $(WALK_TESTS)
WALK_CHECK = tests/walk-check.c tests/walk-check.h tests/tree.c tests/tree.h
WALK_LIBS = lib/libsweep.la $(CMOCKA_LIBS)
tests_test_walk_entries_SOURCES = tests/test-walk-entries.c $(WALK_CHECK)
tests_test_walk_entries_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_walk_entries_LDADD = $(WALK_LIBS)
tests_test_walk_errors_SOURCES = tests/test-walk-errors.c $(WALK_CHECK)
tests_test_walk_errors_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_walk_errors_LDADD = $(WALK_LIBS)
tests_test_walk_order_SOURCES = tests/test-walk-order.c $(WALK_CHECK)
tests_test_walk_order_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_walk_order_LDADD = $(WALK_LIBS)
tests_test_walk_data_SOURCES = tests/test-walk-data.c $(WALK_CHECK)
tests_test_walk_data_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_walk_data_LDADD = $(WALK_LIBS)
tests_test_walk_helpers_SOURCES = tests/test-walk-helpers.c $(WALK_CHECK)
tests_test_walk_helpers_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_walk_helpers_LDADD = $(WALK_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-nomem
TESTS += tests/test-nomem
tests_test_nomem_SOURCES = tests/test-nomem.c tests/tree.c tests/tree.h
tests_test_nomem_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_nomem_LDADD = lib/libsweep.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/test-bound
TESTS += tests/test-bound
tests_test_bound_SOURCES = tests/test-bound.c tests/tree.c tests/tree.h
tests_test_bound_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_bound_LDADD = lib/libsweep.la $(CMOCKA_LIBS)
endif

# the example of libsweep(3), compiled against the built library
TESTS += tests/man-example.sh
EXTRA_DIST += tests/man-example.sh
AM_TESTS_ENVIRONMENT += CC='$(CC)'; CFLAGS='$(CFLAGS)'; LDFLAGS='$(LDFLAGS)'; \
	export CC CFLAGS LDFLAGS;

# libsweep's files call each other in layers, without a cycle
TESTS += tests/lib-layers.sh
EXTRA_DIST += tests/lib-layers.sh

# libsweep's interface, built against its header alone: every function
TESTS += tests/abi.sh
EXTRA_DIST += tests/abi.sh tests/abi.c
noinst_PROGRAMS += tests/devinfo
tests_devinfo_LDADD = lib/libsweep.la
TESTS += tests/device.sh
EXTRA_DIST += tests/device.sh
TESTS += tests/fs-extents.sh
EXTRA_DIST += tests/fs-extents.sh

# every entry once, against GNU find, in every order and symlink mode
TESTS += tests/walk-vs-find.sh
EXTRA_DIST += tests/walk-vs-find.sh

# a directory removed while walked reads as empty, as GNU's tools read it
TESTS += tests/deleted-dir.sh
EXTRA_DIST += tests/deleted-dir.sh

# README.md's usage commands run, its and bench/README.md's links resolve
TESTS += tests/readme.sh
EXTRA_DIST += tests/readme.sh

# every source file says its license (LICENSE)
TESTS += tests/spdx.sh
EXTRA_DIST += tests/spdx.sh

# every option --help names exists
TESTS += tests/help-options.sh
EXTRA_DIST += tests/help-options.sh
