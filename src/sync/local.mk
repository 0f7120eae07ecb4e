# SPDX-License-Identifier: BSD-2-Clause
# sweep-sync: program, man page and tests.
bin_PROGRAMS += sweep-sync
sweep_sync_SOURCES = \
	src/sync/sync.h \
	src/sync/main.c \
	src/sync/options.c \
	src/sync/chmod.c \
	src/sync/chown.c \
	src/sync/relative.c \
	src/sync/removesrc.c \
	src/sync/outformat.c \
	src/sync/operands.c \
	src/sync/decide.c \
	src/sync/filter.c \
	src/sync/filterrule.c \
	src/sync/delete.c \
	src/sync/info.c \
	src/sync/report.c \
	src/sync/signals.c \
	src/sync/prewalk.c \
	src/sync/remote.c \
	src/sync/server.c \
	src/sync/send.c \
	src/sync/recv.c \
	src/sync/manifest.h \
	src/sync/manifest.c \
	src/sync/wire.h \
	src/sync/wire.c \
	src/sync/xattrs.h \
	src/sync/xattrs.c \
	src/sync/checksum.c \
	src/sync/readopen.c \
	src/sync/linkdest.c \
	src/sync/backups.c \
	src/sync/listfile.c \
	src/sync/deletepass.c \
	src/sync/prune.c \
	src/sync/latedelete.c \
	src/sync/files_from_wire.c \
	src/sync/files_from.c \
	src/sync/limits.c
sweep_sync_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common -I$(top_srcdir)/src/copy $(ZLIB_CFLAGS)
sweep_sync_LDADD = src/copy/libcopy.la src/common/libcommon.la lib/libsweep.la $(ZLIB_LIBS) -lpthread
dist_man_MANS += man/sweep-sync.1
# tests/sync: one script per behaviour, each beside rsync on the same input.
SYNC_TESTS = \
	tests/sync/archive.sh \
	tests/sync/turned-off.sh \
	tests/sync/refused.sh \
	tests/sync/temp-mode.sh \
	tests/sync/max-delete.sh \
	tests/sync/sizes.sh \
	tests/sync/human.sh \
	tests/sync/mkpath.sh \
	tests/sync/remove-source.sh \
	tests/sync/shrank.sh \
	tests/sync/info.sh \
	tests/sync/out-format.sh \
	tests/sync/missing-args.sh \
	tests/sync/hard-link-skips.sh \
	tests/sync/usermap.sh \
	tests/sync/append.sh \
	tests/sync/preallocate.sh \
	tests/sync/fsync.sh \
	tests/sync/chmod.sh \
	tests/sync/names.sh \
	tests/sync/make-way.sh \
	tests/sync/relative.sh \
	tests/sync/log-file.sh \
	tests/sync/more-options.sh \
	tests/sync/chown.sh \
	tests/sync/safe-links.sh \
	tests/sync/refused-link.sh \
	tests/sync/unchanged.sh \
	tests/sync/prewalk-arm.sh \
	tests/sync/write-thread.sh \
	tests/sync/changed.sh \
	tests/sync/delete.sh \
	tests/sync/exclude.sh \
	tests/sync/filter.sh \
	tests/sync/prune.sh \
	tests/sync/dry-run.sh \
	tests/sync/dest-symlink.sh \
	tests/sync/operands.sh \
	tests/sync/safety.sh \
	tests/sync/one-fs.sh \
	tests/sync/signal.sh \
	tests/sync/remote.sh \
	tests/sync/remote-safety.sh \
	tests/sync/remote-limits.sh \
	tests/sync/ssh.sh \
	tests/sync/kill.sh \
	tests/sync/vanished.sh \
	tests/sync/attr-faults.sh \
	tests/sync/modify-window.sh \
	tests/sync/link-dest.sh \
	tests/sync/compare-dest.sh \
	tests/sync/backup.sh \
	tests/sync/delete-when.sh \
	tests/sync/exclude-from.sh \
	tests/sync/files-from.sh \
	tests/sync/files-from-remote.sh \
	tests/sync/copy-links.sh \
	tests/sync/sparse.sh \
	tests/sync/partial.sh \
	tests/sync/inplace-readonly.sh \
	tests/sync/progress.sh \
	tests/sync/bwlimit.sh \
	tests/sync/timeout.sh
TESTS += $(SYNC_TESTS)
# a far end that lies, for tests/sync/remote-safety.sh
check_PROGRAMS += tests/sync/evil-peer
# (it speaks the wire version of src/sync/wire.h)
tests_sync_evil_peer_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/sync -I$(top_srcdir)/src/common
EXTRA_DIST += $(SYNC_TESTS) tests/sync/tree.sh tests/sync/stall-shim.c tests/sync/refuse-link-shim.c \
	tests/sync/sshd.sh
