# SPDX-License-Identifier: BSD-2-Clause
# sweep-find: program, man page and tests.
bin_PROGRAMS += sweep-find
# everything but main(), for the tool and the fuzz targets (tests/fuzz)
noinst_LTLIBRARIES += src/find/libfind.la
src_find_libfind_la_SOURCES = \
	src/find/find.h src/find/prim.h src/find/exec.h src/find/output.h \
	src/find/printf.h \
	src/find/state.c \
	src/find/parse.c \
	src/find/primaries.c \
	src/find/args.c \
	src/find/mode.c \
	src/find/names.c \
	src/find/fstype.c src/find/fstype.h \
	src/find/match.c \
	src/find/files0.c \
	src/find/context.c \
	src/find/tests.c \
	src/find/times.c \
	src/find/newer.c \
	src/find/actions.c \
	src/find/printf.c \
	src/find/ls.c \
	src/find/exec.c \
	src/find/batch.c \
	src/find/output.c \
	src/find/walk.c
src_find_libfind_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
src_find_libfind_la_LIBADD = src/common/libcommon.la lib/libsweep.la
sweep_find_SOURCES = src/find/main.c
sweep_find_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
sweep_find_LDADD = src/find/libfind.la
dist_man_MANS += man/sweep-find.1
FIND_TESTS = tests/find/compare.sh tests/find/errors.sh tests/find/unreadable.sh \
	tests/find/delete-links.sh \
	tests/find/limits.sh tests/find/regextype.sh tests/find/readdir-race.sh \
	tests/find/notdir-link.sh tests/find/shared-output.sh tests/find/dates.sh
TESTS += $(FIND_TESTS)
EXTRA_DIST += $(FIND_TESTS) tests/find/vanish-shim.c
