#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# btrfs.sh: libsweep on btrfs's own kinds of extents, on a btrfs image in a
# loop device (as root; skipped otherwise).
# - A file small enough to live inline in the metadata has no place on the
#   disk (FIEMAP says 0): it is handed out with the metadata, in flush 0,
#   unplaced, never sorted to the front of the data sweep.
# - A compressed file's extents are contiguous on the disk though FIEMAP
#   gives each its length in the file: one run, not a file split in pieces
#   (the walk's "split" counter stays 0).
# - Plain files are placed by FIEMAP and read in the data sweep (flush 1).
# - sweep-tar's archive of the tree holds the same bytes and metadata as
#   GNU tar's.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd mkfs.btrfs losetup mount tar cmp
grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null || true
grep -qw btrfs /proc/filesystems || skip "this kernel has no btrfs"

m=$T/mnt
trap 'umount "$m" 2>/dev/null; [ -n "${loop:-}" ] && losetup -d "$loop"; rm -rf "$T"' EXIT
truncate -s 256M "$T/img"
mkfs.btrfs -q -f "$T/img" >/dev/null 2>&1 || fail "mkfs.btrfs failed"
loop=$(losetup -f --show "$T/img") || skip "no loop device here"
mkdir "$m"
opts=compress=zlib,max_inline=2048
mount -o "$opts" "$loop" "$m" || skip "cannot mount btrfs with $opts"

t=$m/tree
for d in a b c; do
	mkdir -p "$t/$d"
	head -c 1000 /dev/urandom >"$t/$d/inline"              # inline extent
	yes "line of $d" | head -c 1000000 >"$t/$d/packed"     # 8 compressed extents
	head -c 300000 /dev/urandom >"$t/$d/plain"             # incompressible
done
printf 'x' >"$t/a/tiny"
sync
filefrag -v "$t/a/inline" 2>/dev/null | grep -q inline ||
	skip "btrfs did not keep $t/a/inline inline here"
filefrag -v "$t/a/packed" 2>/dev/null | grep -q encoded ||
	skip "btrfs did not compress $t/a/packed here"

# Cold: a remount drops this file system's cache, and nothing else's.
remount() { umount "$m" && mount -o "$opts" "$loop" "$m" || fail "cannot remount $m"; }
remount
(cd "$m" && walk-dump -r -s tree) >"$T/walk" 2>"$T/stats" || fail "walk-dump failed: $(cat "$T/stats")"
tr '\0' '\n' <"$T/walk" | awk '$1 == "R" { print $7, $3, $4 }' | sort >"$T/files"
awk '
	$1 ~ /inline$|tiny$/ && !($2 == -1 && $3 == 0) { print "inline file " $1 " handed out at place " $2 " in flush " $3 ", not with the metadata (-1, 0)"; bad = 1 }
	$1 ~ /packed$|plain$/ && !($2 > 0 && $3 == 1) { print "extent file " $1 " handed out at place " $2 " in flush " $3 ", not placed in flush 1"; bad = 1 }
	END { exit bad }' "$T/files" >&2 || fail "btrfs files handed out in the wrong phase"
[ "$(wc -l <"$T/files")" = 10 ] || fail "walk-dump handed out $(wc -l <"$T/files") files, not 10"
grep -q ' split 0$' "$T/stats" || fail "a compressed file was split into runs: $(cat "$T/stats")"

# The archive: same names and bytes as GNU tar's (both read cold).
remount
(cd "$m" && sweep-tar -cf "$T/ours.tar" tree) || fail "sweep-tar failed"
remount
(cd "$m" && tar -cf "$T/gnu.tar" tree) || fail "GNU tar failed"
tar -tvf "$T/ours.tar" | sort >"$T/ours.list"
tar -tvf "$T/gnu.tar" | sort >"$T/gnu.list"
check_same "$T/gnu.list" "$T/ours.list"
mkdir "$T/x"
tar -xf "$T/ours.tar" -C "$T/x" || fail "cannot extract sweep-tar's archive"
for f in $(cd "$t" && find . -type f); do
	cmp -s "$t/$f" "$T/x/tree/$f" || fail "tree/$f: sweep-tar archived other bytes"
done
exit 0
