#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# damaged-gzip.sh: a gzip archive cut short (a backup on a disk that
# filled) gives up every file it holds whole, at least those GNU tar's
# "gzip -d" gives (libarchive's own reader dropped the last 64 KiB it
# inflated: dozens of small files), from a file and from a pipe, and
# "Unexpected EOF in archive", exit 2, as GNU tar; what was cut is a
# prefix of its file, never other bytes. Concatenated gzip members read
# as one stream (with -i, both archives), as GNU tar reads them. Damage
# after the archive's end (the gzip sums, garbage) fails the run, exit 2,
# as GNU tar's gzip fails it.
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

# damage after the tar archive's end, where the gzip stream's checks are:
# a byte changed (the sum fails), the last bytes cut, the sum zeroed,
# garbage after it, a lone start of a member after it: GNU tar's gzip
# reads to the end and fails (exit 2), as sweep-tar must, from a file and
# from a pipe, listing or extracting; zeros after it are no damage
seq 1 300000 > "$T/lines"
tar -czf "$T/lines.tgz" -C "$T" lines
n=$(wc -c < "$T/lines.tgz")
damage() { # NAME: $T/NAME.tgz, damaged so
	cp "$T/lines.tgz" "$T/$1.tgz"
	case $1 in
	flipped) printf '\252' | dd of="$T/$1.tgz" bs=1 seek=$((n / 2)) conv=notrunc 2>/dev/null ;;
	cut4) head -c $((n - 4)) "$T/lines.tgz" > "$T/$1.tgz" ;;
	sum0) printf '\0\0\0\0' | dd of="$T/$1.tgz" bs=1 seek=$((n - 8)) conv=notrunc 2>/dev/null ;;
	garbage) echo garbage >> "$T/$1.tgz" ;;
	lone) printf '\037' >> "$T/$1.tgz" ;;
	zeros) head -c 1000 /dev/zero >> "$T/$1.tgz" ;;
	esac
}
for kind in flipped cut4 sum0 garbage lone zeros; do
	damage $kind
	tar -tzf "$T/$kind.tgz" > /dev/null 2>&1
	want=$?
	[ $kind = zeros ] && [ $want != 0 ] && fail "GNU tar fails on trailing zeros: the test is wrong"
	[ $kind != zeros ] && [ $want = 0 ] && fail "GNU tar takes $kind: the test is wrong"
	for how in "-tzf $T/$kind.tgz" "-tf $T/$kind.tgz" "-xOzf $T/$kind.tgz"; do
		# shellcheck disable=SC2086 # the options are words
		sweep_tar $how > /dev/null 2> "$T/err"
		got=$?
		[ $got = $want ] || fail "$kind, $how: status $got, GNU's $want: $(cat "$T/err")"
	done
	for how in -tzf -tf -tvzf -xOzf; do
		cat "$T/$kind.tgz" | sweep_tar $how - > /dev/null 2> "$T/err"
		got=$?
		[ $got = $want ] || fail "$kind, $how - (a pipe): status $got, GNU's $want: $(cat "$T/err")"
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
