#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# timeout.sh: --timeout=SECONDS. A run that goes on is the same as rsync's
# with it (the watch never fires: each entry met and each chunk written
# shows life); a value that is no number is rsync's usage error. A run
# stalled in a write (stall-shim.c, which sleeps its minute out here) ends
# after about SECONDS with rsync's words and status 30, its temporary file
# removed (kept as far as it got under --partial). rsync itself, local,
# never times out so: its processes keep each other alive.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd "${CC:-cc}"
sync_tree "$T/src"
both "--timeout" -ai --timeout=30 src/ DST
both "--timeout=0" -ai --timeout=0 src/ DST
NO_TREE=1 both "not a number" -a --timeout=soon src/ DST

build_shim tests/sync/stall-shim.c
mkdir -p "$T/stalled/sub"
head -c 300000 /dev/urandom > "$T/stalled/sub/big"
for opt in "" --partial; do
	rm -rf "$T/dst" "$T/mark"
	start=$(date +%s)
	STALL_NAME=/sub/.big. STALL_FIRM=1 STALL_MARK="$T/mark" LD_PRELOAD="$T/stall-shim.so" \
		sweep-sync -a --timeout=2 $opt "$T/stalled/" "$T/dst/" 2> "$T/err"
	status=$?
	took=$(($(date +%s) - start))
	[ $status = 30 ] || fail "$opt: exit $status, not 30: $(cat "$T/err")"
	[ $took -le 20 ] || fail "$opt: took $took s to time out"
	grep -q '^\[receiver\] io timeout after 2 seconds -- exiting$' "$T/err" ||
		fail "$opt: said $(cat "$T/err")"
	grep -q '^sweep-sync error: timeout in data send/receive (code 30)$' "$T/err" ||
		fail "$opt: said $(cat "$T/err")"
	left=$(find "$T/dst" -name '.*.*' -type f)
	[ -z "$left" ] || fail "$opt: left $left"
	if [ -n "$opt" ]; then
		[ -f "$T/dst/sub/big" ] || fail "--partial: no partial file"
	else
		[ ! -e "$T/dst/sub/big" ] || fail "a part of big is there"
	fi
done
# a limit so low that one chunk takes longer than --timeout is no timeout:
# the throttle's sleep says it is alive (a second at a time)
mkdir -p "$T/slow/src"
head -c 60000 /dev/urandom > "$T/slow/src/f"
sweep-sync -a --bwlimit=20 --timeout=2 "$T/slow/src/" "$T/slow/dst/" 2> "$T/err" ||
	fail "--bwlimit=20 --timeout=2: exit $?: $(cat "$T/err")"
cmp -s "$T/slow/src/f" "$T/slow/dst/f" || fail "--bwlimit=20 --timeout=2: not copied"
exit 0
