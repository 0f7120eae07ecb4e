#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# partial.sh: --partial (and -P) beside rsync: a run interrupted while a
# file is being written (the stall of signal.sh) exits 20 and keeps what
# it wrote of that file under its final name, with the time 0 so that the
# next run sends it again, as rsync keeps it; no temporary file is left;
# the next run makes the copy whole, as rsync's does.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd setsid "${CC:-cc}"
${CC:-cc} -shared -fPIC -o "$T/stall.so" "$top_srcdir/tests/sync/stall-shim.c" -ldl ||
	skip "cannot build the LD_PRELOAD shim"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

mkdir -p "$T/src/sub"
printf 'small\n' > "$T/src/a-small"
head -c 300000 /dev/urandom > "$T/src/sub/big"
find "$T/src" -exec touch -d 2011-01-01 {} +

# interrupt NAME PROG ARGS...: as signal.sh's, with SIGINT; the status
# goes to NAME.status
interrupt() {
	name=$1
	shift
	rm -f "$T/mark" "$T/leader"
	STALL_NAME=/sub/.big. STALL_MARK="$T/mark" LD_PRELOAD="$T/stall.so" \
		setsid -w sh -c 'echo $$ > "$0"; exec "$@"' "$T/leader" "$@" 2> "$T/$name.err" &
	pid=$!
	n=0
	while { [ ! -e "$T/mark" ] || [ ! -s "$T/leader" ]; } && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	group=$(cat "$T/leader")
	[ -e "$T/mark" ] || { /bin/kill -s KILL -- -"$group"; fail "$name: never wrote big"; }
	/bin/kill -s INT -- -"$group"
	wait $pid
	echo $? > "$T/$name.status"
	# rsync's receiver may outlive the process it was forked by, and
	# still be writing its partial file
	n=0
	while /bin/kill -s 0 -- -"$group" 2>/dev/null && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
leftovers() { find "$1" -name '.*.*' -type f | sed "s|$1/||"; }

for opt in --partial -P; do
	rm -rf "$T/R" "$T/O"
	mkdir "$T/R" "$T/O"
	interrupt rsync rsync -a $opt "$T/src/" "$T/R/dst/"
	interrupt our "$top_builddir/sweep-sync" -a $opt "$T/src/" "$T/O/dst/"
	for side in R O; do
		prog=rsync
		[ $side = O ] && prog=our
		[ "$(cat "$T/$prog.status")" = 20 ] || fail "$opt: $prog exited $(cat "$T/$prog.status")"
		[ -z "$(leftovers "$T/$side")" ] || fail "$opt: $prog left $(leftovers "$T/$side")"
		[ -f "$T/$side/dst/sub/big" ] || fail "$opt: $prog kept no partial file"
		# (rsync's, under load, is now and then not all written yet)
		size=$(stat -c %s "$T/$side/dst/sub/big")
		[ $side = R ] || cmp -s -n "$size" "$T/src/sub/big" "$T/$side/dst/sub/big" ||
			fail "$opt: $prog's partial file is not the start of the source"
		[ "$(stat -c %Y "$T/$side/dst/sub/big")" = 0 ] ||
			fail "$opt: $prog's partial file has the time $(stat -c %Y "$T/$side/dst/sub/big")"
	done
	# the next run (without the stall) finishes it (the -i lines differ:
	# the runs were not stopped at the same point)
	(cd "$T" && rsync -a $opt src/ R/dst/ > /dev/null) || fail "$opt: rsync again"
	(cd "$T" && sweep-sync -a $opt src/ O/dst/ > /dev/null) || fail "$opt: sweep-sync again"
	smanifest "$T/R" > "$T/R.tree"
	smanifest "$T/O" > "$T/O.tree"
	check_same "$T/R.tree" "$T/O.tree"
	check_same "$T/src/sub/big" "$T/O/dst/sub/big"
done
exit 0
