#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/faults/memcg.sh: in a memory cgroup with little room, libsweep
# flushes its data queue in parts the kernel's caches can hold (what the
# metadata phase read of a file must still be cached when its data phase
# opens it, or it is read again out of the sweep's order), and the walk
# hands out the very same entries as without the limit. Outside any limit
# the tree goes in one flush. Needs root and a memory cgroup (v1 or v2);
# sanitizer builds take more memory than the limit leaves: skipped.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/faults/tree.sh"
need_root
need_cmd python3 ldd
dump=$top_builddir/tests/walk-dump
[ -x "$dump" ] || fail "tests/walk-dump not built"
sanitized walk-dump && skip "a sanitizer build needs more memory than the cgroup gives"
if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	cg=/sys/fs/cgroup/memory/sweep-test.$$ limit=memory.limit_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/sweep-test.$$ limit=memory.max
else
	skip "no memory cgroup controller here"
fi
mkdir "$cg" 2>/dev/null || skip "cannot make a memory cgroup ($cg)"
trap 'rmdir "$cg" 2>/dev/null' EXIT
echo $((16 << 20)) >"$cg/$limit" || fail "cannot limit $cg"

cd "$T" || fail "no scratch directory"
make_limit_tree tree
n=$(find tree -type f | wc -l)
flushes() { sed -n 's/.* flushes \([0-9]*\) .*/\1/p' "$1"; }
# the files' data out of the page cache (theirs only: no drop_caches), so
# that the walk queues them for its data phase instead of reading them as
# cached files at once
evict() {
	python3 - "$1" <<'PY' || fail "cannot evict $1 from the page cache"
import os, sys
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        fd = os.open(os.path.join(d, f), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}

evict tree
"$dump" -r -s tree 2>free.stats | tr '\0' '\n' | cut -d' ' -f1,2,5- | sort >free.out ||
	fail "walk-dump failed: $(cat free.stats)"
[ "$(flushes free.stats)" = 1 ] || fail "$n files without a limit: $(cat free.stats)"

evict tree
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$dump" -r -s tree \
	2>cg.stats | tr '\0' '\n' | cut -d' ' -f1,2,5- | sort >cg.out ||
	fail "walk-dump in the cgroup failed: $(cat cg.stats)"
f=$(flushes cg.stats)
[ -n "$f" ] && [ "$f" -ge 2 ] || fail "$n files in 16 MiB went in one flush: $(cat cg.stats)"
# A file of two names (tree/links) comes whole under the first name the walk
# meets, and which that is follows the order of the walk's flushes: compare
# what came of each inode, and the names of each, apart.
for f in free cg; do
	cut -d' ' -f1-4 $f.out | sort >$f.kinds
	cut -d' ' -f2,5- $f.out | sort >$f.names
done
check_same free.kinds cg.kinds || fail "the walk in the cgroup handed out other entries"
check_same free.names cg.names || fail "the walk in the cgroup handed out other names"
exit 0
