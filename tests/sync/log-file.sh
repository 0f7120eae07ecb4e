#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# log-file.sh: --log-file=FILE beside rsync: lines of time and process,
# "building file list" ("receiving file list" for a pull), every change in
# -i's form whatever -v, -i or -q say (a dry run's transfers and deletions
# not, as they are not made), errors with their words, and at the end
# rsync's "sent ... total size" line, or -v's summary (after --stats'
# figures); appended to, run after run. The protocol's byte counts and
# figures are left out of the comparison, and the lines sorted (sweep-sync
# goes in disk order). A log that cannot be opened is said and the run goes
# on; a push is refused (its changes are the far end's to know).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
# norm LOG: without time, process, protocol bytes; sorted
norm() {
	sed 's/^[0-9]\{4\}\/[0-9][0-9]\/[0-9][0-9] [0-9:]\{8\} \[[0-9]*\] //; s/^sweep-sync/rsync/
	     s/ at [a-z.]*([0-9]*) \[.*//; s/^sent [0-9]* bytes  received [0-9]* bytes  total size [0-9]*$/sent N total size/
	     s/^sent [0-9.,KMG]* bytes  received [0-9.,KMG]* bytes  [0-9,]*\.[0-9][0-9][KMG]\{0,1\} bytes\/sec$/sent N/
	     s/^total size is \([0-9.,KMG]*\) .*/total size is \1/; /^File list [gt]/d
	     s/^\(File list size\|Total bytes sent\|Total bytes received\): [0-9.,KMG]*$/\1: N/
	     s|'"$T"'/[RO]/|X/|g; s|'"$T"'/|T/|g' "$1" | sort
}
extra='rsync -a ../src/ dst/ && rm dst/file && echo x > dst/extra && touch -d 2001-01-01 dst/link2 dst/extra dst'
for opts in -a -av -ai -aq "-a --stats" "-av --stats -h" -an -avn "-a --delete" "-ai --delete -n"; do
	PREPARE=$extra both "$opts --log-file" $opts --log-file="$T/log.sidé" src/ DST
	for prog in rsync sweep-sync; do
		rm -f "$T/$prog.log"
		side=R
		[ $prog = sweep-sync ] && side=O
		PREPARE= # (each run again into a fresh copy, logging)
		rm -rf "$T/$side/dst" && (cd "$T/$side" && eval "$extra")
		(cd "$T" && $prog $opts --log-file="$T/$prog.log" src/ "$side/dst") > /dev/null 2>&1
		norm "$T/$prog.log" > "$T/$prog.norm"
	done
	check_same "$T/rsync.norm" "$T/sweep-sync.norm" || fail "$opts: the logs differ"
	[ -s "$T/sweep-sync.norm" ] || fail "$opts: nothing logged"
done

# an error, and a second run appended
for prog in rsync sweep-sync; do
	rm -rf "$T/d.$prog" "$T/$prog.log"
	(cd "$T" && $prog -a --log-file="$T/$prog.log" src/ nope "d.$prog/") > /dev/null 2>&1
	(cd "$T" && $prog -a --log-file="$T/$prog.log" src/ "d.$prog/") > /dev/null 2>&1
	norm "$T/$prog.log" > "$T/$prog.norm"
done
check_same "$T/rsync.norm" "$T/sweep-sync.norm" || fail "two runs: the logs differ"
[ "$(grep -c 'building file list' "$T/sweep-sync.log")" = 2 ] || fail "the log was not appended to"

# a pull logs its own changes
for prog in rsync sweep-sync; do
	rm -rf "$T/d.$prog" "$T/$prog.log"
	(cd "$T" && $prog -a -e "$RSH" --log-file="$T/$prog.log" localhost:src/ "d.$prog/") > /dev/null 2>&1
	norm "$T/$prog.log" > "$T/$prog.norm"
done
check_same "$T/rsync.norm" "$T/sweep-sync.norm" || fail "pull: the logs differ"

# a log that cannot be opened: said, and the run goes on
for prog in rsync sweep-sync; do
	rm -rf "$T/d.$prog"
	(cd "$T" && $prog -a --log-file="$T/no/such/log" src/ "d.$prog/") > "$T/$prog.out" 2> "$T/$prog.err"
	echo "status $?" >> "$T/$prog.err"
	cat "$T/$prog.out" >> "$T/$prog.err"
	sed -i 's/^sweep-sync:/rsync:/' "$T/$prog.err"
	[ -f "$T/d.$prog/file" ] || fail "$prog: nothing copied without its log"
done
check_same "$T/rsync.err" "$T/sweep-sync.err" || fail "an unopenable log: said otherwise"

# a push: refused, a usage error, nothing made
(cd "$T" && sweep-sync -a -e "$RSH" --log-file="$T/p.log" src/ localhost:pushed/) 2> "$T/err"
[ $? = 1 ] && grep -q 'not supported' "$T/err" || fail "push with --log-file: not refused"
[ ! -e "$T/pushed" ] || fail "push with --log-file: made"
exit 0
