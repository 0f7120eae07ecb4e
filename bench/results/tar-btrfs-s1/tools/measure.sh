#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# measure.sh IMG SCALE ELEV LABEL CMD...: cold run of CMD in the ro mount, on the emulated disk
# env TRACE=file keeps the block trace; HDDOPTS more emulator options; REPS runs
set -euo pipefail
IMG=$1 SCALE=$2 ELEV=$3 LABEL=$4; shift 4
. "$(dirname "$0")/disk.sh" "$IMG" "$SCALE" "$ELEV"
for rep in $(seq 1 "${REPS:-1}"); do
  drop_caches
  fs_mount "$LOOP_DEV" "$W/m" ro,noatime
  stats_snap "$W/hd" "$W/s0"
  trace_begin
  t0=$EPOCHREALTIME
  (cd "$W/m" && eval "$*") >"$W/out" 2>"$W/err" || echo "rc=$? $(head -c 300 "$W/err")"
  t1=$EPOCHREALTIME
  trace_end "$W/trace"
  stats_snap "$W/hd" "$W/s1"
  fs_umount "$W/m"
  [ -z "${TRACE:-}" ] || cp "$W/trace" "$TRACE.$rep"
  [ -z "${KEEPERR:-}" ] || cp "$W/err" "$KEEPERR.$rep"
  printf '%-28s %-11s rep %s wall %7.2f busy %7.2f seek %7.2f rot %7.2f xfer %7.2f seeks %6d MiB %7.1f req %d\n' "$LABEL" "$ELEV" "$rep" \
    "$(echo "$t1 - $t0" | bc)" \
    "$(stats_diff "$W/s0" "$W/s1" busy_ns | awk '{print $1/1e9}')" \
    "$(stats_diff "$W/s0" "$W/s1" seek_ns | awk '{print $1/1e9}')" \
    "$(stats_diff "$W/s0" "$W/s1" rotation_ns | awk '{print $1/1e9}')" \
    "$(stats_diff "$W/s0" "$W/s1" transfer_ns | awk '{print $1/1e9}')" \
    "$(stats_diff "$W/s0" "$W/s1" seeks)" \
    "$(stats_diff "$W/s0" "$W/s1" bytes_read | awk '{print $1/1048576}')" \
    "$(stats_diff "$W/s0" "$W/s1" requests)"
done
trace_close
