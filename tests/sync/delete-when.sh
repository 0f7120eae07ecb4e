#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# delete-when.sh: --delete-before, --delete-during (--del), --delete-after
# and --delete-excluded beside rsync: the same names deleted (a directory
# with what it holds, excluded names kept but with --delete-excluded, which
# also deletes what the source has but excludes), in directories below
# too, the same -i and -v lines (in rsync's order for -before: deletions
# first), and rsync's usage error for two of them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a/b" "$T/src/keep" "$T/src/logs"
echo x > "$T/src/a/b/x"
echo k > "$T/src/keep/k"
echo l > "$T/src/logs/l"
echo o > "$T/src/a/o.tmp"
find "$T/src" -exec touch -d 2011-01-01 {} +
PREPARE='rsync -a ../src/ dst/; mkdir -p dst/gone/deeper dst/a/b/old; echo 1 > dst/gone/deeper/f
echo 2 > dst/a/extra; ln -s /etc dst/a/b/link; echo 3 > dst/a/b/old/o; echo 4 > dst/kept.tmp
echo 5 > dst/a/b/x.tmp; echo 6 > dst/logs/old; find dst -exec touch -h -d 2011-01-01 {} +'
for when in --delete-before --delete-during --del --delete-after; do
	both "$when -i" -a $when -i src/ DST
	both "$when -v" -a $when -v src/ DST
	both "$when --exclude" -a $when -i --exclude='*.tmp' --exclude=logs/ src/ DST
	both "$when, a directory below" -a $when -i src/a DST
	both "$when -n" -a $when -n -i src/ DST
	both "$when --stats" -a $when --stats src/ DST
	both "$when --delete-excluded" -a $when --delete-excluded -i --exclude='*.tmp' \
		--exclude=logs/ src/ DST
done
both "--delete-excluded alone" -a --delete-excluded -i --exclude='*.tmp' src/ DST
both "--delete-excluded, the include first" -a --delete-excluded -i --include=o.tmp \
	--exclude='*.tmp' src/ DST
# rsync says --delete-before first in its messages: its words, kept
NO_TREE=1 both "two of them" -a --delete-before --delete-after src/ DST
NO_TREE=1 both "without -r" -lpt --delete-after src/ DST
# in rsync's order: every deletion before the first transfer
PREPARE="$PREPARE; echo changed > dst/keep/k"
for side in R O; do
	prog=rsync
	[ $side = O ] && prog=sweep-sync
	rm -rf "$T/$side" && mkdir "$T/$side" && (cd "$T/$side" && eval "$PREPARE")
	(cd "$T" && $prog -a --delete-before -i src/ $side/dst/) > "$T/$side.order" ||
		fail "$prog --delete-before"
	awk '/^\*deleting/ { if (sent) bad = 1 } /^>f/ { sent = 1 } END { exit bad }' \
		"$T/$side.order" || fail "$prog --delete-before: a deletion after a transfer"
done
exit 0
