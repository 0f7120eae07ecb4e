#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/time-range.sh: --time with a time whose year is beyond what a
# broken-down time holds (an int): GNU du prints the seconds instead and
# warns "time '...' is out of range" for each such line, its status left
# at 0. sweep-du must give the same lines, messages and status. Such times
# need a file system that stores them (tmpfs does); without one, skipped.
. "$top_srcdir/tests/lib.sh"
need_cmd du touch stat
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"

# a scratch directory on a file system that keeps 64-bit times
far=100000000000000000 # year about 3.2e9
dir=
for base in "$T" /dev/shm; do
	d=$(mktemp -d "$base/sweep-time.XXXXXX" 2>/dev/null) || continue
	if touch -d @$far "$d/probe" 2>/dev/null && [ "$(stat -c %Y "$d/probe")" = $far ]; then
		dir=$d
		break
	fi
	rm -rf "$d"
done
[ -n "$dir" ] || skip "no file system here keeps a time of year 3e9 (tmpfs does)"
[ "$dir" = "${dir#"$T"}" ] && trap 'rm -rf "$dir" "$T"' EXIT
cd "$dir" || fail "no scratch directory"
mkdir -p t/far t/past t/near
touch -d @$far t/far/f
touch -d @-$far t/past/f
touch -d '2020-01-01 00:00' t/near/f t/near t/past t/far t

compare_names 's/^du:/sweep-du:/'
check() { compare_run du sweep-du "$@"; }
check --time t
check --time -a t
check --time -s t/far t/past t/near
check --time --time-style=full-iso -a t
check --time --time-style=+%s -c t
check --time=ctime -a t
compare_summary "du --time out of range"
