# SPDX-License-Identifier: BSD-2-Clause
# libsweep: the walk library and its one public header.
lib_LTLIBRARIES += lib/libsweep.la
include_HEADERS = lib/sweep.h
lib_libsweep_la_SOURCES = \
	lib/internal.h \
	lib/walk.c \
	lib/serve.c \
	lib/entry.c \
	lib/node.c \
	lib/queue.c \
	lib/dirs.c \
	lib/readdir.c \
	lib/dirahead.c \
	lib/dirreaders.c \
	lib/latency.c \
	lib/warm.h \
	lib/warm.c \
	lib/task.c \
	lib/announce.c \
	lib/owner.h \
	lib/owner.c \
	lib/pool.c \
	lib/stash.c \
	lib/hold.c \
	lib/data.c \
	lib/runs.c \
	lib/place.c \
	lib/device.c \
	lib/links.c \
	lib/path.c \
	lib/limits.c \
	lib/memavail.c \
	lib/lookahead.c
lib_libsweep_la_LIBADD = -lpthread
lib_libsweep_la_LDFLAGS = -version-info $(LIBSWEEP_LT_VERSION) -no-undefined \
	-export-symbols-regex '^sweep_'
