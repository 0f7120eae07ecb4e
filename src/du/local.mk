# SPDX-License-Identifier: BSD-2-Clause
# sweep-du: program, man page and tests.
bin_PROGRAMS += sweep-du
sweep_du_SOURCES = \
	src/du/du.h \
	src/du/main.c \
	src/du/options.c \
	src/du/units.c \
	src/du/timefmt.c \
	src/du/walk.c \
	src/du/hops.c \
	src/du/tree.c src/du/tree.h \
	src/du/leaves.c src/du/leaves.h \
	src/du/dedup.c \
	src/du/reread.c \
	src/du/report.c
sweep_du_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
sweep_du_LDADD = src/common/libcommon.la lib/libsweep.la
dist_man_MANS += man/sweep-du.1
DU_TESTS = tests/du/compare.sh tests/du/unreadable.sh tests/du/time-range.sh \
	tests/du/link-chain.sh tests/du/moved-dir.sh tests/du/lines-spilled.sh \
	tests/du/depth-names.sh
TESTS += $(DU_TESTS)
EXTRA_DIST += $(DU_TESTS) tests/du/move-shim.c
