#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# eio.sh: a device that fails with EIO, beside GNU tar: a source file whose
# reads fail from some byte on (the data before it archived, the rest
# zeros, "Read error at byte N", exit 2, the other files archived); an
# extracted file whose writes fail ("Cannot write: Input/output error",
# exit 2, the file left short, the other members extracted); an archive
# whose writes fail (fatal, exit 2). The failing device is an LD_PRELOAD
# shim (eio-shim.c) put into GNU tar and sweep-tar alike: this machine's
# kernel has no device-mapper "error" target.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar "${CC:-cc}"

build_shim tests/faults/eio-shim.c

mkdir -p "$T/src/dir"
head -c 30000 /dev/urandom > "$T/src/dir/bad"
printf 'good\n' > "$T/src/dir/good"
printf 'top\n' > "$T/src/top"

# run PROG OUT ARGS...: PROG ARGS in $T/src under the shim (EIO_* from the
# caller's environment); stderr and status into OUT.err.
run() {
	prog=$1 out=$2
	shift 2
	(cd "$T/src" && LD_PRELOAD="$T/eio-shim.so" "$prog" "$@") 2> "$out.err"
	echo "status $?" >> "$out.err"
}

# messages WHAT: GNU's and sweep-tar's messages and status must match, but
# for the numbers of "Read error at byte N, while reading M bytes" (GNU
# reads in records, sweep-tar in runs and then in 4 KiB pieces).
messages() {
	numbers='s/byte [0-9]*, while reading [0-9]* bytes/byte N, while reading M bytes/'
	sed -e 's/^tar: /sweep-tar: /' -e "$numbers" "$T/gnu.err" > "$T/want"
	sed -e "$numbers" "$T/sweep.err" > "$T/got"
	check_same "$T/want" "$T/got" || fail "$1"
}

# Reads of dir/bad fail from byte 0, then from byte 12000 on.
for after in 0 12000; do
	export EIO_READ=/bad EIO_AFTER=$after
	run tar "$T/gnu" -cf "$T/gnu.tar" dir top
	run "$sweep_tools/sweep-tar" "$T/sweep" -cf "$T/sweep.tar" dir top
	unset EIO_READ EIO_AFTER
	messages "read error from byte $after"
	tar -tvf "$T/gnu.tar" | sort > "$T/want"
	tar -tvf "$T/sweep.tar" | sort > "$T/got"
	check_same "$T/want" "$T/got"
	# what could be read is there: the good bytes before the bad 4 KiB
	good=$((after / 4096 * 4096))
	tar -xOf "$T/sweep.tar" dir/bad | head -c $good > "$T/got"
	head -c $good "$T/src/dir/bad" | check_same /dev/stdin "$T/got"
	[ "$(tar -xOf "$T/sweep.tar" top)" = top ] || fail "top not archived"
done

# Writes of the archive fail: fatal, as GNU's.
export EIO_WRITE=.tar
run tar "$T/gnu" -cf "$T/gnu.tar" dir top
run "$sweep_tools/sweep-tar" "$T/sweep" -cf "$T/sweep.tar" dir top
unset EIO_WRITE
sed -i "s|$T/sweep.tar|$T/gnu.tar|" "$T/sweep.err"
messages "the archive cannot be written"

# Writes of an extracted file fail: said, exit 2, the file short, the rest
# extracted.
(cd "$T/src" && tar -cf "$T/in.tar" top dir)
for prog in tar "$sweep_tools/sweep-tar"; do
	name=$(basename "$prog")
	rm -rf "$T/x-$name" && mkdir "$T/x-$name"
	(cd "$T/x-$name" && EIO_WRITE=/bad LD_PRELOAD="$T/eio-shim.so" "$prog" -xf "$T/in.tar") 2> "$T/$name.err"
	echo "status $?" >> "$T/$name.err"
done
mv "$T/tar.err" "$T/gnu.err" && mv "$T/sweep-tar.err" "$T/sweep.err"
messages "an extracted file cannot be written"
[ "$(stat -c %s "$T/x-sweep-tar/dir/bad")" -lt 30000 ] || fail "a file that could not be written looks whole"
check_same "$T/src/dir/good" "$T/x-sweep-tar/dir/good"
check_same "$T/src/top" "$T/x-sweep-tar/top"
exit 0
