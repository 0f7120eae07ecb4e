#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# libsweep's interface as a program built elsewhere sees it: tests/abi.c,
# compiled against lib/sweep.h alone (copied where no other header of
# lib/ is), strict C99, calls every public function and checks what the
# header promises programs of another version. The library must export
# exactly the functions abi.c calls, so a new one comes with its test here.
. "$top_srcdir/tests/lib.sh"
need_cmd "${CC:-cc}" nm

mkdir -p "$T/include" "$T/tree/a/b" "$T/tree/c"
cp "$top_srcdir/lib/sweep.h" "$T/include/"
: > "$T/tree/a/b/f"
: > "$T/tree/c/g"
# shellcheck disable=SC2086
${CC:-cc} ${CFLAGS:-} -std=c99 -pedantic -Wall -Wextra -Werror -I"$T/include" \
	-o "$T/abi" "$top_srcdir/tests/abi.c" -L"$top_builddir/lib/.libs" -lsweep ${LDFLAGS:-} ||
	fail "tests/abi.c does not compile against sweep.h alone"
LD_LIBRARY_PATH="$top_builddir/lib/.libs" "$T/abi" "$T/tree" || fail "the interface broke a promise"
# the header alone, first and only, in strict ISO C (no POSIX feature macro
# to bring dev_t and the rest in for it)
printf '#include <sweep.h>\nint main(void) { return sweep_open(NULL, NULL) == NULL; }\n' > "$T/alone.c"
for std in c99 c11; do
	# shellcheck disable=SC2086
	${CC:-cc} ${CFLAGS:-} -std=$std -pedantic -Wall -Wextra -Werror -I"$T/include" \
		-c -o "$T/alone.o" "$T/alone.c" || fail "sweep.h does not compile alone under -std=$std"
done

lib=$(ls "$top_builddir"/lib/.libs/libsweep.so.[0-9]* 2>/dev/null | head -1)
[ -n "$lib" ] || skip "no shared libsweep to read the exports of"
nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort > "$T/exported"
grep -o '\bsweep_[a-z_]*(' "$top_srcdir/tests/abi.c" | tr -d '(' | sort -u > "$T/called"
check_same "$T/exported" "$T/called"
