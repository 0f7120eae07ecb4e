#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# readonly.sh: extracting onto a read-only file system gives GNU tar's
# messages, with the reason: every kind of member onto an empty one
# ("Cannot mknod: Read-only file system", "Cannot open", "Cannot mkdir", a
# parent that cannot be made...), and onto one where some names exist and
# cannot be removed ("Cannot open: File exists", "Cannot create symlink
# to 'file': File exists"...). Needs root, for a small tmpfs mounted
# read-only.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/faults/extract-both.sh"
need_root
need_cmd tar mount umount
make_archive "$T/all.tar"

trap 'umount "$T/empty" "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
mkdir "$T/empty" "$T/full"
mount -t tmpfs -o size=1m,ro sweep-test "$T/empty" 2> /dev/null ||
	skip "cannot mount a tmpfs here"
mount -t tmpfs -o size=1m sweep-test "$T/full" || fail "cannot mount a second tmpfs"
printf 'old\n' > "$T/full/file"
ln -s elsewhere "$T/full/sl"
mkfifo "$T/full/fifo"
mount -o remount,ro "$T/full" || fail "cannot make the tmpfs read-only"

extract_both "an empty read-only file system" "$T/empty" "$T/all.tar"
grep -q "Read-only file system" "$T/gnu.out" ||
	fail "GNU tar wrote on a read-only file system: the comparison means nothing"
extract_both "existing names on a read-only file system" "$T/full" "$T/all.tar"
exit 0
