# SPDX-License-Identifier: BSD-2-Clause
# sweep-tar: program, man page and tests.
bin_PROGRAMS += sweep-tar
# everything but main(), for the tool and the fuzz targets (tests/fuzz)
noinst_LTLIBRARIES += src/tar/libtar.la
src_tar_libtar_la_SOURCES = \
	src/tar/tar.h \
	src/tar/state.c \
	src/tar/options.c \
	src/tar/oldargs.c \
	src/tar/mtime.c \
	src/tar/names.c \
	src/tar/ddindex.c \
	src/tar/msg.c \
	src/tar/qstyle.c \
	src/tar/safename.c \
	src/tar/output.c src/tar/output.h \
	src/tar/writer.c src/tar/writer.h \
	src/tar/create.c src/tar/create.h \
	src/tar/header.c \
	src/tar/links.c \
	src/tar/checklinks.c \
	src/tar/held.c \
	src/tar/remove.c \
	src/tar/checkpoint.c \
	src/tar/modechg.c \
	src/tar/xform.c \
	src/tar/tags.c \
	src/tar/scope.c \
	src/tar/limits.c \
	src/tar/xattr.c \
	src/tar/filedata.c \
	src/tar/listing.c \
	src/tar/extract.c src/tar/extract.h \
	src/tar/gunzip.c \
	src/tar/xnames.c \
	src/tar/xdata.c \
	src/tar/xcommand.c \
	src/tar/xcheck.c \
	src/tar/xlinks.c \
	src/tar/xacl.c \
	src/tar/xfail.c src/tar/xfail.h \
	src/tar/overwrite.c \
	src/tar/backup.c \
	src/tar/xunlink.c \
	src/tar/incremental.c src/tar/incremental.h \
	src/tar/snapshot.c \
	src/tar/dumpdir.c \
	src/tar/xincr.c \
	src/tar/xdirtimes.c \
	src/tar/members.c \
	src/tar/update.h \
	src/tar/scan.c \
	src/tar/update.c \
	src/tar/delete.c \
	src/tar/diff.c \
	src/tar/label.c \
	src/tar/paxopt.c src/tar/paxopt.h \
	src/tar/paxhdr.c \
	src/tar/totals.c
src_tar_libtar_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
src_tar_libtar_la_CFLAGS = $(AM_CFLAGS) $(LIBARCHIVE_CFLAGS) $(ZLIB_CFLAGS)
src_tar_libtar_la_LIBADD = lib/libsweep.la src/common/libcommon.la $(LIBARCHIVE_LIBS) $(ZLIB_LIBS)
sweep_tar_SOURCES = src/tar/main.c
sweep_tar_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
sweep_tar_CFLAGS = $(AM_CFLAGS) $(LIBARCHIVE_CFLAGS)
sweep_tar_LDADD = src/tar/libtar.la
dist_man_MANS += man/sweep-tar.1
# tests/tar: one script per behaviour, compared with GNU tar and bsdtar run
# on the same input; tree.sh and manifest.pl are their shared helpers.
TAR_TESTS = \
	tests/tar/roundtrip.sh \
	tests/tar/order.sh \
	tests/tar/gnu-archives.sh \
	tests/tar/hostile.sh \
	tests/tar/errors.sh \
	tests/tar/options.sh \
	tests/tar/extract-links.sh \
	tests/tar/extract-deep.sh \
	tests/tar/extract-perms.sh \
	tests/tar/numbers.sh \
	tests/tar/acls.sh \
	tests/tar/empty-args.sh \
	tests/tar/sparse.sh \
	tests/tar/compress-program.sh \
	tests/tar/newer.sh \
	tests/tar/exclude-tags.sh \
	tests/tar/remove-files.sh \
	tests/tar/old-files.sh \
	tests/tar/backup.sh \
	tests/tar/incremental-extract.sh \
	tests/tar/checkpoint.sh \
	tests/tar/mode.sh \
	tests/tar/transform.sh \
	tests/tar/overwrite.sh \
	tests/tar/incremental.sh \
	tests/tar/totals-signal.sh \
	tests/tar/archive-ops.sh \
	tests/tar/diff.sh \
	tests/tar/extract-opts.sh \
	tests/tar/pax-option.sh \
	tests/tar/archive-headers.sh \
	tests/tar/diff-swapped.sh \
	tests/tar/ignore-case.sh \
	tests/tar/empty-files.sh \
	tests/tar/positional.sh \
	tests/tar/quoting.sh \
	tests/tar/damaged-gzip.sh
TESTS += $(TAR_TESTS)
EXTRA_DIST += $(TAR_TESTS) tests/tar/tree.sh tests/tar/manifest.pl tests/tar/paxrecords.pl
