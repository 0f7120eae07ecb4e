#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run.sh: cold sweep-du -s of the aged Linux tree, directory reads one at a
# time (default) or 32 in flight (SWEEP_DEPTH=on), on the emulated disk with
# and without a command queue, ext4 and xfs, scale 1, mq-deadline, 3 rounds.
# Images from ../../tar-btrfs-s1/tools/make-image.sh FS /dev/shm/FS.img.
set -euo pipefail
B=$(cd "$(dirname "$0")/../../../.." && pwd)
M=$B/bench/results/tar-btrfs-s1/tools
for rep in 1 2 3; do
	for fs in ext4 xfs; do
		for class in hdd-ncq hdd; do
			for depth in off on; do
				HDDOPTS=--class=$class "$M/measure.sh" "/dev/shm/$fs.img" 1 mq-deadline \
					"$fs $class $depth" \
					"SWEEP_DEPTH=$depth LD_LIBRARY_PATH=$B/lib/.libs $B/.libs/sweep-du -s tree >/dev/null" 2>&1 |
					tail -1
			done
		done
	done
done
