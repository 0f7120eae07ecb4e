#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make-image.sh FS IMG: an image aged as bench/run --age-steps 2 makes it, kept in IMG
# (sparse; put it on a tmpfs) for tools/measure.sh. TREE: the tarball.
set -euo pipefail
FS=$1 OUT=$2
: "${SWEEP_BUILD:=$(cd "$(dirname "$0")/../../../.." && pwd)}"
export SWEEP_BUILD
. "$SWEEP_BUILD/bench/lib.sh"
bench_workdir 12G
W=$BENCH_WORK
hddsim_start "$OUT" "$W/hd" --size=4G --scale=0
loop_attach "$W/hd/disk"
fs_mkfs "$FS" "$LOOP_DEV"
fs_mount "$LOOP_DEV" "$W/m" rw,noatime
mkdir "$W/m/tree"
tar -xJf "${TREE:-/usr/src/linux-source-6.1.tar.xz}" -C "$W/m/tree" # bench/run: through a tmpfs copy
"$SWEEP_BUILD/bench/age" --dir "$W/m/tree" --state "$W/age-state" --steps 2 --seed 1 --churn 10
fs_umount "$W/m"
loop_detach "$LOOP_DEV"
hddsim_stop "$W/hd"
