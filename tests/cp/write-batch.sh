#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# write-batch.sh: sweep-cp --write-batch=SIZE (read a batch, write it out,
# read on): the copy is the same as GNU cp -a's whatever the batch; the
# destination is written out (syncfs) once a batch, and never without the
# option; a bad SIZE is a usage error in GNU's words for sizes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
cp_tree "$T/src"
for batch in 1 4K 64KiB 1M 0; do
	OUR_ARGS=--write-batch=$batch both "-a --write-batch=$batch" -a src DST
done

# Bad sizes: exit 1, nothing copied, the message of du -B's kind.
for bad in 12x -1 '' 99999999999999999999999 1Q; do
	rm -rf "$T/bad"
	sweep-cp --write-batch="$bad" -a "$T/src" "$T/bad" 2> "$T/err" && fail "--write-batch='$bad' taken"
	[ $? = 1 ] || fail "--write-batch='$bad': status"
	[ ! -e "$T/bad" ] || fail "--write-batch='$bad': copied anyway"
	grep -q -- "--write-batch argument" "$T/err" || fail "--write-batch='$bad': $(cat "$T/err")"
	grep -qx "Try 'sweep-cp --help' for more information." "$T/err" || fail "no hint to --help"
done

# How often the destination is written out: 40 files of 16 KiB with a
# batch of 64 KiB make one syncfs every fourth file.
command -v strace >/dev/null || skip "needs strace to count syncfs calls (the copies compared)"
mkdir "$T/even"
i=0
while [ $i -lt 40 ]; do
	head -c 16384 /dev/urandom > "$T/even/f$i"
	i=$((i + 1))
done
syncs() { # ARGS...: the syncfs calls of sweep-cp -a ARGS even
	rm -rf "$T/dst"
	strace -f -qq -e trace=syncfs -o "$T/trace" "$top_builddir/sweep-cp" -a "$@" "$T/even" "$T/dst" ||
		fail "sweep-cp -a $*"
	diff -r "$T/even" "$T/dst" >&2 || fail "sweep-cp -a $*: not the same"
	grep -c 'syncfs(' "$T/trace"
}
[ "$(syncs)" = 0 ] || fail "syncfs without --write-batch"
[ "$(syncs --write-batch=0)" = 0 ] || fail "syncfs with --write-batch=0"
n=$(syncs --write-batch=64K)
[ "$n" = 10 ] || fail "--write-batch=64K: $n syncfs for 40 files of 16 KiB, not 10"
n=$(syncs --write-batch=1)
[ "$n" = 40 ] || fail "--write-batch=1: $n syncfs for 40 files, not 40"
exit 0
