#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/readdir-race.sh: a file removed between the reading of its
# directory and its examination. Without -ignore_readdir_race GNU find
# names it ("No such file or directory") and exits with 1; with it, says
# nothing and exits with 0; a test on its status is false either way.
# sweep-find must give the same output, messages and status, in every
# order it walks. (Without libsweep's helper threads: they read and stat a
# directory ahead of the walk, so the shim removes the file before the
# walk's own reading of its directory, which then rightly does not list it:
# a file gone before its directory is read is no race at all.) The race is
# made deterministic by an LD_PRELOAD shim (vanish-shim.c) that removes the
# file at the first request for its status, in GNU find and sweep-find alike.
. "$top_srcdir/tests/lib.sh"
need_cmd find "${CC:-cc}"
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"
build_shim tests/find/vanish-shim.c
cd "$T" || fail "no scratch directory"

# raced PROG ARGS...: PROG ARGS on a fresh tree r, whose r/d/victim goes
# at the first look at its status
raced() {
	rm -rf r && mkdir -p r/d/e && touch r/a r/d/victim r/d/e/f r/z || return 99
	VANISH_NAME=victim LD_PRELOAD="$T/vanish-shim.so" "$@"
}

# The shim must make the race, or the comparison says nothing.
raced find r -size -1 > /dev/null 2> probe.err
grep -q 'victim.*No such file' probe.err && [ ! -e r/d/victim ] ||
	fail "the shim did not remove the file"

compare_names 's/^find:/sweep-find:/'
ls_own='s/^ *[0-9]* //; s/ [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* / /'
for order in disk inode name; do
	export SWEEP_ORDER=$order SWEEP_WARM=off
	for race in -noignore_readdir_race -ignore_readdir_race; do
		compare_run "raced find" "raced sweep-find" r $race -size -1
		compare_run "raced find" "raced sweep-find" r $race -printf '%s %p\n'
		# each side makes its tree anew: its inode numbers and the minute
		# of its times are its own
		compare_run -s -o "$ls_own" "raced find" "raced sweep-find" r $race -ls
		compare_run "raced find" "raced sweep-find" r $race -size -1 -o -print
		compare_run "raced find" "raced sweep-find" r $race -type f -empty
		compare_run "raced find" "raced sweep-find" r -name '*i*' $race -newer r/a
	done
	# the last of the two options counts
	compare_run "raced find" "raced sweep-find" r -ignore_readdir_race \
		-noignore_readdir_race -size -1
	compare_run "raced find" "raced sweep-find" r -noignore_readdir_race \
		-ignore_readdir_race -size -1
done
unset SWEEP_ORDER SWEEP_WARM
# a starting point that is not there is named all the same
compare_run find sweep-find nosuch -ignore_readdir_race
compare_summary "find -ignore_readdir_race"
