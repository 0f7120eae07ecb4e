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
