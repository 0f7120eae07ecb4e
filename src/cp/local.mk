# SPDX-License-Identifier: BSD-2-Clause
# sweep-cp: program, man page and tests.
bin_PROGRAMS += sweep-cp
sweep_cp_SOURCES = \
	src/cp/cp.h \
	src/cp/main.c \
	src/cp/options.c \
	src/cp/operands.c \
	src/cp/parents.c \
	src/cp/ask.c
sweep_cp_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common -I$(top_srcdir)/src/copy
sweep_cp_LDADD = src/copy/libcopy.la src/common/libcommon.la lib/libsweep.la
dist_man_MANS += man/sweep-cp.1
# tests/cp: one script per behaviour, each beside GNU cp on the same input.
CP_TESTS = \
	tests/cp/archive.sh \
	tests/cp/options.sh \
	tests/cp/existing.sh \
	tests/cp/dest-aliases.sh \
	tests/cp/progress.sh \
	tests/cp/errors.sh \
	tests/cp/dest-symlink.sh \
	tests/cp/special.sh \
	tests/cp/deep.sh \
	tests/cp/write-batch.sh \
	tests/cp/write-thread.sh \
	tests/cp/calls.sh
TESTS += $(CP_TESTS)
EXTRA_DIST += $(CP_TESTS) tests/cp/tree.sh
