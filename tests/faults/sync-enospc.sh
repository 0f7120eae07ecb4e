#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sync-enospc.sh: a local sweep-sync onto a full file system (a 4 MiB
# tmpfs), its files written by the copy engine's writer thread (the
# default) and by the walk's own thread (--bwlimit keeps them there): the
# file that does not fit is named with the reason, and the run ends there
# with rsync's status (11: its receiver exits at a failed write); the files
# copied are whole, the one that did not fit is not there under its name,
# and no temporary file is left behind. Under --inplace, onto old copies,
# at most the one file that did not fit is cut.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd rsync
mkdir "$T/full" "$T/src" "$T/src/sub"
mount -t tmpfs -o size=4m tmpfs "$T/full" 2>/dev/null || skip "cannot mount a tmpfs here"
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
head -c 6000000 /dev/urandom > "$T/src/sub/big"
for i in 1 2 3 4 5 6 7 8; do
	head -c 20000 /dev/urandom > "$T/src/f$i"
done
for args in -a "-a --bwlimit=1000000"; do
	rm -rf "$T/full/dst"
	rsync $args "$T/src/" "$T/full/dst/" 2>/dev/null
	want=$?
	rm -rf "$T/full/dst"
	sweep-sync $args "$T/src/" "$T/full/dst/" 2> "$T/err"
	status=$?
	[ $status = 11 ] && [ $status = $want ] ||
		{ cat "$T/err" >&2; fail "$args, disk full: status $status, not 11 (rsync's $want)"; }
	grep -qx "sweep-sync: error writing '$T/full/dst/sub/big': No space left on device" "$T/err" ||
		{ cat "$T/err" >&2; fail "$args, disk full: the file and the reason not said"; }
	for i in 1 2 3 4 5 6 7 8; do
		[ ! -e "$T/full/dst/f$i" ] || cmp -s "$T/src/f$i" "$T/full/dst/f$i" ||
			fail "$args, disk full: f$i is not whole"
	done
	[ ! -e "$T/full/dst/sub/big" ] || fail "$args, disk full: big is there under its name"
	[ -z "$(find "$T/full/dst" -name '.*')" ] || fail "$args, disk full: a temporary file was left"
done

# --inplace onto old copies: each file is written where it is, so the one
# that fails is cut; rsync's receiver stops there, and so must the run:
# no other file may be left neither its old self nor its new one (the
# queue of the writer thread once held 16 such files, emptied)
umount "$T/full" && mount -t tmpfs -o size=1m tmpfs "$T/full" || fail "cannot remount the tmpfs"
rm -rf "$T/in" && mkdir "$T/in"
i=0
while [ $i -lt 40 ]; do
	i=$((i + 1))
	head -c 50000 /dev/urandom > "$T/in/f$i"
done
for prog in rsync sweep-sync; do
	rm -rf "$T/full/dst" && mkdir "$T/full/dst"
	for f in "$T/in"/*; do printf 'old\n' > "$T/full/dst/${f##*/}"; done
	touch -d 2001-01-01 "$T/full/dst"/*
	$prog -a --inplace "$T/in/" "$T/full/dst/" 2> "$T/err"
	echo $? > "$T/$prog.status"
	cut=0
	for f in "$T/full/dst"/*; do
		printf 'old\n' | cmp -s - "$f" || cmp -s "$f" "$T/in/${f##*/}" || cut=$((cut + 1))
	done
	[ $cut -le 1 ] || fail "$prog --inplace, disk full: $cut files cut (one at most)"
done
check_same "$T/rsync.status" "$T/sweep-sync.status"

# --append (and --append-verify) onto a copy of big's first MiB that the
# disk cannot hold the rest of: 11 as rsync, the file named, and what the
# copy holds is still the source's first bytes (a later run goes on from
# there), never other bytes
umount "$T/full" && mount -t tmpfs -o size=4m tmpfs "$T/full" || fail "cannot remount the tmpfs"
for opt in --append --append-verify; do
	for prog in rsync sweep-sync; do
		rm -rf "$T/full/dst" && mkdir -p "$T/full/dst/sub"
		head -c 1048576 "$T/src/sub/big" > "$T/full/dst/sub/big"
		$prog -a $opt "$T/src/sub/" "$T/full/dst/sub/" 2> "$T/err"
		echo $? > "$T/$prog.status"
		size=$(stat -c %s "$T/full/dst/sub/big")
		[ "$size" -ge 1048576 ] && cmp -s -n "$size" "$T/src/sub/big" "$T/full/dst/sub/big" ||
			fail "$prog $opt, disk full: the copy is not the source's first $size bytes"
	done
	check_same "$T/rsync.status" "$T/sweep-sync.status"
	grep -q "sweep-sync: error .*'$T/full/dst/sub/big': No space left on device" "$T/err" ||
		{ cat "$T/err" >&2; fail "$opt, disk full: the file and the reason not said"; }
done
exit 0
