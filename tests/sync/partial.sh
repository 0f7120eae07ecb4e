#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# partial.sh: --partial (and -P) beside rsync: a run interrupted while a
# file is being written (the stall of signal.sh) exits 20 and keeps what
# it wrote of that file under its final name, with the time 0 so that the
# next run sends it again, as rsync keeps it; no temporary file is left;
# the next run makes the copy whole, as rsync's does. The part has the
# mode and owner the whole file would have, as rsync's has. A part kept in
# --partial-dir on a disk it filled does not keep the next run from
# making the file whole.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd setsid "${CC:-cc}"
build_shim tests/sync/stall-shim.c

mkdir -p "$T/src/sub"
printf 'small\n' > "$T/src/a-small"
head -c 300000 /dev/urandom > "$T/src/sub/big"
chmod 640 "$T/src/sub/big"
[ "$(id -u)" = 0 ] && chown 1:2 "$T/src/sub/big"
find "$T/src" -exec touch -d 2011-01-01 {} +

# kept_part OPT SIDE PATH: the run of SIDE (R: rsync, O: ours), interrupted,
# exited 20, left no temporary file, and kept the start of the source as
# dst/PATH
kept_part() {
	prog=rsync
	[ "$2" = O ] && prog=our
	[ "$(cat "$T/$prog.status")" = 20 ] || fail "$1: $prog exited $(cat "$T/$prog.status")"
	[ -z "$(leftovers "$T/$2")" ] || fail "$1: $prog left $(leftovers "$T/$2")"
	[ -f "$T/$2/dst/$3" ] || fail "$1: $prog kept no part as $3"
	# (rsync's, under load, is now and then not all written yet)
	size=$(stat -c %s "$T/$2/dst/$3")
	[ "$2" = R ] || cmp -s -n "$size" "$T/src/sub/big" "$T/$2/dst/$3" ||
		fail "$1: $prog's part is not the start of the source"
}

# same_part_attrs WHAT PATH: rsync's part and ours have one mode and owner
same_part_attrs() {
	[ "$(stat -c '%a %u %g' "$T/R/dst/$2")" = "$(stat -c '%a %u %g' "$T/O/dst/$2")" ] ||
		fail "$1: rsync's part is $(stat -c '%a %u %g' "$T/R/dst/$2"), ours $(stat -c '%a %u %g' "$T/O/dst/$2")"
}

for opt in --partial -P; do
	rm -rf "$T/R" "$T/O"
	mkdir "$T/R" "$T/O"
	interrupt rsync INT rsync -a $opt "$T/src/" "$T/R/dst/"
	interrupt our INT "$sweep_tools/sweep-sync" -a $opt "$T/src/" "$T/O/dst/"
	for side in R O; do
		kept_part "$opt" $side sub/big
		[ "$(stat -c %Y "$T/$side/dst/sub/big")" = 0 ] ||
			fail "$opt: $side's partial file has the time $(stat -c %Y "$T/$side/dst/sub/big")"
	done
	same_part_attrs "$opt" sub/big
	# the next run (without the stall) finishes it (the -i lines differ:
	# the runs were not stopped at the same point)
	(cd "$T" && rsync -a $opt src/ R/dst/ > /dev/null) || fail "$opt: rsync again"
	(cd "$T" && sweep-sync -a $opt src/ O/dst/ > /dev/null) || fail "$opt: sweep-sync again"
	smanifest "$T/R" > "$T/R.tree"
	smanifest "$T/O" > "$T/O.tree"
	check_same "$T/R.tree" "$T/O.tree"
	check_same "$T/src/sub/big" "$T/O/dst/sub/big"
done
# --partial-dir=DIR: the part goes to DIR/NAME in NAME's directory (no
# file under the final name), and the run that makes NAME whole removes
# it, DIR with it; DIR is neither sent nor deleted ("-p DIR/" after the
# user's rules); a DIR that is a path is refused
pd=.rsync-partial
rm -rf "$T/R" "$T/O"
mkdir "$T/R" "$T/O"
interrupt rsync INT rsync -a --partial-dir=$pd "$T/src/" "$T/R/dst/"
interrupt our INT "$sweep_tools/sweep-sync" -a --partial-dir=$pd "$T/src/" "$T/O/dst/"
for side in R O; do
	kept_part --partial-dir $side "sub/$pd/big"
	[ -e "$T/$side/dst/sub/big" ] && fail "--partial-dir: $side left a part under the final name"
done
same_part_attrs --partial-dir "sub/$pd/big"
(cd "$T" && rsync -a --partial-dir=$pd src/ R/dst/ > /dev/null) || fail "--partial-dir: rsync again"
(cd "$T" && sweep-sync -a --partial-dir=$pd src/ O/dst/ > /dev/null) || fail "--partial-dir: sweep-sync again"
smanifest "$T/R" > "$T/R.tree"
smanifest "$T/O" > "$T/O.tree"
check_same "$T/R.tree" "$T/O.tree"
check_same "$T/src/sub/big" "$T/O/dst/sub/big"
# a part that filled the disk: the next run, with room for the whole file
# but not for it beside the part, makes it whole, as rsync's does (ours
# wrote a new file beside the part, failed, and kept failing: 11 for ever)
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=2m tmpfs "$T/full" 2>/dev/null
then
	mkdir -p "$T/fsrc"
	head -c 1500000 /dev/urandom > "$T/fsrc/big" && touch -d 2011-01-01 "$T/fsrc/big"
	for prog in rsync sweep-sync; do
		rm -rf "$T/full/d" && mkdir "$T/full/d"
		head -c 1000000 /dev/zero > "$T/full/filler"
		$prog -a --partial-dir=$pd "$T/fsrc/" "$T/full/d/" 2> /dev/null
		first=$?
		[ -s "$T/full/d/$pd/big" ] || { umount "$T/full"; fail "--partial-dir, full: $prog kept no part (status $first)"; }
		rm "$T/full/filler"
		$prog -a --partial-dir=$pd "$T/fsrc/" "$T/full/d/" 2> "$T/err"
		again=$?
		echo "$prog: full $first, then $again" >&2
		if [ $again != 0 ] || ! cmp -s "$T/fsrc/big" "$T/full/d/big" || [ -e "$T/full/d/$pd" ]; then
			cat "$T/err" >&2
			umount "$T/full"
			fail "--partial-dir, full, then room for the file: $prog exited $again"
		fi
	done
	umount "$T/full"
else
	echo "SKIP part: a full disk needs root to mount a small tmpfs" >&2
fi
mkdir -p "$T/src/$pd" && echo p > "$T/src/$pd/p" && touch -d 2011-01-01 "$T/src/$pd/p" "$T/src/$pd" "$T/src"
PREPARE='mkdir -p dst/d/.rsync-partial && echo part > dst/d/.rsync-partial/x && touch -d 2011-01-01 dst/d/.rsync-partial/x dst/d/.rsync-partial dst/d dst'
both "--partial-dir, --delete: the parts' directories stay, unsent" -ai --delete --partial-dir=$pd src/ DST
both "--partial-dir, --delete-excluded" -ai --delete-excluded --partial-dir=$pd src/ DST
local_rsh
both "--partial-dir, --delete, pushed" -ai --delete --partial-dir=$pd -e "$RSH" src/ localhost:DST
# (not beside rsync, which takes a path, and an absolute one)
for dir in /tmp/x a/b . ..; do
	(cd "$T" && sweep-sync -a --partial-dir=$dir src/ O/dst2/) 2> "$T/pd.err"
	st=$?
	[ $st = 1 ] && grep -q "is not supported" "$T/pd.err" ||
		fail "--partial-dir=$dir: status $st, $(cat "$T/pd.err")"
	[ -e "$T/O/dst2" ] && fail "--partial-dir=$dir: refused, but DEST made"
done
exit 0
