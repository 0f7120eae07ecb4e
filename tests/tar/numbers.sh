#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# numbers.sh: numbers past the octal fields of a tar header, beside GNU
# tar. Times before 1970 and after 2242 are stored exactly in the gnu
# format (base-256, as GNU tar: the headers are byte for byte GNU's), also
# compressed; in pax as records; ustar and v7 cannot hold them (nor ids
# past 2097151) and refuse the member with GNU's "value N out of time_t
# range", exit 2. Before: 1970-01-01 and 2242-03-16, exit 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/old"
touch -d '1960-05-01 12:34:56' "$T/src/old/f"
touch -d '2300-01-01' "$T/src/old/g"
touch -d '@-1' "$T/src/old/minus-one"
touch -d '2001-01-01' "$T/src/old/plain"
if [ "$(id -u)" = 0 ]; then
	printf 'u\n' > "$T/src/old/bigid" && chown 3000000:3000001 "$T/src/old/bigid"
else
	echo "SKIP part: ids past 2097151 need root to chown" >&2
fi

# both NAME ARGS...: "tar -c ARGS old" and "sweep-tar -c ARGS old" into
# $T/gnu.tar and $T/sweep.tar; same messages and status, and the same
# verbose listing with full times (GNU tar reads both).
both() {
	name=$1
	shift
	compare_run gnu_tar our_tar -c "$@" --sort=name old || fail "$name: messages"
	# (sorted: sweep-tar stores a directory after what it holds)
	tar -tvf "$T/gnu.tar" --full-time --numeric-owner 2>&1 | sort > "$T/want"
	tar -tvf "$T/sweep.tar" --full-time --numeric-owner 2>&1 | sort > "$T/got"
	check_same "$T/want" "$T/got" || fail "$name: listings"
}

for format in gnu oldgnu posix; do
	both "--format=$format" --format=$format
	# extracted by GNU tar, every time is the source's
	rm -rf "$T/x" && mkdir "$T/x"
	tar -xf "$T/sweep.tar" -C "$T/x" 2> /dev/null
	for f in f g minus-one plain; do
		[ "$(stat -c %Y "$T/x/old/$f")" = "$(stat -c %Y "$T/src/old/$f")" ] ||
			fail "--format=$format: old/$f extracted with time $(stat -c %Y "$T/x/old/$f")"
	done
done
# the gnu headers of the files are GNU's, byte for byte
both "--format=gnu, headers" --format=gnu
for f in f g minus-one plain; do
	for a in gnu sweep; do
		block=$(tar -tvf "$T/$a.tar" -R "old/$f" | sed -n '1s/^block \([0-9]*\):.*/\1/p')
		dd if="$T/$a.tar" bs=512 skip="$block" count=1 2> /dev/null > "$T/$a.hdr"
		[ "$(head -c ${#f} "$T/$a.hdr" | wc -c)" = ${#f} ] && [ "$(wc -c < "$T/$a.hdr")" = 512 ] &&
			[ "$(head -c $((4 + ${#f})) "$T/$a.hdr")" = "old/$f" ] || fail "no header of old/$f in $a.tar"
	done
	cmp "$T/gnu.hdr" "$T/sweep.hdr" || fail "old/$f: the header is not GNU's"
done
for f in f g minus-one; do
	tar -xOf "$T/sweep.tar" "old/$f" > /dev/null || fail "old/$f"
done
# compressed: the header is mended before the compressor sees it
both "-z" -z
both "--format=ustar" --format=ustar
both "--format=v7" --format=v7
exit 0
