#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The example program of libsweep(3) compiles against the built library and
# lists exactly the regular files of a tree, each with its full size, as
# find(1) and stat(1) see them.
. "$top_srcdir/tests/lib.sh"
need_cmd "${CC:-cc}"

# the example: between .EX and .EE after .SH EXAMPLE, groff escapes undone
sed -n '/^\.SH EXAMPLE/,$p' "$top_srcdir/man/libsweep.3" |
	sed -n '/^\.EX/,/^\.EE/p' | sed '1d;$d' |
	sed -e 's/\\e/\\/g' -e 's/\\-/-/g' > "$T/example.c"
grep -q 'sweep_next' "$T/example.c" || fail "no example found in man/libsweep.3"
# shellcheck disable=SC2086
${CC:-cc} ${CFLAGS:-} -I"$top_srcdir/lib" -o "$T/example" "$T/example.c" \
	-L"$top_builddir/lib/.libs" -lsweep ${LDFLAGS:-} || fail "the example does not compile"

mkdir -p "$T/tree/a/b" "$T/tree/c"
for i in $(seq 1 40); do head -c $((i * 777)) /dev/urandom > "$T/tree/a/f$i"; done
printf 'x' > "$T/tree/a/b/one"
: > "$T/tree/c/empty"
ln -s f1 "$T/tree/a/link"
mkfifo "$T/tree/c/fifo"

LD_LIBRARY_PATH="$top_builddir/lib/.libs" "$T/example" "$T/tree" > "$T/out" 2> "$T/err" ||
	fail "the example failed: $(cat "$T/err")"
grep -q '^[0-9]* flushes$' "$T/err" || fail "no flush count: $(cat "$T/err")"
cut -d' ' -f2- "$T/out" | sort > "$T/got"
find "$T/tree" -type f -printf '%s %p\n' | sort > "$T/want"
check_same "$T/want" "$T/got"
