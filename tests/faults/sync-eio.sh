#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-eio.sh: sweep-sync beside rsync on a device that fails with EIO (an
# LD_PRELOAD shim, eio-shim.c, in both programs: this machine's kernel has
# no device-mapper "error" target). A source file whose reads fail past its
# first 100,000 bytes: named with the reason, status 23, the other files
# copied, no copy of it made and an older copy left as it was, here and
# pushed and pulled over a remote shell (the shim at both ends; only the
# sender reads the file). A copy whose writes fail (--inplace, onto an
# older copy): named with the reason, status 11 (rsync's receiver ends at
# a failed write).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd "${CC:-cc}"
build_shim tests/faults/eio-shim.c
local_rsh
mkdir -p "$T/src/sub"
head -c 300000 /dev/urandom > "$T/src/sub/bad"
echo good > "$T/src/good"
head -c 5000 /dev/urandom > "$T/old"
touch -d 2001-01-01 "$T/old"

# eio NAME PROG ARGS...: PROG ARGS in $T under the shim (EIO_* from the
# caller's environment), DEST $T/NAME.dst (with an older copy of sub/bad
# under OLD=1); its status and messages in $T/NAME.status, $T/NAME.err
eio() {
	name=$1
	shift
	rm -rf "$T/$name.dst"
	if [ -n "${OLD:-}" ]; then
		mkdir -p "$T/$name.dst/sub" && cp -p "$T/old" "$T/$name.dst/sub/bad"
	fi
	(cd "$T" && LD_PRELOAD="$T/eio-shim.so" "$@") 2> "$T/$name.err"
	echo $? > "$T/$name.status"
}

# same_status NAME: rsync's status and ours the same, and WANT
same_status() {
	r=$(cat "$T/rsync-$1.status") o=$(cat "$T/sweep-$1.status")
	[ "$r" = "$want" ] && [ "$o" = "$want" ] ||
		{ cat "$T/sweep-$1.err" >&2; fail "$1: status $o, rsync's $r, not $want"; }
}

export EIO_READ=/src/sub/bad EIO_AFTER=100000
want=23
for via in here pushed pulled; do
	for old in "" 1; do
		case $via in
		here) src=src/ dst=DST/ ;;
		pushed) src=src/ dst=localhost:DST/ ;;
		pulled) src=localhost:src/ dst=DST/ ;;
		esac
		case="read-$via${old:+-old}"
		for prog in rsync sweep; do
			p=$prog
			[ $prog = sweep ] && p=sweep-sync
			d=$(echo "$dst" | sed "s|DST|$prog-$case.dst|")
			OLD=$old eio "$prog-$case" $p -a -e "$RSH" "$src" "$d"
		done
		same_status "$case"
		grep -q "error reading .*src/sub/bad.*Input/output error" "$T/sweep-$case.err" ||
			fail "$case: the file and the reason not said: $(cat "$T/sweep-$case.err")"
		cmp -s "$T/src/good" "$T/sweep-$case.dst/good" || fail "$case: good not copied"
		if [ -n "$old" ]; then
			cmp -s "$T/old" "$T/sweep-$case.dst/sub/bad" || fail "$case: the older copy was touched"
		else
			[ ! -e "$T/sweep-$case.dst/sub/bad" ] || fail "$case: a copy of the unreadable file made"
		fi
		[ -z "$(find "$T/sweep-$case.dst" -name '.*')" ] || fail "$case: a temporary file left"
	done
done
unset EIO_READ

export EIO_WRITE=/sub/bad
want=11
OLD=1 eio rsync-write rsync -a --inplace src/ rsync-write.dst/
OLD=1 eio sweep-write sweep-sync -a --inplace src/ sweep-write.dst/
same_status write
grep -qx "sweep-sync: error writing 'sweep-write.dst/sub/bad': Input/output error" "$T/sweep-write.err" ||
	fail "write: the file and the reason not said: $(cat "$T/sweep-write.err")"
exit 0
