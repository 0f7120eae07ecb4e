#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# device.sh: sweep_device_rotational() and sweep_device_disk() against
# lsblk: for a file system on a partition of a loop device (made here, as
# root), the disk is the loop device and the answer follows its
# rotational flag both ways; for one on the whole loop device, the device
# itself; for a tmpfs, unknown (-1, 0:0).
. "$top_srcdir/tests/lib.sh"
need_cmd lsblk sfdisk partx losetup mkfs.ext4 mount
need_root

mkdir "$T/tmp" && mount -t tmpfs -o size=1m none "$T/tmp" || skip "cannot mount a tmpfs"
trap 'umount "$T/tmp" 2>/dev/null; umount "$T/mnt" 2>/dev/null; [ -n "${loop:-}" ] && losetup -d "$loop"; rm -rf "$T"' EXIT
[ "$(devinfo "$T/tmp")" = "-1 0:0" ] || fail "tmpfs: $(devinfo "$T/tmp"), not unknown"

truncate -s 40M "$T/img"
printf 'label: dos\nstart=2048, size=30000, type=83\n' | sfdisk -q "$T/img" || fail "sfdisk"
loop=$(losetup -P -f --show "$T/img") || skip "no loop device here"
part=${loop}p1
[ -b "$part" ] || partx -a "$loop" 2>/dev/null # where the kernel's scan made no node
n=0
while [ ! -b "$part" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -b "$part" ] || skip "the loop device's partition did not appear"
mkfs.ext4 -q "$part" && mkdir "$T/mnt" && mount "$part" "$T/mnt" || fail "cannot mount $part"

rota=/sys/block/${loop#/dev/}/queue/rotational
for flag in 1 0; do
	echo $flag > "$rota" || skip "cannot set $rota"
	want="$(lsblk -dno ROTA "$loop" | tr -d ' ') $(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')"
	[ "$(lsblk -no PKNAME "$part")" = "${loop#/dev/}" ] || fail "lsblk sees no disk under $part"
	got=$(devinfo "$T/mnt")
	[ "$got" = "$want" ] || fail "partition, rotational $flag: libsweep says '$got', lsblk '$want'"
done

umount "$T/mnt"
mkfs.ext4 -q -F "$loop" && mount "$loop" "$T/mnt" || fail "cannot mount $loop"
want="$(lsblk -dno ROTA "$loop" | tr -d ' ') $(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')"
got=$(devinfo "$T/mnt")
[ "$got" = "$want" ] || fail "whole device: libsweep says '$got', lsblk '$want'"
exit 0
