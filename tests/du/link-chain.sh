#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/link-chain.sh: -L down a chain of directories each of which
# holds a symbolic link to the next (a0/n -> ../a1, a1/n -> ../a2, ...).
# GNU du stats each file by its whole path, a0/n/n/n/..., and the kernel
# follows at most 40 links in one: the 41st gives "Too many levels of
# symbolic links", that file and what lies below it are left out, and the
# status is 1. sweep-du must give the same lines, messages and status: on
# a chain of 400, on one of 30 (no error), with a link to a file at the
# limit, from a starting point that is itself a link, and without -L.
. "$top_srcdir/tests/lib.sh"
need_cmd du
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"
cd "$T" || fail "no scratch directory"

# chain DIR N: DIR/a0 ... DIR/aN, each ai (i < N) with a file f and a link
# n to a(i+1)
chain() {
	local i
	mkdir "$1" || return 1
	for i in $(seq 0 "$2"); do
		mkdir "$1/a$i" && printf 'x' > "$1/a$i/f" || return 1
		[ "$i" = "$2" ] || ln -s "../a$((i + 1))" "$1/a$i/n" || return 1
	done
}
chain long 400 && chain short 30 && chain edge 40 || fail "cannot build the chains"
# at the end of the 40th link, a link to a file: the 41st
ln -s f edge/a40/tofile && ln -s long/a0 start || fail "cannot make the links"

compare_names 's/^du:/sweep-du:/'
check() { compare_run du sweep-du "$@"; }
for opts in -L -La "-L -s" "-L --inodes -a" "-L -c -a" -a -H; do
	# shellcheck disable=SC2086 # the options are words
	check $opts long/a0
done
check -La short/a0
check -La edge/a0
check -La start
check -La long/a0/n/n/n
compare_summary "du -L down a chain of links"
