#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# archive-headers.sh: the operations that change an archive in place, on the
# headers libarchive reads without a word and on the archive's own format,
# run by GNU tar and sweep-tar on copies of the same archive: --delete keeps
# a volume label (and deletes it by its name), drops pax global headers,
# and from standard input copies a last member with a long name; -r and -u
# write in the archive's format (posix, ustar, v7, gnu) whatever --format
# says; -r, -u, -A and --delete check -V against the archive's label; -u
# goes through a directory under --no-recursion and reports a pattern that
# names a directory it cannot open; --no-anchored on the names after it
# (-t, --delete, -u); a file with no tar header at all. The same output, messages and status,
# and archives of the same bytes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
mkdir -p "$src/d/sub"
printf 'a\n' > "$src/a"
printf 'b\n' > "$src/b"
printf 'c\n' > "$src/c"
printf 'da\n' > "$src/d/a"
printf 'db\n' > "$src/d/sub/b"
head -c 12000 /dev/zero | tr '\0' z > "$src/big"
long=$(repeat 150 x)
printf 'l\n' > "$src/$long"
# times with nanoseconds, that the posix format keeps and the others lose
find "$src" -exec touch -h -d '2020-01-01 00:00:00.5 UTC' {} +

gnu_op() { within src tar -f "$T/g.tar" "$@"; }
our_op() { within src sweep_tar -f "$T/s.tar" "$@"; }
# ops WHAT TEMPLATE ARGS: both tars on their copies of TEMPLATE: the same
# output, messages, status and archive bytes.
ops() {
	_what=$1 _tpl=$2
	shift 2
	cp "$_tpl" "$T/g.tar" && cp "$_tpl" "$T/s.tar" || fail "$_what: copy"
	compare_run -k gnu_op our_op "$@" || fail "$_what"
	cmp -s "$T/g.tar" "$T/s.tar" || fail "$_what: archives differ"
}
# headers FILE: each header's type and magic, as the format shows in them
headers() {
	perl -e 'local $/; $_ = <STDIN>;
		for (my $o = 0; $o + 512 <= length; ) {
			my $h = substr($_, $o, 512);
			last if $h =~ /^\0+$/;
			my $size = oct(substr($h, 124, 12) =~ tr/0-7//cdr || 0);
			printf "%s %s\n", unpack("H2", substr($h, 156, 1)), unpack("H16", substr($h, 257, 8));
			$o += 512 + int(($size + 511) / 512) * 512;
		}' < "$1"
}
# same_format WHAT TEMPLATE ARGS: as ops, where GNU's posix bytes are not
# ours (the extended headers' records): the same headers' types and magic,
# and the same listing to the nanosecond.
same_format() {
	_what=$1 _tpl=$2
	shift 2
	cp "$_tpl" "$T/g.tar" && cp "$_tpl" "$T/s.tar" || fail "$_what: copy"
	compare_run -k gnu_op our_op "$@" || fail "$_what"
	headers "$T/g.tar" > "$T/want"
	headers "$T/s.tar" > "$T/got"
	check_same "$T/want" "$T/got"
	tar --full-time -tvf "$T/g.tar" > "$T/want"
	tar --full-time -tvf "$T/s.tar" > "$T/got"
	check_same "$T/want" "$T/got"
}
# made MEMBERS: $T/made.tar, by GNU tar from $src with the options before --
made() { within src tar -f "$T/made.tar" "$@" || fail "GNU tar -c $*"; }

# --delete and a volume label
made -V LBL -c a b
for n in a b LBL 'L*' nosuch; do
	ops "--delete $n, a label" "$T/made.tar" --delete "$n"
done
ops "--delete --wildcards 'L*', a label" "$T/made.tar" --delete --wildcards 'L*'
# --delete and pax global headers (a posix label is one)
made --format=posix --pax-option=globexthdr.name=GLOB,comment=hi -c a b
for n in a b GLOB nosuch; do
	ops "--delete $n, a global header" "$T/made.tar" --delete "$n"
done
ops "-u past a global header" "$T/made.tar" -u a b
made --format=posix -V PLBL -c a b c
for n in a c nosuch; do
	ops "--delete $n, a posix label" "$T/made.tar" --delete "$n"
done
# --delete -f - with a long name last: the record it is in is copied too
made -c big "$long"
gnu_filter() { within src tar --delete -f - "$@" < "$T/made.tar"; }
our_filter() { within src sweep_tar --delete -f - "$@" < "$T/made.tar"; }
compare_run -k gnu_filter our_filter nosuch || fail "--delete -f -, a long name last, nothing selected"
compare_run -k gnu_filter our_filter big || fail "--delete -f -, a long name last"
ops "--delete, a long name last, nothing selected" "$T/made.tar" --delete nosuch
made --format=posix -c big a
compare_run -k gnu_filter our_filter nosuch || fail "--delete -f -, posix, nothing selected"

# -r and -u keep the archive's format
touch -d '2021-01-01 00:00:00.25 UTC' "$src/b"
for f in posix ustar v7 gnu; do
	made --format=$f -c a
	for given in '' --format=gnu --format=posix; do
		same_format "-r $given on $f" "$T/made.tar" -r $given b
		same_format "-u $given on $f" "$T/made.tar" -u $given a b
	done
done
made -V LBL -c -T /dev/null
same_format "-r on a label alone" "$T/made.tar" -r b
touch -d '2020-01-01 00:00:00.5 UTC' "$src/b"

# -V on -r, -u, -A and --delete: the label checked first
made -c a
cp "$T/made.tar" "$T/nolabel.tar"
made -V LBL -c a
cp "$T/made.tar" "$T/label.tar"
made --format=posix -V PLBL -c a
cp "$T/made.tar" "$T/plabel.tar"
for tpl in label plabel nolabel; do
	# (GNU's posix bytes are not ours)
	check=ops
	[ $tpl = plabel ] && check=same_format
	for v in LBL 'L*' PLBL X; do
		$check "-r -V $v on $tpl" "$T/$tpl.tar" -r -V "$v" b
		$check "-u -V $v on $tpl" "$T/$tpl.tar" -u -V "$v" b
		$check "-A -V $v on $tpl" "$T/$tpl.tar" -A -V "$v" "$T/nolabel.tar"
		$check "--delete -V $v on $tpl" "$T/$tpl.tar" --delete -V "$v" a
	done
done
gnu_filter() { within src tar --delete -f - "$@" < "$T/label.tar"; }
our_filter() { within src sweep_tar --delete -f - "$@" < "$T/label.tar"; }
compare_run -k gnu_filter our_filter -V X a || fail "--delete -f - -V, no match"
compare_run -k gnu_filter our_filter -V LBL a || fail "--delete -f - -V"
rm -f "$T/g.tar" "$T/s.tar"
compare_run -k gnu_op our_op -r -V LBL b || fail "-r -V, no archive"
cmp -s "$T/g.tar" "$T/s.tar" || fail "-r -V, no archive: archives differ"

# a file with no tar header: GNU tar skips it all (with a word when it
# holds a block) and writes after it, its records counted from its end
printf 'garbage\n' > "$T/short.txt"
seq 1 3000 > "$T/long.txt"
for f in short long; do
	for op in "-r a" "-u a" "--delete a" "-A $T/nolabel.tar"; do
		ops "$op on a $f file that is no archive" "$T/$f.txt" $op
	done
done
# from standard input, all its records go out (shorter than a block, none)
gnu_filter() { within src tar --delete -f - "$@" < "$T/made.tar"; }
our_filter() { within src sweep_tar --delete -f - "$@" < "$T/made.tar"; }
head -c 2000 "$T/long.txt" > "$T/made.tar"
compare_run -k gnu_filter our_filter a || fail "--delete -f -, no archive"
cp "$T/short.txt" "$T/made.tar"
compare_run -k gnu_filter our_filter a || fail "--delete -f -, no archive, short"
# (GNU tar fills the last record with what its buffer held: only the size
# can be the same)
cp "$T/long.txt" "$T/made.tar"
gnu_filter a 2> /dev/null | wc -c > "$T/want"
our_filter a 2> /dev/null | wc -c > "$T/got"
check_same "$T/want" "$T/got"

# -u's names matched as -t matches them
made -c d c
touch -d '2021-01-01 UTC' "$src/d/a"
printf 'new\n' > "$src/d/sub/new"
ops "-u --no-recursion, a directory" "$T/made.tar" -uv --no-recursion d
ops "-u --no-recursion, a directory/" "$T/made.tar" -uv --no-recursion d/
ops "-u --wildcards 'd/*'" "$T/made.tar" -uv --wildcards 'd/*'
rm "$src/d/sub/new"
touch -d '2020-01-01 00:00:00.5 UTC' "$src/d/a" "$src/d/sub"
ops "-u --wildcards 'd/*', nothing newer" "$T/made.tar" -u --wildcards 'd/*'
ops "-u --wildcards 'd/s*', nothing newer" "$T/made.tar" -u --wildcards 'd/s*'
# --no-anchored: for the names after it, until --anchored
ops "-t --no-anchored" "$T/made.tar" -t --no-anchored a
ops "-t, --no-anchored after the name" "$T/made.tar" -t a --no-anchored
ops "-t --no-anchored, then --anchored" "$T/made.tar" -t --no-anchored a --anchored sub b
ops "-t --no-anchored --wildcards" "$T/made.tar" -t --no-anchored --wildcards 's*'
ops "--delete --no-anchored" "$T/made.tar" --delete --no-anchored sub
touch -d '2021-01-01 UTC' "$src/d/sub/b"
ops "-u --no-anchored" "$T/made.tar" -uv --no-anchored sub
touch -d '2020-01-01 00:00:00.5 UTC' "$src/d/sub/b"
exit 0
