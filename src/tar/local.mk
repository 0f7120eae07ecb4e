# sweep-tar: program, man page and tests.
bin_PROGRAMS += sweep-tar
sweep_tar_SOURCES = \
	src/tar/tar.h \
	src/tar/main.c \
	src/tar/options.c \
	src/tar/oldargs.c \
	src/tar/mtime.c \
	src/tar/names.c \
	src/tar/msg.c \
	src/tar/safename.c \
	src/tar/output.c src/tar/output.h \
	src/tar/writer.c src/tar/writer.h \
	src/tar/create.c src/tar/create.h \
	src/tar/header.c \
	src/tar/links.c \
	src/tar/limits.c \
	src/tar/xattr.c \
	src/tar/filedata.c \
	src/tar/listing.c \
	src/tar/extract.c src/tar/extract.h \
	src/tar/xnames.c \
	src/tar/xdata.c \
	src/tar/members.c \
	src/tar/progress.c
sweep_tar_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common
sweep_tar_CFLAGS = $(AM_CFLAGS) $(LIBARCHIVE_CFLAGS)
sweep_tar_LDADD = lib/libsweep.la src/common/libcommon.la $(LIBARCHIVE_LIBS)
dist_man_MANS += man/sweep-tar.1
# tests/tar: shared helpers first, then one script per behaviour
EXTRA_DIST += tests/tar/tree.sh tests/tar/manifest.pl
TESTS += tests/tar/roundtrip.sh
EXTRA_DIST += tests/tar/roundtrip.sh
TESTS += tests/tar/errors.sh tests/tar/hostile.sh tests/tar/gnu-archives.sh
EXTRA_DIST += tests/tar/errors.sh tests/tar/hostile.sh tests/tar/gnu-archives.sh
TESTS += tests/tar/order.sh
EXTRA_DIST += tests/tar/order.sh
TESTS += tests/tar/options.sh
EXTRA_DIST += tests/tar/options.sh
