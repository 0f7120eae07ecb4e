#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# diff-swapped.sh: -d on a file that a FIFO replaces between the stat and
# the open (made to happen by the LD_PRELOAD shim swap-on-open.c, in GNU
# tar and sweep-tar alike): the open does not wait for a writer, the FIFO
# reads as GNU tar reads it ("Could only read 0 of ..."), the same output,
# messages and status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar timeout "${CC:-cc}"
build_shim tests/faults/swap-on-open.c

mkdir "$T/src"
# swapped PROG: PROG -d on victim, which the shim makes a FIFO at its open
swapped() {
	rm -f "$T/src/victim"
	seq 1 20000 > "$T/src/victim"
	touch -d '2020-01-01 UTC' "$T/src/victim"
	(cd "$T/src" && tar -cf "$T/d.tar" victim) || return 99
	(cd "$T/src" && SWAP_NAME=victim SWAP_TO=fifo LD_PRELOAD="$T/swap-on-open.so" \
		timeout 20 "$@" -df "$T/d.tar")
}
gnu_swapped() { swapped tar; }
our_swapped() { swapped "$sweep_tools/sweep-tar"; }
compare_run -k gnu_swapped our_swapped || fail "-d, a FIFO in the file's place"
# the shim must have made the swap, or the check says nothing
[ -p "$T/src/victim" ] || fail "the shim did not swap the file"
exit 0
