#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# unchanged.sh: a second sweep-sync -a over a destination it made itself
# transfers nothing (--stats and -i as rsync's: 0 files transferred, no
# item) and changes nothing: no destination inode's ctime moves, with -a,
# -aH and -aAX alike; the first copy rsync's (PREPARE), then sweep-sync's
# own (a copy it made itself and then runs over again).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
ctimes() { (cd "$1" && find . -printf '%C@ %p\n' | sort); }
for opts in -a -aH -aAX; do
	PREPARE="rsync $opts ../src/ dst/" both "$opts --stats, again" $opts --stats src/ DST
	grep -q 'transferred: 0$' "$T/O.out" || fail "$opts: something was transferred"
	KEEP=1 both "$opts -i, again" $opts -i src/ DST
	ctimes "$T/O/dst" > "$T/before"
	sleep 0.02 # a change would show in the ctime's nanoseconds
	(cd "$T" && sweep-sync $opts src/ O/dst) || fail "$opts: status"
	ctimes "$T/O/dst" > "$T/after"
	check_same "$T/before" "$T/after"
done
for opts in -a -aH -aAX; do
	rm -rf "$T/own"
	(cd "$T" && sweep-sync $opts src/ own/) || fail "$opts, its own copy: the first run"
	ctimes "$T/own" > "$T/before"
	sleep 0.02
	(cd "$T" && sweep-sync $opts --stats -i src/ own/) > "$T/again" || fail "$opts, its own copy: status"
	grep -q 'transferred: 0$' "$T/again" || fail "$opts, its own copy: something was transferred"
	! grep -q '^[.>ch*]' "$T/again" || fail "$opts, its own copy: items: $(grep '^[.>ch*]' "$T/again")"
	ctimes "$T/own" > "$T/after"
	check_same "$T/before" "$T/after" || fail "$opts, its own copy: a ctime moved"
done
