#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# libsweep hands out every entry of a tree exactly once, in every order and
# symlink mode: the same set of paths GNU find prints, and the loops GNU find
# reports as errors are loop errors. Odd names, a path longer than PATH_MAX,
# a sparse file, fifos, hard links, and dangling and looping links included.
. "$top_srcdir/tests/lib.sh"
need_cmd find sort

R=$T/tree
mkdir -p "$R/a/b" "$R/c"
printf 'x' > "$R/a/plain"
: > "$R/a/empty"
printf 'n' > "$R/a/new
line"
printf 'u' > "$R/a/bad$(printf '\377\376')utf8"
printf 'd' > "$R/a/-dash"
printf 's' > "$R/a/with space"
ln "$R/a/plain" "$R/c/hard"
ln -s ../a "$R/c/to-a"
ln -s nowhere "$R/c/dangling"
ln -s .. "$R/a/b/loop"
ln -s self "$R/c/self"
mkfifo "$R/c/fifo"
truncate -s 1G "$R/c/sparse" && printf 'end' >> "$R/c/sparse"
# 30 levels of 200-byte names: over 6000 bytes of path. A root of its own:
# GNU find -L cannot go deeper than PATH_MAX (it stats full paths there).
mkdir "$T/deep"
(
	cd "$T/deep" || exit 1
	name=$(printf 'n%.0s' $(seq 200))
	for _ in $(seq 30); do mkdir "$name" && cd "$name" || exit 1; done
	printf 'deep' > bottom
) || fail "could not build the deep path"

paths_of() { # walk-dump records -> sorted NUL-separated paths of kinds $1
	# records: K INO PHYS FLUSH DEPTH ERRNO PATH\0; a path may hold newlines
	perl -0ne 'chomp; my @f = split / /, $_, 7; print "$f[6]\0" if $f[0] =~ /^['"$1"']$/' |
		sort -z
}

show_diff() { # the first differing lines, cut short: paths may be 6000 bytes
	diff <(tr '\0' '\n' < "$1") <(tr '\0' '\n' < "$2") | cut -c1-160 | head >&2
}

status=0
for mode in -P -H -L; do
	roots=("$R")
	[ "$mode" = -L ] || roots+=("$T/deep")
	find "$mode" "${roots[@]}" -print0 2> "$T/find.err" | sort -z > "$T/want"
	want_loops=$(grep -c 'File system loop detected' "$T/find.err" || true)
	for order in auto disk inode name none block auto-T disk-T name-T; do
		flag=${mode#-P}
		case $order in *-T) flag="$flag -T"; order=${order%-T} ;; esac
		# shellcheck disable=SC2086
		walk-dump $flag -o "$order" "${roots[@]}" > "$T/dump" 2> "$T/dump.err" ||
			fail "walk-dump $flag -o $order failed: $(cat "$T/dump.err")"
		paths_of DFR < "$T/dump" > "$T/got"
		if ! cmp -s "$T/want" "$T/got"; then
			echo "order $order, find $mode: paths differ" >&2
			show_diff "$T/want" "$T/got"
			status=1
		fi
		loops=$(perl -0ne 'my @f = split / /, $_, 7; print "x\n" if $f[0] eq "L"' \
			< "$T/dump" | wc -l)
		[ "$loops" = "$want_loops" ] ||
			{ echo "order $order, $mode: $loops loop errors, find reports $want_loops" >&2; status=1; }
		others=$(perl -0ne 'my @f = split / /, $_, 7; print "x\n" if $f[0] eq "E"' \
			< "$T/dump" | wc -l)
		want_others=$(grep -vc 'File system loop detected' "$T/find.err" || true)
		[ "$others" = "$want_others" ] ||
			{ echo "order $order, $mode: $others other errors, find has $want_others" >&2; status=1; }
	done
done
[ "$want_loops" -gt 0 ] || fail "the tree has no loop under -L: the test tests nothing"
exit $status
