#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fsync.sh: --fsync beside rsync: the same tree, and each file written is
# fsync-ed (strace counts one call a regular file sent, none without the
# option), written aside or --inplace, here and pushed over a remote shell
# (the receiving end syncs); an unchanged file is not written, so not
# synced.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd strace
local_rsh
sync_tree "$T/src"
both "--fsync" -a --fsync src/ DST
both "--fsync --inplace" -a --fsync --inplace src/ DST
files=$(find "$T/src" -type f -printf x | wc -c) # (a name holds a newline)

# syncs ARGS...: the fsync calls of sweep-sync ARGS (and its children)
syncs() {
	rm -rf "$T/s.trace"
	# (LeakSanitizer cannot run under ptrace: off for the traced runs)
	(cd "$T" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=fsync,fdatasync -o s.trace sweep-sync "$@") > /dev/null ||
		fail "sweep-sync $*: status $?"
	grep -c 'sync(' "$T/s.trace"
}
for args in "--fsync" "--fsync --inplace" "--fsync -e $RSH"; do
	rm -rf "$T/d"
	dst=d/
	case $args in *-e*) dst=localhost:d/ ;; esac
	n=$(syncs -a $args src/ $dst)
	[ "$n" = "$files" ] || fail "$args: $n fsync calls for $files files"
	n=$(syncs -a $args src/ $dst)
	[ "$n" = 0 ] || fail "$args, nothing changed: $n fsync calls"
done
rm -rf "$T/d"
n=$(syncs -a src/ d/)
[ "$n" = 0 ] || fail "without --fsync: $n fsync calls"
exit 0
