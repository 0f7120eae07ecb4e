#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# seq.sh IMG SCALE CMD1 CMD2 ...: one cold mount, the commands one after another, metadata/data requests of each
set -euo pipefail
IMG=$1 SCALE=$2; shift 2
. "$(dirname "$0")/disk.sh" "$IMG" "$SCALE" none
drop_caches
fs_mount "$LOOP_DEV" "$W/m" ro,noatime
k=0
for c in "$@"; do
  k=$((k+1))
  trace_begin
  t0=$EPOCHREALTIME
  (cd "$W/m" && eval "$c") >/dev/null 2>"$W/err" || echo "rc=$? $(head -c 300 "$W/err")"
  t1=$EPOCHREALTIME
  trace_end "$W/trace"
  [ -z "${TRACE:-}" ] || cp "$W/trace" "$TRACE.$k"
  echo "cmd $k: $(echo "$t1 - $t0" | bc) s; $(awk '/block_rq_issue:/{for(i=1;i<=NF;i++) if($i=="+")break; if($(i-4)~/M/){m++;ms+=$(i+1)} else {d++;ds+=$(i+1)}} END{printf "meta %d req %.1f MiB, data %d req %.1f MiB", m, ms/2048, d, ds/2048}' "$W/trace"); $(grep -E '^(Buffers|Cached)' /proc/meminfo | tr -s ' ' | tr '\n' ' ')  [$c]"
done
fs_umount "$W/m"
trace_close
