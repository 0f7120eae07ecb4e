#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# unwritable.sh: extracting where the user may not create things gives GNU
# tar's messages, with the reason: a device node as a user who may not make
# one ("null: Cannot mknod: Operation not permitted"), and every kind of
# member in a directory the user may not write in ("Cannot open: Permission
# denied", "Cannot mkdir", "Cannot mkfifo", "Cannot create symlink to",
# a parent that cannot be made, "Cannot hard link to"). As root both tools
# run as nobody.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/faults/extract-both.sh"
need_cmd tar
unprivileged
chmod 755 "$T"
make_archive "$T/all.tar"
tar -cf "$T/dev.tar" -C /dev null
chmod 644 "$T/dev.tar"

# a device in a directory the user may write in
fresh_writable() { rm -rf "$T/w" && mkdir -m 777 "$T/w"; }
extract_both "a device node" "$T/w" "$T/dev.tar" fresh_writable
grep -q 'Cannot mknod' "$T/gnu.out" ||
	skip "this user may make device nodes: nothing to compare"

# everything in a directory the user may not write in
fresh_unwritable() { rm -rf "$T/w" && mkdir -m 555 "$T/w"; }
extract_both "an unwritable directory" "$T/w" "$T/all.tar" fresh_unwritable
grep -q 'Permission denied' "$T/gnu.out" ||
	fail "GNU tar could write in a mode 555 directory: the comparison means nothing"
exit 0
