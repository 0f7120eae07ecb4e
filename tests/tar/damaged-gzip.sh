#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# damaged-gzip.sh: a gzip archive cut short (a backup on a disk that
# filled) gives up every file it holds whole, at least those GNU tar's
# "gzip -d" gives (libarchive's own reader dropped the last 64 KiB it
# inflated: dozens of small files), from a file and from a pipe, and
# "Unexpected EOF in archive", exit 2, as GNU tar; what was cut is a
# prefix of its file, never other bytes. Concatenated gzip members read
# as one stream (with -i, both archives), as GNU tar reads them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar gzip

mkdir "$T/src"
i=1
while [ $i -le 101 ]; do
	head -c $((i * 997)) /dev/urandom > "$T/src/f$i"
	i=$((i + 1))
done
tar -czf "$T/all.tgz" -C "$T/src" .
size=$(wc -c < "$T/all.tgz")

# whole DIR: the files of DIR equal to their source, sorted
whole() { (cd "$1" && for f in f*; do cmp -s "$f" "$T/src/$f" && echo "$f"; done | sort); }
# prefixes DIR: fails unless every file of DIR is a prefix of its source
prefixes() {
	for f in "$1"/f*; do
		n=$(wc -c < "$f")
		cmp -s -n "$n" "$f" "$T/src/${f##*/}" || fail "${f##*/}: not its source's bytes"
	done
}

for cut in 50 90; do
head -c $((size * cut / 100)) "$T/all.tgz" > "$T/cut.tgz"
rm -rf "$T/gnu"
mkdir "$T/gnu"
(cd "$T/gnu" && tar -xzf "$T/cut.tgz") 2> "$T/gnu.err"
echo "status $?" >> "$T/gnu.err"
whole "$T/gnu" > "$T/gnu.whole"
[ -s "$T/gnu.whole" ] || fail "GNU tar recovered nothing: the test's archive is wrong"
for how in file pipe; do
	rm -rf "$T/$how"
	mkdir "$T/$how"
	if [ $how = file ]; then
		(cd "$T/$how" && sweep_tar -xzf "$T/cut.tgz") 2> "$T/$how.err"
	else
		(cd "$T/$how" && cat "$T/cut.tgz" | sweep_tar -xzf -) 2> "$T/$how.err"
	fi
	echo "status $?" >> "$T/$how.err"
	grep -q "Unexpected EOF in archive" "$T/$how.err" || fail "$how: $(cat "$T/$how.err")"
	tail -1 "$T/gnu.err" > "$T/want"
	tail -1 "$T/$how.err" > "$T/got"
	check_same "$T/want" "$T/got"
	whole "$T/$how" > "$T/$how.whole"
	missing=$(comm -23 "$T/gnu.whole" "$T/$how.whole")
	[ -z "$missing" ] || fail "$cut%, $how: GNU tar recovers what sweep-tar lost: $(echo $missing)"
	prefixes "$T/$how"
done
done

# concatenated archives: one gzip stream of two members, both read with -i
mkdir "$T/two"
printf 'second\n' > "$T/two/g"
tar -czf "$T/two.tgz" -C "$T/two" g
cat "$T/all.tgz" "$T/two.tgz" > "$T/cat.tgz"
tar -tizf "$T/cat.tgz" | sort > "$T/want"
sweep_tar -tizf "$T/cat.tgz" | sort > "$T/got"
check_same "$T/want" "$T/got"
cat "$T/cat.tgz" | sweep_tar -tizf - | sort > "$T/got"
check_same "$T/want" "$T/got"
exit 0
