#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# kill.sh: sweep-sync killed with SIGKILL (nothing can be cleaned up) at
# several points of a run, on one machine and over a remote shell (both
# ends killed): as the first, the fourth, the twelfth and the last file
# start, and over the remote shell half way through the fourth and twelfth;
# into an empty DEST, and into one holding an older copy of every file
# (other bytes, another size). Every file under its final name is then
# whole: the same bytes as its source, or as its older copy, or absent; what is left besides is
# at most one temporary .NAME.XXXXXX file (which stays, as rsync's do; the
# local run's files have no name until written, and leave none); and
# the next run finishes the copy. The points come from the LD_PRELOAD shim
# of signal.sh (stall-shim.c: the run stops in a write to a named file,
# or to a file not named yet copied from the named source).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd setsid "${CC:-cc}"
build_shim tests/sync/stall-shim.c
local_rsh
# a killed receiver leaves its scratch directory (sweep-sync.XXXXXX): here
export TMPDIR="$T"
mkdir -p "$T/src/d1" "$T/src/d2"
i=0
while [ $i -lt 16 ]; do
	head -c $((300000 + i * 50000)) /dev/urandom > "$T/src/d$((i % 2 + 1))/f$i"
	i=$((i + 1))
done
# the older copies a replacing run finds in DEST
mkdir -p "$T/old/d1" "$T/old/d2"
(cd "$T/src" && find . -type f) | while read -r f; do
	head -c 7000 /dev/urandom > "$T/old/$f"
	touch -d '2001-01-01' "$T/old/$f"
done
# the order the files are written in (the source's disk order)
(cd "$T/src" && sweep-sync -ai . "$T/order") | sed -n 's/^>f+* //p' > "$T/written"
[ "$(wc -l < "$T/written")" = 16 ] || fail "the first run did not copy 16 files"

# kill_at VIA FILE SKIP [replace]: a run (VIA here or remote), killed in its
# write number SKIP to the temporary file of FILE; with replace, DEST holds
# the older copies first
kill_at() {
	via=$1 file=$2 skip=$3 replace=${4:-}
	rm -rf "$T/dst" "$T/mark" "$T/leader"
	[ -z "$replace" ] || cp -a "$T/old" "$T/dst"
	dst=$T/dst rsh=
	[ "$via" = remote ] && dst=localhost:$T/dst rsh="-e $RSH"
	# its own process group, so that the far end dies with it
	# shellcheck disable=SC2086
	STALL_NAME="/.${file##*/}." STALL_SOURCE="/src/$file" STALL_SKIP=$skip STALL_MARK="$T/mark" LD_PRELOAD="$T/stall-shim.so" \
		setsid sh -c 'echo $$ > "$0"; exec "$@"' "$T/leader" sweep-sync -a $rsh "$T/src/" "$dst" \
		2> /dev/null &
	n=0
	while { [ ! -e "$T/mark" ] || [ ! -s "$T/leader" ]; } && [ $n -lt 900 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	/bin/kill -s KILL -- -"$(cat "$T/leader")" 2>/dev/null
	wait
	[ -e "$T/mark" ] || fail "$via, $file: the run never wrote it"
	point="$via, killed in $file (write $skip${replace:+, replacing})"
	# (a pipeline's loop is a subshell: what it finds is printed, and
	# judged out here)
	torn=$( (cd "$T/dst" && find . -type f ! -name '.*.??????') | while read -r f; do
		cmp -s "$T/src/$f" "$T/dst/$f" || { [ -n "$replace" ] && cmp -s "$T/old/$f" "$T/dst/$f"; } ||
			echo "$f"
	done)
	[ -z "$torn" ] || fail "$point: under its final name, not whole: $torn"
	temps=$(find "$T/dst" -name '.*.??????' | wc -l)
	[ "$temps" -le 1 ] || fail "$point: temporary files"
	[ "$via" = remote ] || [ -n "$replace" ] || [ "$temps" = 0 ] ||
		fail "$point: a temporary file of a new file"
	# shellcheck disable=SC2086
	sweep-sync -a $rsh "$T/src/" "$dst" || fail "$point: the next run"
	unfinished=$( (cd "$T/src" && find . -type f) | while read -r f; do
		cmp -s "$T/src/$f" "$T/dst/$f" || echo "$f"
	done)
	[ -z "$unfinished" ] || fail "$point: the next run left unfinished: $unfinished"
}

first=$(sed -n 1p "$T/written") fourth=$(sed -n 4p "$T/written")
twelfth=$(sed -n 12p "$T/written") last=$(sed -n 16p "$T/written")
# (here, copy_file_range() writes a file in one call: no half way)
for f in "$first" "$fourth" "$twelfth" "$last"; do
	kill_at here "$f" 0
done
kill_at remote "$first" 0
kill_at remote "$fourth" 2
kill_at remote "$twelfth" 3
kill_at remote "$last" 0
kill_at here "$fourth" 0 replace
kill_at here "$last" 0 replace
kill_at remote "$fourth" 2 replace
kill_at remote "$twelfth" 3 replace
