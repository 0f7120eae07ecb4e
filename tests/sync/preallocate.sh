#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# preallocate.sh: --preallocate beside rsync: a file's blocks are all
# allocated before its data is written, a sparse source's holes too (the
# copy takes the space rsync's does; sweep-sync keeps holes without it),
# and not under -S (the holes stay, as rsync punches them); here and
# pushed over a remote shell. Where the file system cannot allocate ahead
# the copy is made all the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src"
truncate -s 8M "$T/src/sparse" && echo x >> "$T/src/sparse"
head -c 100000 /dev/urandom > "$T/src/data"
: > "$T/src/empty"
# blocks DIR: each file's allocated KiB (du), by name
blocks() { (cd "$1" && du -k sparse data empty); }
for opts in "--preallocate" "--preallocate -S"; do
	for how in here push; do
		for prog in rsync sweep-sync; do
			rm -rf "$T/$prog"
			dst=$prog/
			[ $how = push ] && dst=localhost:$prog/
			# shellcheck disable=SC2086
			(cd "$T" && $prog -a $opts -e "$RSH" src/ "$dst") 2> "$T/err" ||
				fail "$prog $opts, $how: $(cat "$T/err")"
			blocks "$T/$prog" > "$T/$prog.blocks"
			for f in sparse data empty; do
				cmp -s "$T/src/$f" "$T/$prog/$f" || fail "$prog $opts, $how: $f differs"
			done
		done
		check_same "$T/rsync.blocks" "$T/sweep-sync.blocks" || fail "$opts, $how: other allocations"
	done
done
exit 0
