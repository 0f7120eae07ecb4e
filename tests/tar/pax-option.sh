#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pax-option.sh: --pax-option beside GNU tar. The reproducible-archive
# recipe (delete=atime,delete=ctime, --mtime, --sort=name, owner 0) gives
# GNU's bytes for members named in order, and GNU's listing, records and
# extracted tree for a whole tree (whose members come in another order);
# keyword=value, keyword:=value, delete=, exthdr.name/mtime and
# globexthdr.name/mtime give GNU's records and header names; the checks of
# the option give GNU's messages and status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
long=$(repeat 150 l)/$(repeat 150 m)
mkdir -p "$src/d/sub" "$src/d/empty" "$src/d/$(dirname "$long")"
printf 'alpha\n' > "$src/d/a"
printf 'bravo\n' > "$src/d/sub/b"
printf 'long\n' > "$src/d/$long"
ln -s a "$src/d/link"
find "$src" -exec touch -h -d '2020-01-01 00:00:00.5 UTC' {} +
touch -d '2021-02-03 04:05:06 UTC' "$src/d/a"

gnu_c() { within src tar "$@"; }
our_c() { within src sweep_tar "$@"; }
records() { perl "$top_srcdir/tests/tar/paxrecords.pl" "$1" | sort; }
listing() { tar -tvv --show-stored-names -f "$1" | sort; }
# same_bytes WHAT ARGS: both create $T/gnu.tar and $T/our.tar alike.
same_bytes() {
	_what=$1
	shift
	gnu_c -cf "$T/gnu.tar" "$@" || fail "$_what: tar"
	our_c -cf "$T/our.tar" "$@" || fail "$_what: sweep-tar"
	cmp "$T/gnu.tar" "$T/our.tar" || fail "$_what: archives differ"
}
# same_records WHAT ARGS: the same records, header names, listing and
# extracted tree (manifest options $mopt), members in any order.
mopt=-R
same_records() {
	_what=$1
	shift
	gnu_c -cf "$T/gnu.tar" "$@" || fail "$_what: tar"
	our_c -cf "$T/our.tar" "$@" || fail "$_what: sweep-tar"
	records "$T/gnu.tar" > "$T/want"
	records "$T/our.tar" > "$T/got"
	check_same "$T/want" "$T/got"
	listing "$T/gnu.tar" > "$T/want"
	listing "$T/our.tar" > "$T/got"
	check_same "$T/want" "$T/got"
	rm -rf "$T/xg" "$T/xs"
	mkdir "$T/xg" "$T/xs"
	tar -xf "$T/gnu.tar" -C "$T/xg" && tar -xf "$T/our.tar" -C "$T/xs" || fail "$_what: -x"
	manifest $mopt -n "$T/xg" > "$T/want"
	manifest $mopt -n "$T/xs" > "$T/got"
	check_same "$T/want" "$T/got"
}

repro="--format=posix --pax-option=delete=atime,delete=ctime --mtime=@0 --sort=name --owner=0 --group=0 --numeric-owner"
# (a name too long for the ustar fields is cut otherwise in the ustar
# header: the path record is compared)
files="d/a d/empty d/link d/sub/b"
# shellcheck disable=SC2086 # the options are words
same_bytes "reproducible recipe" $repro $files
# shellcheck disable=SC2086
same_records "reproducible recipe, a tree" $repro d
records "$T/our.tar" | grep '\[' | grep -v ' [0-9]* path=[^|]*]$' &&
	fail "recipe: extended headers with more than long names"
cp "$T/our.tar" "$T/first.tar"
touch "$src/d/sub/b" "$src/d"
# shellcheck disable=SC2086
our_c -cf "$T/our.tar" $repro d && cmp "$T/first.tar" "$T/our.tar" ||
	fail "recipe: not reproducible"
find "$src" -exec touch -h -d '2020-01-01 00:00:00.5 UTC' {} +
touch -d '2021-02-03 04:05:06 UTC' "$src/d/a"

# the records themselves; the global header's time fixed (it is the run's)
g="globexthdr.mtime=1"
same_bytes "overrides" -H posix --pax-option="delete=?time,a:=1,b:=two,$g,k=v,j= w" $files
same_bytes "exthdr.name" -H posix --pax-option="delete=[ac]time,exthdr.name=%d/H.%f.%n%%,$g" $files
same_bytes "exthdr.mtime" --pax-option="delete=[ac]time,exthdr.mtime=-12,a:=1" $files
same_bytes "globexthdr.name" --pax-option="delete=*time,x=1,globexthdr.name=G%d%f.%n,$g" -V lbl d/a
same_bytes "label and overrides" --pax-option="delete=*time,x:=1,$g" -V lbl d/a d/link
same_bytes "mtime overridden" --pax-option="delete=[ac]time,mtime:=7" $files
mopt=-D # directories made on the way have the time of the run
same_records "long name" --pax-option="delete=[ac]time,a:=1" "d/$long"
mopt=-R
same_records "overrides, a tree" --pax-option="delete=[ac]time,u:=1,$g,k=v" d
same_records "overrides with atime kept" --pax-option="u:=1,$g" d
same_records "SCHILY.*, mtime" -H posix --pax-option="delete=SCHILY.*,delete=mtime,delete=[ac]time" d
same_records "exthdr.name of directories" -H posix --pax-option="delete=[ac]time,exthdr.name=%f/%%d" d
# (GNU tar 1.34 appends members with no extended header after an archive
# whose last member has none: the archive starts with one here)
mkdir "$src/s"
add_sparse "$src/s"
touch -d @1000000000 "$src/s" "$src/s"/*
same_records "sparse" -S --pax-option="delete=[ac]time,a:=1" s
mopt=-D
same_records "-r" -H posix --pax-option="delete=[ac]time,z:=9" d/sub/b
mopt=-R
cp "$T/gnu.tar" "$T/gnu-r.tar"
cp "$T/our.tar" "$T/our-r.tar"
gnu_c -rf "$T/gnu-r.tar" -H posix --pax-option="delete=[ac]time,z:=9" d/link &&
	our_c -rf "$T/our-r.tar" -H posix --pax-option="delete=[ac]time,z:=9" d/link &&
	cmp "$T/gnu-r.tar" "$T/our-r.tar" || fail "-r with an override"

# the checks: messages and status
for opt in bogus =1 'delete=GNU.*' 'delete=*' GNU.dumpdir=1 GNU.volume.label:=x \
	'a=1,,b' 'a=x\,y' 'delete=atime,times' exthdr.mtime=junk exthdr.mtime=1.5 globexthdr.mtime=+1; do
	compare_run gnu_c our_c -cf "$T/p.tar" --pax-option="$opt" d/a || fail "--pax-option=$opt"
done
compare_run gnu_c our_c -cf "$T/p.tar" -H gnu --pax-option=delete=atime d/a || fail "-H gnu"
compare_run gnu_c our_c -cf "$T/p.tar" -H ustar --pax-option= d/a || fail "-H ustar"
gnu_c -cf "$T/g.tar" -H gnu d/a && cp "$T/g.tar" "$T/o.tar" || fail "tar -c"
compare_run gnu_c our_c -rf "$T/g.tar" --pax-option=x=1 d/a || fail "-r global"
compare_run gnu_c our_c -rf "$T/o.tar" -H gnu --pax-option=x:=1 d/a || fail "-r -H gnu"
compare_run gnu_c our_c -tvf "$T/g.tar" -H gnu --pax-option=exthdr.name=x || fail "-t exthdr.name"
# on reading, libarchive decodes the records: delete= and overrides refused
our_c -tf "$T/g.tar" --pax-option=delete=mtime 2> "$T/err" && fail "-t delete=: not refused"
grep -q "applies delete= only when writing" "$T/err" || fail "-t delete=: $(cat "$T/err")"
our_c -xf "$T/g.tar" --pax-option=mtime:=1 2> "$T/err" && fail "-x mtime:=: not refused"
grep -q "applies keyword:=value only when writing" "$T/err" || fail "-x :=: $(cat "$T/err")"
exit 0
