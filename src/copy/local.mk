# SPDX-License-Identifier: BSD-2-Clause
# src/copy: the copy engine (libsweep walk of a source tree made again at a
# destination), a convenience library for sweep-cp and sweep-sync.
noinst_LTLIBRARIES += src/copy/libcopy.la
src_copy_libcopy_la_SOURCES = \
	src/copy/copy.h src/copy/copyint.h \
	src/copy/engine.c \
	src/copy/destdir.c \
	src/copy/dirs.c \
	src/copy/special.c \
	src/copy/regular.c \
	src/copy/data.c \
	src/copy/attrs.c \
	src/copy/xattr.c \
	src/copy/hardlink.c \
	src/copy/replace.c \
	src/copy/backup.c \
	src/copy/check.c \
	src/copy/tempfile.c \
	src/copy/writeback.c \
	src/copy/behind.c \
	src/copy/disks.c \
	src/copy/writer.c \
	src/copy/thread.c \
	src/copy/throttle.c
src_copy_libcopy_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
