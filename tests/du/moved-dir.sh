#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/moved-dir.sh: a directory renamed or moved away while it is
# read. GNU du lists what it read under the old path, then finds the
# directory gone from there ("PATH: No such file or directory"), counts
# none of its own size, prints it only as -a prints files, and exits with
# status 1. sweep-du must give the same lines, messages and status: moved
# out of the tree, renamed in its own directory, moved elsewhere in the
# tree, near the top and deep down, a starting point itself, with -a, -S, --inodes and --time. The
# race is made deterministic by an LD_PRELOAD shim (move-shim.c) that
# renames the directory right after its first opening, in both tools.
# (Not tested: a starting point without a slash moved, which GNU du reports
# as the others when little lies below it, and with many levels below it
# loses its way back up and stops, "fts_read failed"; sweep-du treats it as
# any starting point, and goes on.)
. "$top_srcdir/tests/lib.sh"
need_cmd du "${CC:-cc}"
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"
build_shim tests/du/move-shim.c
cd "$T" || fail "no scratch directory"

# moving NAME TO PROG ARGS...: PROG ARGS on a fresh tree t, whose
# directory NAME goes to TO once it is opened
moving() {
	local name=$1 to=$2
	shift 2
	rm -rf t away && mkdir -p t/a/b/c/victim/sub/deeper t/a/other/s t/z || return 99
	printf x > t/a/b/c/victim/f && head -c 9000 /dev/zero > t/a/b/c/victim/sub/g &&
		printf y > t/a/b/c/victim/sub/deeper/h && printf q > t/z/q &&
		printf r > t/a/other/s/r || return 99
	touch -d '2001-01-01' t/a/b/c/victim/sub/g
	MOVE_NAME=$name MOVE_TO=$T/$to LD_PRELOAD="$T/move-shim.so" "$@"
}

# The shim must make the race, or the comparison says nothing.
moving victim away du t > /dev/null 2> probe.err
[ -d away/sub ] && grep -q 'victim: No such file' probe.err || fail "the shim did not move the directory"

compare_names 's/^du:/sweep-du:/'
for opts in "" -a -S -aS --inodes "-a --inodes" "--time -a" -d1 -s "-a --apparent-size"; do
	# each tool's tree is made anew, at its own minute: --time's column
	# is left out (tests/du/compare.sh checks it)
	edit=
	case $opts in --time*) edit='s/\t[^\t]*\t/\tT\t/' ;; esac
	for move in "victim away" "victim t/a/b/c/renamed" "victim t/a/moved" \
	            "deeper away" "s t/a/other/s2" "other away"; do
		# shellcheck disable=SC2086 # words on purpose
		compare_run -o "$edit" "moving $move du" "moving $move sweep-du" $opts t
	done
	# a starting point moved: GNU du goes on as if it were not
	# shellcheck disable=SC2086
	compare_run -o "$edit" "moving other away du" "moving other away sweep-du" $opts t/a/other t/z
done
compare_summary "du: a directory moved while read"
