#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# write-thread.sh: sweep-sync's files go to the copy engine's writer
# thread (src/copy/writer.c), which makes each temporary file, writes it
# and renames it over its name while the walk reads on; the copy is rsync
# -a's all the same (directories' times too: a rename moves them, so their
# attributes come after their files'). With a rate limit (--bwlimit) the
# walk writes every file itself.
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
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
# renames ARGS...: sweep-sync ARGS src/ dst/ traced; how many renames over
# the files' names the walk's thread made, and how many another thread
renames() {
	rm -rf "$T/dst"
	strace -f -qq -e trace=rename,renameat,renameat2,execve -o "$T/trace" \
		"$top_builddir/sweep-sync" "$@" "$T/src/" "$T/dst/" || fail "sweep-sync $*"
	diff -r "$T/src" "$T/dst" >&2 || fail "sweep-sync $*: not the same"
	main=$(awk '/execve\("[^"]*sweep-sync"/ {p = $1} END {print p}' "$T/trace")
	on=$(grep 'rename' "$T/trace" | grep -v 'resumed>' | grep -c "^$main ")
	off=$(grep 'rename' "$T/trace" | grep -v 'resumed>' | grep -vc "^$main ")
}
renames -a
[ "$off" -ge 1 ] || fail "-a: every file renamed into place by the walk's thread ($on)"
[ $((on + off)) = 40 ] || fail "-a: $((on + off)) renames for 40 files"
renames -a --bwlimit=100000
[ "$off" = 0 ] || fail "--bwlimit: $off files renamed by another thread than the walk's"
exit 0
