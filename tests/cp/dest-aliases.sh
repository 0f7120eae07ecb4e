#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dest-aliases.sh: a destination where two names are one file (hard links,
# or a symbolic link to the other name), each overwritten by a different
# source file: the file ends as one of the two sources, whole (the one
# written last: GNU cp's order is by inode number, sweep-cp's by block, so
# which one is not compared), the links as GNU cp leaves them, status 0.
# sweep-cp's write thread may still be writing the first name's copy when
# the walk opens the second: the second must not be cut to nothing and
# written before the first's bytes land on it (the file was the second
# source with the tail of the first).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
mkdir "$T/src"
i=0
while [ $i -lt 8 ]; do
	head -c 3000000 /dev/urandom > "$T/src/x$i"
	head -c 5000 /dev/urandom > "$T/src/y$i"
	i=$((i + 1))
done
prepare() { # DIR: y0..y7, and x0..x7 hard links to them (even) or symbolic links
	rm -rf "$1" && mkdir "$1" || exit 1
	i=0
	while [ $i -lt 8 ]; do
		echo old > "$1/y$i"
		if [ $((i % 2)) = 0 ]; then ln "$1/y$i" "$1/x$i"; else ln -s "y$i" "$1/x$i"; fi
		i=$((i + 1))
	done
}
for args in "-r" "-rT" "-a" "-a --no-write-thread"; do
	echo "== $args" >&2
	prepare "$T/gnu"
	prepare "$T/our"
	cp ${args%--no-write-thread} "$T/src/." "$T/gnu" || fail "cp $args: status $?"
	# shellcheck disable=SC2086
	sweep-cp $args "$T/src/." "$T/our" || fail "sweep-cp $args: status $?"
	for side in gnu our; do
		(cd "$T/$side" && find . -printf '%y %n %l %p\n' | sort) > "$T/$side.links"
	done
	check_same "$T/gnu.links" "$T/our.links" || fail "$args: not linked as GNU cp leaves them"
	i=0
	while [ $i -lt 8 ]; do
		f=$T/our/y$i
		cmp -s "$f" "$T/src/x$i" || cmp -s "$f" "$T/src/y$i" ||
			fail "$args: y$i is neither source whole ($(stat -c %s "$f") bytes)"
		i=$((i + 1))
	done
done
exit 0
