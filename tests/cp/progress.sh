#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# progress.sh: --progress draws on standard error only when it is a
# terminal: elsewhere the copy says exactly what GNU cp (which has no
# such option) says without it; on a terminal (script(1)) a line of
# files, bytes and rate appears, and the copy is the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
need_cmd script
cp_tree "$T/src"
cp -a "$T/src" "$T/gnu"
(cd "$T" && sweep-cp -av --progress src dst) > "$T/out" 2> "$T/err" || fail "sweep-cp failed"
[ -s "$T/err" ] && fail "--progress wrote to a non-terminal: $(cat "$T/err")"
(cd "$T" && cp -av src dst2) > "$T/gnu.out"
sed 's/dst2/dst/' "$T/gnu.out" | sort > "$T/gnu.sorted"
sort "$T/out" > "$T/our.sorted"
check_same "$T/gnu.sorted" "$T/our.sorted"
rm -rf "$T/dst"
(cd "$T" && script -qec "sweep-cp -a --progress src dst" /dev/null) > "$T/tty" 2>&1 ||
	fail "sweep-cp --progress failed on a terminal"
grep -q 'files, .*/s' "$T/tty" || fail "no progress line on a terminal: $(cat "$T/tty")"
manifest "$T/gnu" > "$T/gnu.tree"
manifest "$T/dst" > "$T/our.tree"
check_same "$T/gnu.tree" "$T/our.tree"
