#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dry-run.sh: -n says what a run would do (-i, -v and --stats as rsync's)
# and changes nothing: a missing destination is not made, and an existing
# one keeps every inode's ctime.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
both "-n into nothing" -ani src/ DST
both "-n -v into nothing" -anv src/ DST
[ -e "$T/O/dst" ] && fail "-n made the destination"
PREPARE='rsync -a ../src/ dst/; echo changed > dst/file; rm -r dst/sub; echo x > dst/extra
find dst -exec touch -h -d 2011-01-01 {} +'
both "-n over a changed tree" -ani --delete src/ DST
both "-n --stats" -an --delete --stats src/ DST
(cd "$T/O/dst" && find . -printf '%C@ %p\n' | sort) > "$T/before"
(cd "$T" && sweep-sync -an --delete src/ O/dst) || fail "status"
(cd "$T/O/dst" && find . -printf '%C@ %p\n' | sort) > "$T/after"
check_same "$T/before" "$T/after"
