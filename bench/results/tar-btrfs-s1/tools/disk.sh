# SPDX-License-Identifier: BSD-2-Clause
# disk.sh IMG SCALE ELEV: sourced by measure.sh and seq.sh after set -euo pipefail:
# serves IMG on the emulated disk at SCALE with elevator ELEV, traced; W is the
# work directory, LOOP_DEV the device. SWEEP_BUILD: a build of sweep with the
# emulator (default: this checkout); HDDOPTS: more emulator options.
: "${SWEEP_BUILD:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)}"
export SWEEP_BUILD
. "$SWEEP_BUILD/bench/lib.sh"
bench_workdir
W=$BENCH_WORK
# shellcheck disable=SC2086
hddsim_start "$1" "$W/hd" --size=4G --scale="$2" ${HDDOPTS:-}
loop_attach "$W/hd/disk"
set_elevator "$LOOP_DEV" "$3"
trace_open "$LOOP_DEV" || true
