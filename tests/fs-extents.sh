#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fs-extents.sh: libsweep on the kinds of extents btrfs and ext4 have beside
# plain ones, on images in loop devices (as root; skipped otherwise).
# - A file small enough to live inline in the metadata has no place on the
#   disk (FIEMAP says 0): it is handed out with the metadata, in flush 0,
#   unplaced, never sorted to the front of the data sweep.
# - A compressed file's extents are contiguous on the disk though FIEMAP
#   gives each its length in the file: one run, not a file split in pieces
#   (the walk's "split" counter counts only the files whose extents filefrag
#   shows apart: btrfs may place a file's pieces out of order on a busy
#   machine, a plain file's as well as a compressed one's, which is why each
#   compressed piece is written and synced apart).
# - Plain files are placed by FIEMAP and read in the data sweep (flush 1).
# - sweep-tar's archive of the tree holds the same bytes and metadata as
#   GNU tar's.
# - ext4 with inline_data: a small file kept in its inode is handed out with
#   the metadata too (FIEMAP gives it the inode's place, not a data block).
# - sweep-cp --reflink=never on btrfs writes a copy of its own, as GNU cp's:
#   none of its blocks shared (copy_file_range cloned them there).
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup mount tar cmp filefrag mkfs.ext4

m=$T/mnt
mkdir "$m"
trap 'umount "$m" 2>/dev/null; [ -n "${loop:-}" ] && losetup -d "$loop"; rm -rf "$T"' EXIT

# phases FILE: walk-dump -r of $m/tree, cold (a remount drops this file
# system's cache, and nothing else's), must hand out the files whose names end
# in "inline" or "tiny" unplaced in flush 0 (with the metadata), the others
# placed in flush 1 (the data sweep), FILE files in all.
remount() { umount "$m" && mount -o "$opts" "$loop" "$m" || fail "cannot remount $m"; }
phases() {
	remount
	(cd "$m" && walk-dump -r -s tree) >"$T/walk" 2>"$T/stats" || fail "walk-dump failed: $(cat "$T/stats")"
	tr '\0' '\n' <"$T/walk" | awk '$1 == "R" { print $7, $3, $4 }' | sort >"$T/files"
	awk '
		$1 ~ /inline$|tiny$/ && !($2 == -1 && $3 == 0) { print "inline file " $1 " handed out at place " $2 " in flush " $3 ", not with the metadata (-1, 0)"; bad = 1 }
		$1 !~ /inline$|tiny$/ && !($2 > 0 && $3 == 1) { print "extent file " $1 " handed out at place " $2 " in flush " $3 ", not placed in flush 1"; bad = 1 }
		END { exit bad }' "$T/files" >&2 || fail "$fs: files handed out in the wrong phase"
	[ "$(wc -l <"$T/files")" = "$1" ] || fail "$fs: walk-dump handed out $(wc -l <"$T/files") files, not $1"
}

# ext4 with inline_data; where this system cannot make one, that part is
# skipped (said on stderr) and btrfs still checked
part_skip() { echo "SKIP (ext4 part): $*" >&2; return 0; }
ext4_inline() {
	fs=ext4 opts=rw
	truncate -s 32M "$T/img4"
	mkfs.ext4 -q -O inline_data "$T/img4" 2>/dev/null || { part_skip "mkfs.ext4 has no inline_data"; return; }
	loop=$(losetup -f --show "$T/img4") || skip "no loop device here"
	mount -o "$opts" "$loop" "$m" || { part_skip "cannot mount ext4 with inline_data"; return; }
	mkdir "$m/tree"
	printf 'small enough for the inode' >"$m/tree/inline"
	head -c 300000 /dev/urandom >"$m/tree/plain"
	sync
	if filefrag -v "$m/tree/inline" 2>/dev/null | grep -q inline; then
		phases 2
	else
		part_skip "ext4 did not keep tree/inline inline"
	fi
	umount "$m"
}
ext4_inline
[ -z "${loop:-}" ] || losetup -d "$loop"
loop=

# btrfs
need_cmd mkfs.btrfs
grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null || true
grep -qw btrfs /proc/filesystems || skip "this kernel has no btrfs"
fs=btrfs
truncate -s 256M "$T/img"
mkfs.btrfs -q -f "$T/img" >/dev/null 2>&1 || fail "mkfs.btrfs failed"
loop=$(losetup -f --show "$T/img") || skip "no loop device here"
opts=compress=zlib,max_inline=2048
mount -o "$opts" "$loop" "$m" || skip "cannot mount btrfs with $opts"

t=$m/tree
for d in a b c; do
	mkdir -p "$t/$d"
	head -c 1000 /dev/urandom >"$t/$d/inline"              # inline extent
	for i in 1 2 3 4 5 6 7 8; do                           # 8 compressed extents
		yes "line of $d" | head -c 131072 >>"$t/$d/packed"
		sync "$t/$d/packed"
	done
	head -c 300000 /dev/urandom >"$t/$d/plain"             # incompressible
done
printf 'x' >"$t/a/tiny"
sync
filefrag -v "$t/a/inline" 2>/dev/null | grep -q inline ||
	skip "btrfs did not keep $t/a/inline inline here"
filefrag -v "$t/a/packed" 2>/dev/null | grep -q encoded ||
	skip "btrfs did not compress $t/a/packed here"

# apart FILE: 1 when libsweep is to split FILE (runs.c): 2 to 8 runs, where
# an extent that follows the one before in the file starts a new run unless it
# follows it on the disk too, or both are compressed and it starts inside the
# one before's span (a compressed extent takes at most its length in the file
# there: place.c's rule, read off filefrag's blocks), else 0.
apart() {
	filefrag -v "$1" | awk '
		/^ *[0-9]+:/ {
			enc = /encoded/
			gsub(/\.\./, " "); gsub(/:/, " ")
			if (!n++ || !($2 == l + len && ($4 == p + len || (enc && penc && $4 > p && $4 <= p + len))))
				runs++
			l = $2; p = $4; len = $6; penc = enc
		}
		END { print (runs >= 2 && runs <= 8) }'
}
phases 10
want=0
for d in a b c; do
	for f in packed plain; do want=$((want + $(apart "$t/$d/$f"))); done
done
grep -q " split $want " "$T/stats" ||
	fail "files split into runs where filefrag shows $want apart: $(cat "$T/stats")"

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

# --reflink=never: no block shared with the source (btrfs's own count)
if command -v btrfs >/dev/null; then
	head -c 4000000 /dev/urandom > "$m/own"
	for prog in cp sweep-cp; do
		$prog --reflink=never "$m/own" "$m/own.$prog" || fail "$prog --reflink=never"
		sync
		btrfs filesystem du -s --raw "$m/own.$prog" | awk 'NR == 2 { print $1, $2 }' > "$T/$prog.du"
	done
	check_same "$T/cp.du" "$T/sweep-cp.du" || fail "--reflink=never: blocks shared"
else
	echo "SKIP part: no btrfs command to count shared blocks" >&2
fi
exit 0
