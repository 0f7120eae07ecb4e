#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/compare.sh: sweep-du against GNU du, option combination by
# option combination, on the generated tree of tests/tree.sh (hard
# links, symbolic links and loops, sparse files, deep and odd names, a
# directory of 10,000 entries, a mount point when run as root). GNU du
# prints siblings in directory order and sweep-du by name, so the lines
# are compared as sets; messages likewise, and the exit status exactly.
# As root, a file of the tmpfs is bind-mounted on a name outside it: -x
# leaves it out, as GNU du does (it was counted: libsweep keeps out only
# the directories of other file systems). --exclude leaves out what could
# not be looked at without a word (a missing operand, a link that loops
# under -L: they were said, exit 1).
# Then: the order of sweep-du's lines is checked against an independent
# depth-first, name-sorted listing, and is the same whatever the walk order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tree.sh"
need_cmd du python3
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"

make_tree_in_scratch
if [ -n "$mount_point" ] && : > tree/bound && mount --bind tree/mnt/in/f tree/bound 2>/dev/null; then
	trap 'umount "$T/tree/bound"; cleanup_tree_scratch' EXIT
else
	rm -f tree/bound
	echo "note: no file bind-mounted in the tree (needs root and a mount point)" >&2
fi
printf '*.link\n  \nbig  \ns5*\n' > patterns
du -a tree >/dev/null 2>&1 # settle directory access times (relatime) for --time=atime

# check ARGS...: same lines (as sets), same messages, same status;
# check_nul ARGS...: the lines end in NUL
compare_names 's/^du:/sweep-du:/; s/du --help/sweep-du --help/'
check() { compare_run du sweep-du "$@"; }
check_nul() { compare_run -z du sweep-du "$@"; }

# Every option alone and in the combinations people use, on the whole tree.
while read -r opts; do
	# shellcheck disable=SC2086 # the options are words
	check $opts tree
done <<'LIST'

-a
-s
-c
-h
--si
-k
-m
-b
-B 1K
-BM
-BKB
-BKiB
-B 3
-B 1000
-B 010
--block-size=1M
--apparent-size
-a --apparent-size
-ab
-ah --apparent-size
-ac -h
-ak --si
-x
-ax
-d 0
-d 1
--max-depth=3
-a -d 2
-H
-P
-l
-al
-als
-S
-aS
-Sc
-t 8K
-t -4K
-a -t 1M
-a -t -1
-h -t 1M
--inodes
-a --inodes
--inodes -h
--inodes -c -d 1
--time
-a --time
--time=atime
--time=ctime
--time=access
--time=status -a
--time --time-style=full-iso
--time --time-style=iso
--time --time-style=long-iso
--time --time-style=+%s.%N
--time --time-style=+%Y-%m-%d_%H
--time --time-style=+%3N|%-N|%_5N|%12N|%-3N|%q|%3q|%-q|%:z|%::z|%:::z|%%N|%-d|%^a|%Ez
-a --time --time-style=+%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N%N
--time --time-style=+%
--exclude=*.link -a
--exclude=big
--exclude=odd -a
--exclude=tree
--exclude=sub --exclude=a
--exclude=gone gone
-X patterns -a
-X patterns -ac
-s -d 0
LIST

# -A: newer coreutils' short form of --apparent-size (GNU du 9.1 has none)
for opts in "" -a "-s -h" "-ab" "-a --inodes"; do
	# shellcheck disable=SC2086 # the options are words
	compare_run "du --apparent-size" "sweep-du -A" $opts tree
done

# NUL-terminated lines: names with newlines stay whole
check_nul -0 tree
check_nul -a0 tree
check_nul -a0 --apparent-size -h tree

# following links: GNU du -L cannot reach below PATH_MAX, so not the deep part
for L in -L -H -P; do
	check $L -a tree/a tree/sub tree/links tree/big tree/odd
	check $L tree/links/to-dir tree/links/to-file tree/links/dangling tree/links/self
	check $L -s tree/links/to-dir/ tree/links/up
	check $L -c -a tree/links/chain tree/links/to-b tree/a
done
check -aL tree/links
check -aLl tree/links tree/sub
check -L --inodes tree/links tree/sub

# the unit from the environment: DU_BLOCK_SIZE, else BLOCK_SIZE, else
# BLOCKSIZE (the first set, valid or not); a number with a bad suffix, or
# too large, is taken as far as it reads, as GNU takes it (it was 1024)
for spec in 4X 2KX 1k x 0 -1 "'1k" 3.5K 99999999999999999999999 8EX "'4X" 2KiBX "'h" \
	human-readable si KB MiB; do
	for var in DU_BLOCK_SIZE BLOCK_SIZE BLOCKSIZE; do
		export "$var=$spec"
		check -s tree
		unset "$var"
	done
done
check_env() { _env=$1; shift; compare_run "env $_env du" "env $_env sweep-du" "$@"; }
check_env "BLOCK_SIZE=2K DU_BLOCK_SIZE=bad" -s tree
check_env "BLOCK_SIZE=2K BLOCKSIZE=4K" -s tree
check_env POSIXLY_CORRECT=1 -s tree
check_env "POSIXLY_CORRECT=1 BLOCKSIZE=5X" -s tree

# several arguments: every file counted once, the first argument first
check -a tree/sub tree/links
check -a tree/links tree/sub tree/a
check tree tree/sub
check tree/sub tree
check tree tree
check -c tree/a tree/a/b tree/a
check -ac tree/big tree/sub tree/a/b
check -al tree/links tree/sub
check -sc tree/a tree/sub tree/links
check -c tree/a/one tree/a/one tree/sub/f tree/sub/f.link
check --inodes -c tree/sub tree/links

# names from a file
printf 'tree/sub\0tree/a\0tree/sub\0' > names0
printf 'tree/sub\0\0tree/a' > names0-empty
check --files0-from=names0
check -c --files0-from=names0-empty
check --files0-from=names0 tree
check --files0-from=nowhere
# "-" in names read from standard input is refused, the others are walked
from_stdin() { printf 'tree/sub\0-\0tree/a\0\0-\0' | "$@"; }
compare_run "from_stdin du" "from_stdin sweep-du" --files0-from=-
compare_run "from_stdin du" "from_stdin sweep-du" -s --files0-from=-
printf 'tree/sub\0-\0' > names0-dash
check --files0-from=names0-dash
check -D tree/links/to-dir tree/links/to-file

# odd arguments
check tree/
check tree//a
check tree/a//
check -a tree/a///
check -H tree/links/to-dir//
check tree/sub/f//
printf 'tree/a//\0' > names0-slashes
check --files0-from=names0-slashes
check -a tree/odd
check -s tree/deep
check tree/nowhere tree/sub
check '' tree/sub
check -a tree/odd/"$(printf 'new\nline')" tree/odd/"$(printf 'bad\351utf8')"
(cd tree && check -s . && check -a sub)

# bad options: GNU's message and status
check -q tree
# (a size's argument in plain quotes, as it is, in a UTF-8 locale too)
export LC_ALL=C.UTF-8
check -B x tree
check -t 'x y' tree
check --block-size=99999Y tree
check -B 1Q tree
export LC_ALL=C
check --foo tree
check --s tree
check --t tree
check --d tree
check --exclude
check -L --exclude=self --exclude=dangling tree/links/self tree/links/dangling tree/odd
# sizes that add up past 2^64 - 1 (sparse files of 2^63 - 1 bytes, which
# tmpfs holds): GNU's "Infinity" (they wrapped round to a small number)
if [ -n "$mount_point" ] && mkdir tree/mnt/huge &&
	truncate -s 9223372036854775807 tree/mnt/huge/f1 tree/mnt/huge/f2 tree/mnt/huge/f3; then
	check -b -c tree/mnt/huge
	check -ab --si tree/mnt/huge
	check -s --apparent-size -h tree/mnt/huge tree/mnt/huge/f1
	rm -r tree/mnt/huge
else
	echo "note: sizes past 2^64 not checked (needs root and a tmpfs)" >&2
fi
check -as tree
check -s -d 1 tree
check -d x tree
check -d -1 tree
check -B 0 tree
check -B x tree
check -B 1Q tree
check -B 99999999999999999999999 tree
# a size of 0 read before a bad suffix is GNU's "invalid", not "invalid suffix"
for b in 08 0x 09K 0K; do
	check -B "$b" tree
done
check --block-size=x tree
check -t x tree
check -t -0 tree
# a sign as strtoimax() takes it: a digit right after it ("- 4", "-K" are
# invalid), the most negative number taken, "-0" only at the very start
# (they were accepted, refused, and refused)
for t in '- 4' -K '- 5' -9223372036854775808 -9223372036854775809 -8E -9E ' -0' ' - 0' \
	--4 -+4 +4; do
	check -t "$t" tree
done
check --threshold=1p tree
check --time=foo tree
check --time-style=foo --time tree
check --apparent-size=3 tree
check -X nowhere tree

# standard output that cannot be written: full, or closed
stdout_full() { "$@" > /dev/full; }
stdout_closed() { "$@" >&-; }
for redir in full closed; do
	compare_run -k "stdout_$redir du" "stdout_$redir sweep-du" -a tree
done

# The order: depth-first, siblings by name, each directory after its
# contents; checked against a listing made independently of sweep-du.
python3 - tree > expected.order <<'PY' || fail "cannot list the tree"
import os, stat, sys
# directories opened relative to their parent: paths may exceed PATH_MAX
def walk(dfd, path, out):
    for n in sorted(os.listdir(dfd), key=os.fsencode):
        st = os.stat(n, dir_fd=dfd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            sub = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=dfd)
            walk(sub, os.path.join(path, n), out)
            os.close(sub)
    out.append(path)
out = []
walk(os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY), sys.argv[1], out)
sys.stdout.buffer.write(b"".join(os.fsencode(p) + b"\0" for p in out))
PY
sweep-du -0 tree 2>/dev/null | tr '\0\n' '\n\1' | cut -f2- | tr '\n\1' '\0\n' > our.order
compare_check "du -0 tree (order of lines)" cmp -s expected.order our.order
for order in disk inode name none; do
	SWEEP_ORDER=$order sweep-du -a0 tree > order.$order 2>/dev/null
	compare_check "du -a0 tree (with SWEEP_ORDER=$order)" cmp -s order.disk order.$order
done

# With libsweep's helper threads, which start by themselves only on a cold
# cache: in inode order the walk then takes their stats and their reads of
# directories, and serves names straight from their tasks.
for order in inode disk name; do
	export SWEEP_WARM=on SWEEP_ORDER=$order
	check_nul -a0 tree
	check_nul -a0 --apparent-size -b tree
	check_nul -a0 --inodes tree
	check_nul -a0 -l --time tree
	check_nul -a0 -L tree/links
	check -s -c tree tree/a
done
unset SWEEP_WARM SWEEP_ORDER

compare_summary "sweep-du against GNU du"
