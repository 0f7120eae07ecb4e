#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# write-thread.sh: sweep-cp finishes regular files' copies (data,
# attributes, close) on a thread of its own while the walk reads on. The
# copy is GNU cp -a's with the thread and without (--no-write-thread); the
# data of files of one name is copied off the walk's thread, every byte on
# it with --no-write-thread, with -v (its line comes before the file's
# errors), for files of several names (later names link to them), and
# for files not in the page cache when the walk reads as on a disk arm; a
# write that fails on the thread is said in GNU cp's words, the rest is
# copied and the status is 1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
cp_tree "$T/src"
both "-a, the thread" -a src DST
OUR_ARGS=--no-write-thread both "-a --no-write-thread" -a src DST
TIMES=no both "-r, the thread" -r src DST

mkdir "$T/many"
i=0
while [ $i -lt 60 ]; do
	head -c $((i * 1000 + 1)) /dev/urandom > "$T/many/f$i"
	i=$((i + 1))
done
printf 'two names\n' > "$T/many/linked"
ln "$T/many/linked" "$T/many/linked2"
both "-a of 62 files" -a many DST

command -v strace >/dev/null || skip "needs strace to see which thread copies (the copies compared)"
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
# trace CALL ARGS...: sweep-cp ARGS many dst, CALL traced with paths;
# $main is the walk's thread (the program's, after the wrapper's execve)
trace() {
	call=$1
	shift
	rm -rf "$T/dst"
	strace -f -qq -y -e trace="$call",execve -o "$T/trace" \
		"$sweep_tools/sweep-cp" "$@" "$T/many" "$T/dst" > /dev/null || fail "sweep-cp $*"
	diff -r "$T/many" "$T/dst" >&2 || fail "sweep-cp $*: not the same"
	main=$(awk '/execve\("[^"]*sweep-cp"/ {p = $1} END {print p}' "$T/trace")
}
# off_main PATTERN: how many lines of the trace match, off the walk's thread
off_main() { grep "$1" "$T/trace" | grep -vc "^$main "; }
copies() { grep -c "copy_file_range(" "$T/trace"; }

trace copy_file_range -a
[ "$(copies)" -ge 61 ] || fail "-a: $(copies) copy_file_range calls for 61 files with data"
[ "$(off_main 'copy_file_range(')" -ge 1 ] || fail "-a: every file copied on the walk's thread"
[ "$(off_main '/linked>')" = 0 ] || fail "-a: a file of two names copied off the walk's thread"
for args in "-a --no-write-thread" "-av"; do
	trace copy_file_range $args
	[ "$(copies)" -ge 61 ] || fail "$args: $(copies) copy_file_range calls for 61 files with data"
	[ "$(off_main 'copy_file_range(')" = 0 ] || fail "$args: a file copied off the walk's thread"
done

# Bytes a disk arm must still bring are the walk's own to read, in its
# order, as one I/O context: with the files' pages dropped (dd's nocache),
# a walk without helper threads (as on an arm: SWEEP_WARM=off) copies every
# file itself; with them (on: a device that wants depth) the thread takes
# files all the same.
uncache() {
	sync
	for f in "$T/many"/*; do
		dd if="$f" iflag=nocache count=0 status=none || skip "dd cannot drop a file's pages"
	done
}
uncache
SWEEP_WARM=off trace copy_file_range -a
[ "$(off_main 'copy_file_range(')" = 0 ] || fail "cold, no helpers: a file copied off the walk's thread"
uncache
SWEEP_WARM=on trace copy_file_range -a
[ "$(off_main 'copy_file_range(')" -ge 1 ] || fail "cold, helpers: every file copied on the walk's thread"

# A write that fails on the thread: --sparse=always reads and writes (the
# kernel cannot leave zeros out), so the failing device of tests/faults,
# an LD_PRELOAD shim, sees the writes; GNU cp meets the same fault. Six
# files: the thread's queue (16) is never full, so each is the thread's.
mkdir "$T/few"
for i in 35 36 37 38 39 40; do
	cp "$T/many/f$i" "$T/few/"
done
if ${CC:-cc} -shared -fPIC -o "$T/eio.so" "$top_srcdir/tests/faults/eio-shim.c" -ldl; then
	ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
	WRAP="env LD_PRELOAD=$T/eio.so EIO_WRITE=/dst/f37" TIMES=no \
		both "a failed write" -a --sparse=always few DST
	grep -q "error writing 'X/dst/f37': Input/output error" "$T/OUR.msgs" ||
		fail "a failed write: $(cat "$T/OUR.msgs")"
	grep -qx "status 1" "$T/OUR.out" || fail "a failed write: $(tail -1 "$T/OUR.out")"
	# and it was the thread's: the read of f37 that preceded it is
	rm -rf "$T/dst"
	EIO_WRITE=/dst/f37 strace -f -qq -y -e trace=pread64,read,execve -o "$T/trace" \
		-E LD_PRELOAD="$T/eio.so" "$sweep_tools/sweep-cp" -a --sparse=always \
		"$T/few" "$T/dst" 2> "$T/err" && fail "a failed write exits 0"
	main=$(awk '/execve\("[^"]*sweep-cp"/ {p = $1} END {print p}' "$T/trace")
	[ "$(off_main '/few/f37>')" -ge 1 ] || fail "a failed write: not on the thread"
	grep -q "^sweep-cp: error writing '$T/dst/f37': Input/output error$" "$T/err" ||
		fail "a failed write under strace: $(cat "$T/err")"
else
	echo "SKIP part: cannot build the LD_PRELOAD shim: the failed write not tested" >&2
fi
exit 0
