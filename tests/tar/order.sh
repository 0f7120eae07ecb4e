#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# order.sh: the regular files of an archive made in disk order come in
# non-decreasing order of their place in the sweep, as filefrag(8) sees it
# from outside: the first physical block, or for a file of at most 2 MiB in
# 2 to 8 runs apart on the disk the start of the run the sweep reaches last (one flush: the tree is far below the memory bound, and
# one root: each root is walked, and flushed, on its own); and the check can
# fail: the same files in name order are not in block order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd filefrag awk

case $(stat -f -c %T "$T") in
ext2/ext3|xfs|btrfs) ;;
*) skip "$T is on $(stat -f -c %T "$T"), not ext4, xfs or btrfs: no physical order to check" ;;
esac

# 8 directories of 40 files, created in reverse name order and round-robin
# over the directories, so that neither names nor directories follow the
# blocks; sizes from 1 to 40 KiB.
mkdir "$T/src"
for d in 0 1 2 3 4 5 6 7; do mkdir "$T/src/d$d"; done
for i in $(seq 40 -1 1); do
	for d in 7 3 5 1 6 0 4 2; do
		head -c $(( (i * 7 + d * 13) % 40 * 1024 + 1024 )) /dev/zero |
			tr '\0' "$d" > "$T/src/d$d/f$(printf %02d "$i")"
	done
done
sync
# a tail appended to the first file goes past the others on the disk: the
# file comes at its tail, in place of a seek there and back
head -c 4096 /dev/zero | tr '\0' t >> "$T/src/d7/f40"
sync
# libsweep serves files already in the page cache first (nothing to seek
# for), so the files are evicted: clean pages go with POSIX_FADV_DONTNEED.
(cd "$T/src" && for f in d*/f*; do dd if="$f" iflag=nocache count=0 status=none; done)
if command -v fincore > /dev/null 2>&1; then
	resident=$(cd "$T/src" && fincore --noheadings --output=PAGES d*/f* | awk '{ n += $1 } END { print n + 0 }')
	[ "$resident" = 0 ] || skip "could not evict the files from the page cache ($resident pages left)"
fi

# the place of every file in the sweep, "NAME BLOCK"
(cd "$T/src" && filefrag -v d*/f*) | awk '
	function done() {
		if (name != "")
			print name, (runs >= 2 && runs <= 8 && size <= 2097152) ? last : first
	}
	/^File size of / { done(); name = $4; size = $6; runs = 0 }
	/^ *[0-9]+: / {
		lo = $2; sub(/\.\.$/, "", lo); p = $4; sub(/\.\.$/, "", p)
		pe = $5; sub(/:$/, "", pe); le = $3; sub(/:$/, "", le)
		if (runs == 0) { first = last = p; runs = 1 }
		else if (!(p == prev_pe + 1 && lo == prev_le + 1)) {
			runs++
			if (p + 0 > last + 0) last = p
		}
		prev_pe = pe; prev_le = le
	}
	END { done() }' > "$T/blocks"
[ "$(wc -l < "$T/blocks")" = 320 ] || skip "filefrag did not place every file (FIEMAP unsupported?)"

# in_block_order ARCHIVE: whether its regular files come in block order
in_block_order() {
	sweep_tar -tvf "$1" | awk '$1 ~ /^-/ { sub(/^src\//, "", $6); print $6 }' > "$T/order"
	[ "$(wc -l < "$T/order")" = 320 ] || fail "the archive does not hold the 320 files"
	awk 'NR == FNR { block[$1] = $2; next }
	     { b = block[$1] + 0; if (FNR > 1 && b < last) bad = 1; last = b }
	     END { exit bad }' "$T/blocks" "$T/order"
}

evict() {
	(cd "$T/src" && for f in d*/f*; do dd if="$f" iflag=nocache count=0 status=none; done)
}

sweep_tar -cf "$T/disk.tar" --memory-bound=64M -C "$T" src
in_block_order "$T/disk.tar" || fail "files of a disk-order archive are out of block order"

# A list of file names (-T), as backup scripts feed tar from find: read as a
# whole in one sweep, not name by name.
evict
(cd "$T" && ls src/d*/f* | sort -r) > "$T/list"
sweep_tar -cf "$T/list.tar" --memory-bound=64M -C "$T" -T "$T/list"
in_block_order "$T/list.tar" || fail "files named by -T are out of block order"
sweep_tar -cf "$T/name.tar" --sort=name -C "$T" src
in_block_order "$T/name.tar" && fail "name order came out in block order: the check proves nothing"

# The contents are those of the tree whatever the order.
mkdir "$T/x"
tar -xf "$T/disk.tar" -C "$T/x"
manifest "$T/src" > "$T/want"
manifest "$T/x/src" > "$T/got"
check_same "$T/want" "$T/got"
exit 0
