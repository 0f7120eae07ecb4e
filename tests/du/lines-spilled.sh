#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/lines-spilled.sh: sweep-du -a keeps the lines of plain files in
# a bounded chunk and spills full chunks to a temporary file, sorted and
# merged after the walk (src/du/leaves.c). With chunks of 1 byte (a run a
# line), 4 KiB and the default, on the generated tree of tests/tree.sh
# (odd and long names, hard links, a directory of 10,000 entries): the
# same lines as GNU du, as sets, under the options that shape a file's
# line; the same order as the default chunk's; and that order is
# depth-first with siblings by name, as an independent listing has it.
# Where no temporary file can be made ($TMPDIR missing), or it would pass
# the file size limit (ulimit -f) or fill its file system (a tmpfs of 4 KiB,
# as root) midway, the lines stay in memory: the same output, no message,
# status 0. strace shows the runs written.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tree.sh"
need_cmd du python3
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"

make_tree_in_scratch
du -a tree >/dev/null 2>&1 # settle directory access times (relatime)
compare_names 's/^du:/sweep-du:/'

for opts in "-a" "-a --time" "-ab --time=ctime -0" "-a -S --inodes" "-a -t 8K" \
	"-a --max-depth=2" "-ak -t -4K --apparent-size"; do
	for chunk in 1 4096 ""; do
		sorting=""
		case $opts in *-0*) sorting=-z ;; esac
		# shellcheck disable=SC2086 # the options are words
		compare_run $sorting du "env SWEEP_DU_BUFFER_SIZE=$chunk sweep-du" $opts tree
		# shellcheck disable=SC2086
		SWEEP_DU_BUFFER_SIZE=$chunk sweep-du $opts tree > "lines.$chunk" 2>/dev/null
	done
	compare_check "sweep-du $opts tree: the same order with a chunk of 1 byte" \
		cmp -s lines. lines.1
	compare_check "sweep-du $opts tree: the same order with a chunk of 4 KiB" \
		cmp -s lines. lines.4096
done

# The order, against a listing made without sweep-du: every entry,
# depth-first, siblings by name, each directory after its contents; the
# lines printed (a hard link's other names are not) come in that order.
python3 - tree > expected.order <<'PY' || fail "cannot list the tree"
import os, stat, sys
def walk(dfd, path, out):
    for n in sorted(os.listdir(dfd), key=os.fsencode):
        st = os.stat(n, dir_fd=dfd, follow_symlinks=False)
        p = os.path.join(path, n)
        if stat.S_ISDIR(st.st_mode):
            sub = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=dfd)
            walk(sub, p, out)
            os.close(sub)
        else:
            out.append(p)
    out.append(path)
out = []
walk(os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY), sys.argv[1], out)
sys.stdout.buffer.write(b"".join(os.fsencode(p) + b"\0" for p in out))
PY
SWEEP_DU_BUFFER_SIZE=1 sweep-du -a0 tree 2>/dev/null | tr '\0\n' '\n\1' | cut -f2- |
	tr '\n\1' '\0\n' > our.order
python3 - expected.order our.order <<'PY' || compare_failed "sweep-du -a0 tree: order"
import sys
want = open(sys.argv[1], "rb").read().split(b"\0")
ours = open(sys.argv[2], "rb").read().split(b"\0")
printed = set(ours)
if [p for p in want if p in printed] != ours or len(ours) < len(want) // 2:
    sys.exit("sweep-du -a: lines out of depth-first name order")
PY

# No temporary file: in memory, silently
sweep-du -a tree > plain.out 2>/dev/null
SWEEP_DU_BUFFER_SIZE=1 TMPDIR="$T/none" sweep-du -a tree > nofile.out 2> nofile.err
st=$?
compare_check "sweep-du -a without a temporary file: status $st" [ $st = 0 ]
compare_check "sweep-du -a without a temporary file: messages" [ ! -s nofile.err ]
compare_check "sweep-du -a without a temporary file: lines" cmp -s plain.out nofile.out

# Runs spilled indeed: the temporary file is made and written
if command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace: off for the traced run)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	SWEEP_DU_BUFFER_SIZE=4096 strace -f -qq -e trace=openat,pwrite64 -o trace \
		sweep-du -a tree > /dev/null 2>&1
	compare_check "sweep-du -a: a temporary file made" grep -q O_TMPFILE trace
	compare_check "sweep-du -a: runs written to it" \
		[ "$(grep -c '^[0-9]* *pwrite64' trace)" -gt 10 ]
else
	echo "not checked (needs strace): that the lines went to a temporary file"
fi

# A file size limit (ulimit -f) that the temporary file would pass after
# a few runs: no SIGXFSZ, the rest in memory (the output through a pipe)
(ulimit -f 4 && SWEEP_DU_BUFFER_SIZE=100 exec sweep-du -a tree 2> fsize.err) | cat > fsize.out
st=${PIPESTATUS[0]}
compare_check "sweep-du -a under ulimit -f 4: status $st" [ "$st" = 0 ]
compare_check "sweep-du -a under ulimit -f 4: messages" [ ! -s fsize.err ]
compare_check "sweep-du -a under ulimit -f 4: lines" cmp -s plain.out fsize.out

# A temporary file system that fills after a few runs
if [ "$(id -u)" = 0 ] && mkdir small && mount -t tmpfs -o size=4k none small 2>/dev/null; then
	SWEEP_DU_BUFFER_SIZE=1 TMPDIR="$T/small" sweep-du -a tree > full.out 2> full.err
	st=$?
	umount small
	compare_check "sweep-du -a, its temporary file system full: status $st" [ $st = 0 ]
	compare_check "sweep-du -a, its temporary file system full: messages" [ ! -s full.err ]
	compare_check "sweep-du -a, its temporary file system full: lines" cmp -s plain.out full.out
else
	echo "not checked (needs root): a temporary file system that fills"
fi

compare_summary "sweep-du -a with its lines spilled"
