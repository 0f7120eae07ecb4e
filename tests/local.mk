# tests: cmocka unit tests of libsweep and tool-level tests. Shell tests
# source tests/lib.sh; exit 77 means skipped (with the reason on stderr).
AM_TESTS_ENVIRONMENT = \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir;
EXTRA_DIST += tests/lib.sh

noinst_PROGRAMS += tests/walk-dump
tests_walk_dump_LDADD = lib/libsweep.la
