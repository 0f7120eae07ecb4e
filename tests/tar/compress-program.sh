#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compress-program.sh: -I/--use-compress-program PROG, with its words
# ('zstd -T0', 'gzip -9'), as backup scripts use it: an archive made through
# PROG is read by GNU tar through PROG -d, GNU tar's is read by sweep-tar,
# and a PROG that cannot run, or fails, is fatal, exit 2, for both.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar gzip zstd

mkdir -p "$T/src/d/sub"
printf 'a\n' > "$T/src/d/a"
seq 1 20000 > "$T/src/d/sub/b"
for prog in 'zstd -T0' 'gzip -9' gzip; do
	(cd "$T/src" && sweep_tar -I "$prog" -cf "$T/sweep.out" d) || fail "sweep-tar -I '$prog' -c"
	(cd "$T/src" && tar -I "$prog" -cf "$T/gnu.out" d) || fail "tar -I '$prog' -c"
	tar -I "$prog" -tvf "$T/sweep.out" | sort > "$T/want" || fail "GNU tar cannot read it"
	tar -I "$prog" -tvf "$T/gnu.out" | sort > "$T/got"
	check_same "$T/want" "$T/got"
	# GNU tar's archive, through sweep-tar -I
	rm -rf "$T/x" && mkdir "$T/x"
	sweep_tar -I "$prog" -xf "$T/gnu.out" -C "$T/x" || fail "sweep-tar -I '$prog' -x"
	diff -r "$T/src/d" "$T/x/d" > /dev/null || fail "-I '$prog': the extracted tree differs"
	sweep_tar --use-compress-program="$prog" -tf "$T/gnu.out" > /dev/null ||
		fail "--use-compress-program='$prog' -t"
done
# a program that is not there: exit 2, as GNU's
(cd "$T/src" && sweep_tar -I no-such-program-here -cf "$T/bad.out" d) 2> /dev/null
[ $? = 2 ] || fail "-I with a missing program: not exit 2 on -c"
sweep_tar -I no-such-program-here -tf "$T/gnu.out" 2> /dev/null
[ $? = 2 ] || fail "-I with a missing program: not exit 2 on -t"
# a program that fails: exit 2, as GNU's, and the failure named (it was
# "archive error": GNU says "Child returned status 3")
printf '#!/bin/sh\ncat > /dev/null\nexit 3\n' > "$T/failing" && chmod +x "$T/failing"
for prog in tar sweep_tar; do
	(cd "$T/src" && $prog -I "$T/failing" -cf "$T/bad.out" d) 2> "$T/$prog.err"
	echo "status $?" >> "$T/$prog.err"
done
grep -q "^status 2$" "$T/tar.err" && grep -q "^status 2$" "$T/sweep_tar.err" ||
	fail "-I with a failing program: $(cat "$T/tar.err" "$T/sweep_tar.err")"
grep -q "Error closing program: $T/failing" "$T/sweep_tar.err" ||
	fail "-I with a failing program: not named ($(cat "$T/sweep_tar.err"))"
exit 0
