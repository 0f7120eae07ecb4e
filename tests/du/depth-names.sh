#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/depth-names.sh: sweep-du keeps no name for what lies below the
# depth it prints (-s, --max-depth): the walk comes in disk order, so it
# holds the tree until the end, and on a deep tree the names were most of
# that, and the nodes of the directories down there (their sizes now go
# to the printed one above). Checked two ways. The lines: against GNU du
# at each depth, on a tree where hard links part below the printed depth
# and above it, so that which name counts (GNU du's walk order, read again
# by sweep-du) involves nameless nodes; with -a, -l, --inodes, -c, -S
# (which keeps each directory's own sizes apart), --time, and -L or two
# arguments (every directory may be counted twice then), and under -L a
# directory met deep in libsweep's order and shallow in GNU's. The memory:
# 16,000 directories with 250-byte names (4 MB of names) two levels down,
# walked without helper threads; `sweep-du -s` must peak at least 2.5 MiB
# under `sweep-du -d 2` of the same tree, which keeps them (not measured
# under AddressSanitizer, whose quarantine holds what is freed).
. "$top_srcdir/tests/lib.sh"
need_cmd du python3
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
command -v sweep-du >/dev/null || fail "sweep-du not built"
cd "$T" || fail "no scratch directory"

# links/: p and q each hold a chain three deep; their bottoms share files
# (one name in each, and two in p's), and a file has a second name right
# under links/ too
mkdir -p links/p/x/y/z links/q/x/y/z links/p/w/v links/r || fail "cannot make the tree"
head -c 40000 /dev/zero > links/p/x/y/z/big && ln links/p/x/y/z/big links/q/x/y/z/big2 &&
	ln links/p/x/y/z/big links/p/w/v/big3 && head -c 9000 /dev/zero > links/q/x/y/z/mid &&
	ln links/q/x/y/z/mid links/r/mid2 && ln links/q/x/y/z/mid links/mid3 &&
	printf 'a' > links/p/x/small || fail "cannot make the links"

# follow/: under -L the directory a/b/c/t is met twice, at depth 4 and
# through x/l at depth 2; made first, it comes first in inode order, while
# GNU du meets x/l first (x before a by name is not what decides: both
# orders are checked, with a second link y/m before a)
mkdir -p follow/a/b/c/t/u follow/x follow/y || fail "cannot make the links to follow"
printf 'one' > follow/a/b/c/t/f1 && head -c 6000 /dev/zero > follow/a/b/c/t/u/f2 &&
	ln follow/a/b/c/t/f1 follow/a/b/c/t/u/f1.link && ln -s ../a/b/c/t follow/x/l &&
	ln -s ../a/b/c/t/u follow/y/m || fail "cannot make the links to follow"

compare_names 's/^du:/sweep-du:/'
check() { compare_run du sweep-du "$@"; }
for opts in -s "-d 1" "-d 2" "-d 3" "-a -d 1" "-a -d 2" "-l -d 1" "--inodes -d 1" \
	"-S -s" "-S -d 1" "-Sa -d 2" "--time -d 1" "-b -d 2" "-L -d 1" "-d 1 links/p" \
	"-c -s links/p links/q"; do
	# shellcheck disable=SC2086 # the options are words
	check $opts links
done
for opts in "-L -d 2" "-L -d 1" "-La -d 2" "-La -d 3" "-L -s" "-LS -d 2" "-La -d 1"; do
	# shellcheck disable=SC2086 # the options are words
	check $opts follow
done
compare_summary "sweep-du on hard links below the depth printed"

if sanitized sweep-du; then
	echo "the memory is not measured under AddressSanitizer"
	exit 0
fi
[ -x /usr/bin/time ] || skip "needs GNU time (package time) for the memory"
python3 - <<'EOF' || fail "cannot make the wide tree"
import os
for i in range(40):
    top = "wide/%02d" % i
    os.makedirs(top)
    for j in range(400):
        os.mkdir("%s/%03d%s" % (top, j, "n" * 247))
EOF
peak() { # peak resident KiB of sweep-du ARGS into rss, its output into out
	SWEEP_WARM=off /usr/bin/time -f %M -o rss sweep-du "$@" > out || fail "sweep-du $* failed"
}
peak -s wide
shallow=$(cat rss)
[ "$(cut -f2 out)" = wide ] || fail "sweep-du -s wide printed: $(head -c 200 out)"
peak -d 2 wide
deep=$(cat rss)
[ "$(wc -l < out)" = 16041 ] || fail "sweep-du -d 2 wide printed $(wc -l < out) lines"
echo "peak resident: sweep-du -s ${shallow} KiB, -d 2 ${deep} KiB"
[ $((shallow + 2560)) -le "$deep" ] ||
	fail "sweep-du -s held the names it does not print: ${shallow} KiB against ${deep} KiB"
