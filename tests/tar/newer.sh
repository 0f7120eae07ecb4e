#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# newer.sh: -N/--newer/--after-date and --newer-mtime, beside GNU tar: the
# files left out (not changed since DATE; with -N neither their data nor
# their status), directories always kept, the -v notes ("Treating date",
# "file is unchanged; not dumped"), a date GNU cannot read ("Substituting"),
# a file's time as the date, and the exit status. Reading (-t, -x, -d),
# members older than the date are left out.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d/old-dir" "$T/src/d/new-dir"
printf 'old\n' > "$T/src/d/old"
printf 'old\n' > "$T/src/d/old-dir/f"
printf 'new\n' > "$T/src/d/new"
printf 'new\n' > "$T/src/d/new-dir/f"
ln -s old "$T/src/d/old-link"
touch -h -d '2020-01-01' "$T/src/d/old" "$T/src/d/old-dir/f" "$T/src/d/old-dir" "$T/src/d/old-link"
touch -d '2023-06-01' "$T/src/ref"

both() { # WHAT ARGS...: members, messages and status as GNU's
	what=$1
	shift
	# sorted: sweep-tar meets the files in disk order
	compare_run gnu_tar our_tar "$@" -cv d || fail "$what"
	tar -tf "$T/gnu.tar" | sort > "$T/want"
	tar -tf "$T/sweep.tar" | sort > "$T/got"
	check_same "$T/want" "$T/got" || fail "$what: members"
}

both "--newer-mtime=DATE" --newer-mtime=2021-01-01
both "--newer-mtime=@SECONDS" --newer-mtime=@1600000000
both "--newer-mtime=FILE" --newer-mtime=./ref
both "-N DATE (status times are now: all kept)" -N 2021-01-01
both "--after-date" --after-date=2021-01-01
both "--newer=FILE" --newer=./ref
both "-N with a date GNU cannot read" -N 'not a date'
# GNU's other date forms (parse_datetime's), ones that do not move with
# the second the two runs are in
both "--newer-mtime, a day ago at midnight" --newer-mtime='yesterday 00:00'
both "--newer-mtime, years ago" --newer-mtime='00:00 10 years ago'
both "--newer-mtime, a month's name" --newer-mtime='Jan 1 2021'
both "--newer-mtime, a zone" --newer-mtime='2021-01-01 00:00 +0200'
both "--newer-mtime, a pure number" --newer-mtime=20210101
both "-N, a day of the week" -N 'last monday'
# the member left out is not in the archive under any name
tar -tf "$T/sweep.tar" > /dev/null || fail "the archive cannot be read"

# reading (-t, -x, -d): a member whose time is before the date is left
# out, a directory too, by its time in whole seconds (they were all taken:
# -x wrote the archive's old files over newer ones), as GNU tar's
touch -d '2020-01-01 00:00:00.7' "$T/src/d/old-dir/frac"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "cannot make the archive"
mkdir -p "$T/dst/d/old-dir"
printf 'current\n' > "$T/dst/d/old"
printf 'current\n' > "$T/dst/d/old-dir/f"
dest=dst
for opts in --newer --newer-mtime --after-date; do
	for date in 2021-01-01 2019-01-01 '2020-01-01 00:00:00.5' 2020-01-01 "$T/src/ref" ./ref \
		'not a date'; do
		extract_over "-x $opts '$date'" -x "$opts=$date"
		extract_over "-xv $opts '$date'" -xv "$opts=$date"
		compare_run -k extract_gnu extract_our -t "$opts=$date" || fail "-t $opts '$date'"
		compare_run -k extract_gnu extract_our -tv "$opts=$date" || fail "-tv $opts '$date'"
		compare_run -k extract_gnu extract_our -d -C "$T/src" "$opts=$date" || fail "-d $opts '$date'"
	done
done
extract_over "-x -N DATE" -x -N 2021-01-01
compare_run -k extract_gnu extract_our -tvN 2021-01-01 || fail "-tvN DATE"
# a date's sample file missing: GNU's usage error (it was fatal, no "Try")
compare_run gnu_tar our_tar -c --mtime=./nothere d || fail "--mtime, no sample file"
# a name given and left out by the date is no "Not found in archive"
compare_run -k extract_gnu extract_our -t --newer-mtime=2021-01-01 d/old d/new || fail "-t, a name left out"
exit 0
