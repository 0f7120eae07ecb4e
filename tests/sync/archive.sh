#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# archive.sh: sweep-sync -a of a tree with every file type (odd names,
# hard links, symbolic links, devices and a fifo as root, odd modes and
# times) beside rsync -a: the same bytes, modes, owners, times to the
# nanosecond; -aH with the hard-link groups; -aAX with the ACLs and
# extended attributes; then -r alone, which skips links and specials.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
both "-a" -a src/ DST
both "-ai" -ai src/ DST
both "-av" -av src/ DST
both "-aH" -aH src/ DST
both "-aAX" -aAX src/ DST
both "-aHAX --stats" -aHAX --stats src/ DST
NO_TREE=1 both "-ri" -ri src/ DST
# a second -aAX onto a copy whose attributes moved: one changed, one the
# source lacks, an ACL the source lacks: rsync gives the copy the source's
# own set back (the extra ones removed), and says so with -i
if getfattr -n user.test "$T/src/file" >/dev/null 2>&1 && command -v setfacl >/dev/null; then
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file &&
		setfattr -n user.test -v changed dst/file && setfattr -n user.more -v m dst/sub &&
		setfacl -m u:nobody:r dst/file' \
		both "-aiAX onto moved attributes" -aiAX src/ DST
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file' \
		both "-aiX, an extra attribute" -aiX src/ DST
	# without -X the copy's own attributes are not looked at
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file' \
		both "-ai, an extra attribute left" -ai src/ DST
else
	echo "attributes moved on a copy: not checked (no user xattrs here, or no setfacl)"
fi
