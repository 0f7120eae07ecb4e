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
# source with the tail of the first). Also a destination name that is a
# link to a source file, and a source file written through such a link
# before it is read: each read and written in the walk's order.
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

# A destination name that is a link to a source file the write thread has
# yet to read (y, made first, read first by GNU cp and most often by
# sweep-cp): cut for x's copy, it was read as nothing. d2/y is the old y
# (read first) or x's bytes (read after x's copy went through the link),
# whole either way.
for kind in hard symbolic; do
	for run in 1 2 3; do
		rm -rf "$T/s2" "$T/d2" && mkdir "$T/s2" "$T/d2"
		head -c 100000 /dev/urandom > "$T/s2/y"
		cp "$T/s2/y" "$T/y.orig"
		echo XXXX > "$T/s2/x"
		if [ $kind = hard ]; then ln "$T/s2/y" "$T/d2/x"; else ln -s ../s2/y "$T/d2/x"; fi
		sweep-cp -r "$T/s2/." "$T/d2" || fail "$kind link to a source: status $?"
		cmp -s "$T/d2/y" "$T/y.orig" || { echo XXXX | cmp -s - "$T/d2/y"; } ||
			fail "$kind link to a source, run $run: d2/y is neither y nor x, whole ($(stat -c %s "$T/d2/y") bytes)"
	done
done

# A source that is the destination of a copy still queued (w, written
# through d3/w, a hard link to s3/z), read by the walk itself once the
# queue is full: z must be read after w's copy is whole (d3/z is then w,
# as GNU cp leaves it), or before it began (the old z), never between.
for run in 1 2 3; do
	rm -rf "$T/s3" "$T/d3" && mkdir "$T/s3" "$T/d3"
	head -c 20000000 /dev/urandom > "$T/s3/w"
	i=10
	while [ $i -le 40 ]; do head -c 100000 /dev/urandom > "$T/s3/f$i"; i=$((i + 1)); done
	head -c 50000 /dev/urandom > "$T/s3/z"
	ln "$T/s3/z" "$T/d3/w"
	cp "$T/s3/w" "$T/w.orig"
	cp "$T/s3/z" "$T/z.orig"
	sweep-cp -r "$T/s3/." "$T/d3" || fail "a source written through a link: status $?"
	cmp -s "$T/d3/z" "$T/w.orig" || cmp -s "$T/d3/z" "$T/z.orig" ||
		fail "a source written through a link, run $run: d3/z is neither w nor z, whole ($(stat -c %s "$T/d3/z") bytes)"
done
exit 0
