#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# write-thread.sh: sweep-sync's files go to the copy engine's writer
# thread (src/copy/writer.c) while the walk reads on: a new file is made
# without a name (O_TMPFILE) by the walk, written by the thread and linked
# straight to its name, never under a temporary one; a changed file is
# written the same way, then named .NAME.XXXXXX and renamed over the old
# one by the thread. The copy is rsync -a's all the same (directories'
# times too: their attributes come after their files'), also where links
# to a file without a name are refused (then it goes through a temporary
# name, as below). With a rate limit
# (--bwlimit) the walk writes every file itself, through a temporary file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd rsync
mkdir -p "$T/src/a/b" "$T/src/c"
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 700 + 1)) /dev/urandom > "$T/src/$(echo a a/b c | cut -d' ' -f$((i % 3 + 1)))/f$i"
	i=$((i + 1))
done
touch -d '2001-02-03 04:05:06.5' "$T/src/a" "$T/src/a/b" "$T/src/c" "$T/src"
both "-a of 40 files" -a src/ DST/

command -v strace >/dev/null || skip "needs strace to see which thread writes (the copies compared)"
# The walk's helper threads on: then a file's bytes go to the writer thread
# whether or not the page cache still holds them (other tests of a parallel
# make check drop the caches; cold, on a device not judged to take depth,
# the walk copies each file itself, as on a disk arm: once, 0 of 40 here)
export SWEEP_WARM=on
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
# trace ARGS...: sweep-sync ARGS src/ dst/ traced (dst/ kept when KEEP is
# set); on and off: how many of the calls that name the files (linkat,
# renames, naming .f*.XXXXXX) the walk's thread made and how many
# another thread; made: how many files were made without a name
trace() {
	[ -n "${KEEP:-}" ] || rm -rf "$T/dst"
	strace -f -qq -e trace=openat,linkat,rename,renameat,renameat2,execve -o "$T/trace" \
		"$sweep_tools/sweep-sync" "$@" "$T/src/" "$T/dst/" || fail "sweep-sync $*"
	diff -r "$T/src" "$T/dst" >&2 || fail "sweep-sync $*: not the same"
	main=$(awk '/execve\("[^"]*sweep-sync"/ {p = $1} END {print p}' "$T/trace")
	grep -v 'resumed>' "$T/trace" > "$T/calls"
	made=$(grep -c 'O_TMPFILE' "$T/calls")
}
# count PATTERN: on, off for the calls matching PATTERN, a name (the
# last quoted "f..." or ".f..." in it) counted once a thread (a link
# without AT_EMPTY_PATH's privilege is tried again through /proc)
count() {
	grep -E "$1" "$T/calls" | sed -E 's/^([0-9]+) .*"(\.?f[0-9][^"]*)".*/\1 \2/' | sort -u > "$T/named"
	on=$(grep -c "^$main " "$T/named")
	off=$(grep -vc "^$main " "$T/named")
}
trace -a
[ "$made" = 40 ] || fail "-a: $made of 40 new files made without a name"
count 'O_TMPFILE'
[ "$off" = 0 ] || fail "-a: $off files made without a name by another thread than the walk's"
count '"\.f[0-9]+\.[A-Za-z0-9]{6}"'
[ $((on + off)) = 0 ] || fail "-a: a new file went through a temporary name ($on, $off)"
count 'linkat\(.*"f[0-9]+",'
[ "$on" = 0 ] && [ "$off" = 40 ] || fail "-a: $on files named by the walk's thread, $off by another"

# changed: made and written the same way, renamed over the old copy
sleep 1
for f in a/f0 a/b/f1 c/f2; do
	head -c 1000 /dev/urandom > "$T/src/$f"
done
KEEP=1
trace -a
unset KEEP
[ "$made" = 3 ] || fail "-a, 3 changed: $made files made without a name"
count 'rename.*"\.f[0-9]+\.......", '
[ "$on" = 0 ] && [ "$off" = 3 ] || fail "-a, 3 changed: $on renamed by the walk's thread, $off by another"

# a file system or a security module that will not link a file made
# without a name: such a file is copied again through a temporary name,
# the walk makes no more of them, and the copy is rsync -a's all the same
WRAP="strace -f -qq -o $T/trace -e trace=openat,linkat -e inject=linkat:error=EPERM" \
	both "-a, links refused" -a src/ DST/
made=$(grep -c 'O_TMPFILE' "$T/trace")
refused=$(grep -c 'linkat(.*EPERM' "$T/trace")
[ "$made" -ge 1 ] && [ "$made" -lt 40 ] && [ "$refused" -ge 1 ] ||
	fail "links refused: $made files made without a name, $refused links refused"
[ -z "$(leftovers "$T/O/dst")" ] || fail "links refused: temporary files left: $(leftovers "$T/O/dst")"

trace -a --bwlimit=100000
[ "$made" = 0 ] || fail "--bwlimit: $made files made without a name"
count 'rename'
[ "$off" = 0 ] && [ "$on" = 40 ] || fail "--bwlimit: $on renames on the walk's thread, $off on another"
exit 0
