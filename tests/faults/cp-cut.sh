#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cp-cut.sh: sweep-cp opens a destination that exists without O_TRUNC and
# cuts it once no queued copy reads or writes that file (regular.c's
# cut()). A cut that fails (ftruncate, failed by eio-shim.c) is taken as
# GNU cp takes an O_TRUNC open that fails: "cannot create regular file",
# status 1, the old bytes left whole, the other files copied; with -f the
# name is removed and made again, and the copy goes through.
. "$top_srcdir/tests/lib.sh"
need_cmd "${CC:-cc}"
build_shim tests/faults/eio-shim.c
mkdir -p "$T/src" "$T/dst"
printf 'new x\n' > "$T/src/x"
printf 'new y\n' > "$T/src/y"
for force in "" -f; do
	printf 'old x, longer\n' > "$T/dst/x"
	rm -f "$T/dst/y"
	(cd "$T" && EIO_FTRUNCATE=/dst/x LD_PRELOAD="$T/eio-shim.so" \
		sweep-cp -r $force src/. dst) 2> "$T/err" && r=0 || r=$?
	check_same "$T/src/y" "$T/dst/y" || fail "'$force': the other file not copied"
	if [ -z "$force" ]; then
		[ $r = 1 ] || fail "a cut that fails: status $r, not 1"
		grep -qx "sweep-cp: cannot create regular file 'dst/./x': Input/output error" "$T/err" ||
			fail "a cut that fails: $(cat "$T/err")"
		[ "$(cat "$T/dst/x")" = "old x, longer" ] || fail "a cut that fails: the old bytes not kept"
	else
		[ $r = 0 ] || fail "-f over a file that cannot be cut: status $r ($(cat "$T/err"))"
		check_same "$T/src/x" "$T/dst/x" || fail "-f over a file that cannot be cut: not copied"
	fi
done
exit 0
