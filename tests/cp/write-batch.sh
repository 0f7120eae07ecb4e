#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# write-batch.sh: sweep-cp --write-batch=SIZE|auto (read a batch, write it
# out, read on): the copy is the same as GNU cp -a's whatever the batch;
# the destination is written out (syncfs) once a batch, and never with 0;
# auto batches onto a disk that seeks only; a bad SIZE is a usage error in
# GNU's words for sizes. --write-behind: the same copy, each batch written
# out by a thread while the next is read, its failure said all the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
cp_tree "$T/src"
for batch in 1 4K 64KiB 1M 0 auto; do
	OUR_ARGS=--write-batch=$batch both "-a --write-batch=$batch" -a src DST
done
for batch in 1 64KiB; do
	OUR_ARGS="--write-batch=$batch --write-behind" both "-a --write-batch=$batch --write-behind" -a src DST
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
command -v strace >/dev/null || skip "needs strace to see the write-out (the copies compared)"
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
mkdir "$T/even"
i=0
while [ $i -lt 40 ]; do
	head -c 16384 /dev/urandom > "$T/even/f$i"
	i=$((i + 1))
done
trace() { # ARGS...: sweep-cp -a ARGS even dst, traced
	rm -rf "$T/dst"
	strace -f -qq -y -e trace=syncfs,execve -o "$T/trace" \
		"$sweep_tools/sweep-cp" -a "$@" "$T/even" "$T/dst" || fail "sweep-cp -a $*"
	diff -r "$T/even" "$T/dst" >&2 || fail "sweep-cp -a $*: not the same"
}
count() { grep -c "$1(" "$T/trace"; }
trace --write-batch=0
[ "$(count syncfs)" = 0 ] || fail "syncfs with --write-batch=0"
trace --write-batch=64K
[ "$(count syncfs)" = 10 ] || fail "--write-batch=64K: $(count syncfs) syncfs for 40 files of 16 KiB, not 10"
trace --write-batch=1
[ "$(count syncfs)" = 40 ] || fail "--write-batch=1: $(count syncfs) syncfs for 40 files, not 40"
trace --write-batch=64K --write-behind
[ "$(count syncfs)" = 10 ] || fail "--write-behind: $(count syncfs) syncfs for 40 files of 16 KiB, not 10"
[ "$(awk '/syncfs\(/ {print $1}' "$T/trace" | sort -u | wc -l)" = 1 ] ||
	fail "--write-behind: syncfs from more than one thread"
main=$(awk '/execve\(/ {p = $1} END {print p}' "$T/trace") # the program's, after a wrapper's
! grep "syncfs(" "$T/trace" | grep -q "^$main " || fail "--write-behind: syncfs on the walk's own thread"
# auto, the default: a batch onto a disk that seeks, the kernel's writeback elsewhere
rota=$(devinfo "$T" | cut -d' ' -f1)
trace
if [ "$rota" = 1 ]; then
	[ "$(count syncfs)" -ge 1 ] || fail "no batch onto a disk that seeks"
else
	[ "$(count syncfs)" = 0 ] || fail "a batch onto a device that does not seek ($rota)"
fi
mkdir "$T/tmpfs"
if mount -t tmpfs -o size=8m none "$T/tmpfs" 2>/dev/null; then
	rm -rf "$T/dst" && strace -f -qq -e trace=syncfs -o "$T/trace" "$sweep_tools/sweep-cp" -a "$T/even" "$T/tmpfs/dst"
	[ "$(count syncfs)" = 0 ] || fail "a batch onto a tmpfs"
	# onto the mount point itself (-T): its file system is the one
	# judged and written out, not the one of the directory it is in
	rm -rf "$T/tmpfs/dst"
	strace -f -qq -e trace=syncfs -o "$T/trace" "$sweep_tools/sweep-cp" -aT "$T/even" "$T/tmpfs"
	[ "$(count syncfs)" = 0 ] || fail "a batch onto a tmpfs mounted on a disk that seeks"
	strace -f -qq -y -e trace=syncfs -o "$T/trace" "$sweep_tools/sweep-cp" -aT --write-batch=64K \
		"$T/even" "$T/tmpfs"
	[ "$(count syncfs)" = 10 ] || fail "onto a mount point: $(count syncfs) syncfs, not 10"
	[ "$(grep -c "syncfs([0-9]*<$T/tmpfs>" "$T/trace")" = 10 ] ||
		fail "onto a mount point, another file system written out: $(head -1 "$T/trace")"
	umount "$T/tmpfs"
fi
# A batch that cannot be written out (syncfs reports writeback errors):
# said, naming the destination, and the status is 1. The failing device
# is the LD_PRELOAD shim of tests/faults.
if ${CC:-cc} -shared -fPIC -o "$T/eio.so" "$top_srcdir/tests/faults/eio-shim.c" -ldl; then
	rm -rf "$T/dst"
	EIO_SYNCFS=1 LD_PRELOAD="$T/eio.so" ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" \
		sweep-cp -a --write-batch=64K "$T/even" "$T/dst" 2> "$T/err" && fail "a failed write-out exits 0"
	grep -qx "sweep-cp: cannot write '$T/dst' out: Input/output error" "$T/err" ||
		fail "a failed write-out: $(head -2 "$T/err")"
	for behind in "--write-batch=64K --write-behind" "--write-batch=1G --write-behind"; do
		rm -rf "$T/dst"
		EIO_SYNCFS=1 LD_PRELOAD="$T/eio.so" ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0" \
			sweep-cp -a $behind "$T/even" "$T/dst" 2> "$T/err" &&
			fail "$behind: a failed write-out exits 0"
		grep -qx "sweep-cp: cannot write '$T/dst' out: Input/output error" "$T/err" ||
			fail "$behind: a failed write-out: $(head -2 "$T/err")"
	done
else
	echo "SKIP part: cannot build the LD_PRELOAD shim: the failed write-out not tested" >&2
fi
exit 0
