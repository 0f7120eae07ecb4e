#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cp-enospc.sh: sweep-cp onto a full file system (a 4 MiB tmpfs) and onto
# a read-only one, beside GNU cp: its messages ("error writing ...: No
# space left on device", "cannot create ...: Read-only file system") and
# exit status 1, the rest copied, and no file under its final name that
# looks whole when it is not (a partial file is left shorter than its
# source, as GNU leaves it); many small files in write batches, each
# file that is not whole named in a message; a file backed up first is
# put back when its copy fails. A set-user-ID program of another user's
# copied with -a that does not fit is left 0700, root's, as GNU leaves it
# (it was left -rws------: root's and set-user-ID).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
need_root
mkdir "$T/mnt"
mount -t tmpfs -o size=4m tmpfs "$T/mnt" 2>/dev/null || skip "cannot mount a tmpfs here"
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT

# no_whole_lies DIR SRC: every file of DIR equals its source, or is a
# shorter prefix of it.
no_whole_lies() {
	find "$1" -type f | while IFS= read -r f; do
		src=$2/${f#"$1"/}
		cmp -s "$f" "$src" && continue
		have=$(stat -c %s "$f") want=$(stat -c %s "$src")
		[ "$have" -lt "$want" ] || fail "$f: $have bytes but not its source's"
		head -c "$have" "$src" | cmp -s - "$f" || fail "$f: not a prefix of its source"
	done || exit 1 # (fail ends only the loop's subshell)
}

# One file larger than the file system: the same message and status.
mkdir "$T/big"
head -c 6000000 /dev/urandom > "$T/big/huge"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	(cd "$T" && $prog -r big "mnt/$side") > "$T/$side.out" 2>&1
	echo "status $?" >> "$T/$side.out"
	sed "s/sweep-cp/cp/; s/$side/X/" "$T/$side.out" > "$T/$side.msgs"
	no_whole_lies "$T/mnt/$side" "$T/big"
	rm -rf "$T/mnt/$side"
done
check_same "$T/GNU.msgs" "$T/OUR.msgs"
chown nobody "$T/big/huge" && chmod 4755 "$T/big/huge"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	(cd "$T" && $prog -a big/huge "mnt/$side") > /dev/null 2>&1
	stat -c '%A %U' "$T/mnt/$side" > "$T/$side.mode"
	rm -f "$T/mnt/$side"
done
check_same "$T/GNU.mode" "$T/OUR.mode" || fail "the mode of a copy that did not fit"

# Many files, more than fits: status 1 as GNU's, every failure named, and
# no file that lies about being whole.
mkdir "$T/many"
for i in 1 2 3 4 5 6; do head -c 1000000 /dev/urandom > "$T/many/f$i"; done
(cd "$T" && sweep-cp -a many mnt/many) 2> "$T/err" && r=0 || r=$?
[ $r = 1 ] || fail "status $r on a full file system, not 1"
grep -q "error writing 'mnt/many/f.': No space left on device" "$T/err" ||
	fail "no write error reported: $(cat "$T/err")"
no_whole_lies "$T/mnt/many" "$T/many"
rm -rf "$T/mnt/many"

# Many small files in write batches (each batch written out before the
# next is read): status 1, and every file that is not whole named in a
# message.
mkdir "$T/smalls"
i=0
while [ $i -lt 150 ]; do head -c 40000 /dev/urandom > "$T/smalls/f$i"; i=$((i + 1)); done
(cd "$T" && sweep-cp -a --write-batch=1M smalls mnt/smalls) 2> "$T/err" && r=0 || r=$?
[ $r = 1 ] || fail "batches of small files: status $r on a full file system, not 1"
no_whole_lies "$T/mnt/smalls" "$T/smalls"
for f in "$T"/smalls/*; do
	n=${f##*/}
	cmp -s "$f" "$T/mnt/smalls/$n" 2>/dev/null && continue
	grep -q "'mnt/smalls/$n'" "$T/err" || fail "$n: not whole, and no message names it"
done
rm -rf "$T/mnt/smalls"

# A copy over a file it backed up (-b) that cannot be finished: the
# backup is put back under the file's name, as GNU cp puts it back, so
# the name keeps its old data, not part of the new; said under -v
mkdir -p "$T/newer"
head -c 1500000 /dev/urandom > "$T/newer/big"
printf 'new\n' > "$T/newer/small"
head -c 500000 /dev/urandom > "$T/oldbig"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	mkdir "$T/mnt/$side"
	cat "$T/oldbig" > "$T/mnt/$side/big"
	printf 'old\n' > "$T/mnt/$side/small"
	head -c 2600000 /dev/zero > "$T/mnt/filler"
	(cd "$T" && $prog -av -b newer/. "mnt/$side") > "$T/$side.out" 2>&1
	echo "status $?" >> "$T/$side.out"
	sed "s/sweep-cp/cp/; s/$side/X/g" "$T/$side.out" | sort > "$T/$side.msgs"
	(cd "$T/mnt/$side" && for f in *; do echo "$f $(cksum < "$f")"; done) > "$T/$side.left"
	rm -rf "$T/mnt/$side" "$T/mnt/filler"
done
check_same "$T/GNU.msgs" "$T/OUR.msgs"
check_same "$T/GNU.left" "$T/OUR.left"

# A read-only destination: the same messages, status 1.
mkdir "$T/mnt/ro"
mount -o remount,ro "$T/mnt"
mkdir -p "$T/small/d"
printf 'x\n' > "$T/small/f"
printf 'y\n' > "$T/small/d/g"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	(cd "$T" && $prog -r small/f small/d "mnt/ro/") > "$T/$side.out" 2>&1
	echo "status $?" >> "$T/$side.out"
	sed "s/sweep-cp/cp/" "$T/$side.out" | sort > "$T/$side.msgs"
done
check_same "$T/GNU.msgs" "$T/OUR.msgs"
