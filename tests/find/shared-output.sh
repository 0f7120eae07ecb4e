#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/shared-output.sh: -fprint, -fprint0, -fprintf and -fls naming
# one file several times, by one name, by a hard link to it or by a
# symbolic link to it. GNU find opens each name when it parses it and
# writes through one stream per file, so no action truncates or overwrites
# what another wrote. The file must hold the same lines as GNU find's
# (sorted: the walks differ in order), with the same messages and status.
. "$top_srcdir/tests/lib.sh"
need_cmd find
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"
cd "$T" || fail "no scratch directory"
mkdir -p t/d/e && printf 'x\n' > t/f && printf 'yy\n' > t/d/g && : > t/d/e/h

# out PROG ARGS...: PROG t ARGS in a fresh out/, then the lines of the
# file out/o (runs of spaces squeezed: -fls widens columns as it goes)
out() {
	rm -rf out && mkdir out && : > out/o && ln out/o out/hard && ln -s o out/soft || return 99
	"$@" > /dev/null || return
	tr -s ' ' < out/o
}

compare_names 's/^find:/sweep-find:/'
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	eval "set -- $line"
	compare_run "out find" "out sweep-find" t "$@"
done <<'TABLE'
-fprint out/o -fprint out/o
-fprint out/o -fprint out/hard
-fprint out/o -fprint out/soft
-fprint out/soft -fprintf out/hard '%s %p\n' -fls out/o
-type f -fprint out/o -o -fprintf out/hard 'dir %p\n'
-fprint0 out/o -fprint out/soft
-fprint out/./o -fprint out/../out/o
-fprint out/o -fprint /dev/stdout -print
-fprint out/o -fprint out/nosuchdir/x
TABLE
compare_summary "find: output files shared"
