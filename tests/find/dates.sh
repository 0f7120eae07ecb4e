#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dates.sh: the dates of -newerXt (and of sweep-tar's --mtime, -N: one
# parser, src/common/datetime.c) beside GNU find, which reads them with
# gnulib's parse_datetime: for each date, in three time zones (one with
# daylight saving, one far east), files a second before, at and after the
# moment GNU date(1) makes of it; the same files match, with the same
# messages and status. Dates relative to now get a wider margin (the runs
# are not in the same second). Dates GNU refuses (no such day, an hour in
# the daylight-saving gap, numbers past any time, words shortened that
# only months and days may be) are refused too.
. "$top_srcdir/tests/lib.sh"
need_cmd find date
cd "$T" || fail "no scratch directory"
mkdir d
failures=0
day0=$(date +%F) # (dates relative to today: the day must not turn)
# check TZ DATE MARGIN
check() {
	rm -f d/*
	g=$(TZ=$1 date -d "$2" +%s 2>/dev/null)
	if [ -n "$g" ]; then
		for off in "-$3" 0 "$3"; do
			touch -d "@$((g + off))" "d/at$off" 2>/dev/null
		done
	fi
	TZ=$1 find d -type f -newermt "$2" > gnu.out 2> gnu.err
	gs=$?
	TZ=$1 sweep-find d -type f -newermt "$2" > our.out 2> our.err
	os=$?
	sort -o gnu.out gnu.out
	sort -o our.out our.out
	sed -i 's/^sweep-find:/find:/' our.err
	if [ $gs != $os ] || ! cmp -s gnu.out our.out || ! cmp -s gnu.err our.err; then
		echo "FAIL: TZ=$1 -newermt '$2': status $gs, ours $os" >&2
		diff gnu.out our.out >&2
		diff gnu.err our.err >&2
		failures=$((failures + 1))
	fi
}
for tz in UTC America/New_York Etc/GMT-14; do
	while IFS= read -r date; do
		check "$tz" "$date" 1
	done <<'ABSOLUTE'
2020-01-05
2020-1-5 10:00
2020-01-05T10:00:30.5
2020-01-05 10:00 UTC
2020-01-05 10:00 +0200
2020-01-05 10:00 -05:30
2020-06-01 12:00 CEST
Jan 5 2020
Jan 5, 2020
5 Jan 2020
5-Jan-2020
Jan-5-2020
01/05/2020
1/5/20
20200105
2020-01-05 1230
2020-01-05 3pm
2020-01-05 12am
Sun, 05 Jan 2020 10:00:00 +0100
Sun Jan  5 10:00:00 UTC 2020
TZ="Europe/Paris" 2020-07-01 12:00
@1578218400
@ 1578218400.75
2020-01-05 00:00 10 days ago
2020-01-05 1 year 2 months ago
2021-03-14 02:30
2020-02-30
2020-01-05 25:00
2020-01-05 10:60
4294969196-01-01
2020-01-05 4294967296 days ago
noon
Jan
5 January, 2020
2020-01-05,10:00
nex friday
2020-01-05 10:00 ces
Sept 5 2020
ABSOLUTE
	while IFS= read -r date; do
		check "$tz" "$date" 30
	done <<'RELATIVE'

yesterday
today 10:00
tomorrow
now
2 days ago
-1 week
3 fortnights ago
last monday
next friday
this thursday
monday 10:00
6 months ago
1 year ago 00:00
UTC
10:00 -1000
2 hours ago UTC
1200
10:5
RELATIVE
done
[ $failures = 0 ] || [ "$(date +%F)" = "$day0" ] || skip "the date changed during the test"
[ $failures = 0 ] || fail "$failures dates read otherwise than GNU find reads them"
