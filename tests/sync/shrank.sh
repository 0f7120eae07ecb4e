#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# shrank.sh: a source file cut short while it is copied (truncated while
# the copy stalls in its first write: stall-shim.c), beside rsync, here
# and over a remote shell, pushed and pulled: rsync sends the size it
# listed, what it could not read as zeros, says "read errors mapping" and
# exits 23, and its second try copies the file as it is now; so does
# sweep-sync here (it exited 0 with a copy of neither size); over a remote
# shell it says so, exits 23 and leaves no copy. A sparse source cut in
# a hole too (it was taken for the hole it had, exit 0). And under
# --append and --append-verify, onto a copy that has the file's first
# bytes (it exited 0 with a copy longer than the file, its time set);
# over a remote shell the copy is left as it was (it was left with the
# bytes that came before the cut, longer than the file), also when the
# sender is cut before it sends a byte (stalled in its first read of the
# file), fewer than the copy has (it was cut to those, or grown back with
# zeros).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
build_shim tests/sync/stall-shim.c
for via in here push pull sparse append append-verify append-push append-pull; do
	for prog in rsync sweep-sync; do
		c=$T/$via.$prog
		mkdir -p "$c/src" && head -c 1000000 /dev/urandom > "$c/src/big"
		# (sparse: data, a hole, data; cut in the hole, where the copy of
		# the regions found no more data and took the rest for a hole)
		[ $via = sparse ] && truncate -s 4M "$c/src/big" &&
			head -c 1000000 /dev/urandom | dd of="$c/src/big" bs=1M seek=3 conv=notrunc status=none
		touch -d 2021-01-01 "$c/src/big"
		src=src/ dst=dst/ rsh= how= stall=/.big. read=
		case $via in append-p*) read=1 ;; esac
		case $via in append*)
			mkdir "$c/dst" && head -c 100000 "$c/src/big" > "$c/dst/big"
			how=--${via%-p*} stall=/dst/big ;;
		esac
		case $via in *push) dst=localhost:$c/dst/ rsh="-e $RSH" ;; esac
		case $via in *pull) src=localhost:$c/src/ rsh="-e $RSH" ;; esac
		head -c 100000 "$c/src/big" > "$T/had"
		rm -f "$T/mark"
		# shellcheck disable=SC2086
		(cd "$c" && STALL_READ=$read STALL_NAME=$stall STALL_SOURCE=/src/big STALL_SECONDS=2 STALL_MARK="$T/mark" \
			LD_PRELOAD="$T/stall-shim.so" $prog -a $how $rsh $src $dst > "$c.out" 2> "$c.err"
			echo "status $?" >> "$c.out") &
		n=0
		while [ ! -e "$T/mark" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		[ -e "$T/mark" ] || fail "$via: $prog never wrote (or read) big"
		size=1000
		[ $via = sparse ] && size=2000000
		truncate -s $size "$c/src/big"
		wait
		grep -q 'read errors mapping' "$c.err" ||
			fail "$via: $prog: the cut not said: $(cat "$c.err")"
		# (over a remote shell sweep-sync gives the copy up: its bytes
		# cannot be asked for again)
		if [ "$rsh" = "" ] || [ $prog = rsync ]; then
			cmp "$c/src/big" "$c/dst/big" || fail "$via: $prog: the copy is not the file now"
		elif [ "$how" ]; then
			cmp "$T/had" "$c/dst/big" || fail "$via: $prog: the copy is not as it was"
		elif [ -e "$c/dst/big" ]; then
			fail "$via: $prog: a copy of the cut file was left"
		fi
	done
	check_same "$T/$via.rsync.out" "$T/$via.sweep-sync.out" || fail "$via: status"
done
