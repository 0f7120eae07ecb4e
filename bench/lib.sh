# SPDX-License-Identifier: BSD-2-Clause
# bench/lib.sh: shared by bench/run, bench/age, bench/hddsim-validate and
# bench/smoke.sh. Source it after `set -euo pipefail`. It keeps a record of
# every emulator, loop device, mount and trace instance it makes, and
# bench_cleanup (installed on EXIT unless BENCH_NO_TRAP is set) undoes
# whatever is still there, in reverse order of making.
#
#   die MSG / note MSG           one-line error (exit 1) / progress to stderr
#   bench_need_root              refuse, with the reason, unless root
#   hddsim_start IMG MNT OPT...  serve IMG at MNT/disk (stats at MNT/stats)
#   hddsim_stop MNT
#   bench_workdir [TMPFS_SIZE]   make BENCH_WORK (a tmpfs if a size is given)
#   loop_attach FILE             set LOOP_DEV to a new loop device on FILE
#                                (rotational unless LOOP_ROTATIONAL=0)
#
# Functions that make something record it, so call them directly, never in
# $(...): a subshell's records are lost with it.
#   loop_detach DEV
#   set_elevator DEV NAME        none, mq-deadline, kyber or bfq
#   fs_mkfs TYPE DEV / fs_mount DEV MNT OPTS / fs_umount MNT
#                                (ext4: an inode per BENCH_EXT4_INODE_BYTES
#                                of the device if set, for big trees)
#   drop_caches                  sync, then drop page cache, dentries, inodes
#   stats_snap MNT FILE          copy the emulator's counters to FILE
#   stats_diff A B KEY           KEY's growth from snapshot A to snapshot B
#   trace_open DEV / trace_begin / trace_end FILE / trace_close
#                                block_rq_issue events of DEV into FILE
#   trace_seek FILE              print "REQUESTS SEEK_SECTORS" of a trace
#   vm_dirty_set BYTES           writeback from BYTES dirty (background) and
#                                4x BYTES (writers throttled); undone on exit
#   reclaim_state                one line: the machine's proactive reclaim
#                                (DAMON pageout schemes, damon_reclaim)
#   reclaim_pause                turn it off for the run; undone on exit

BENCH_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${SWEEP_BUILD:=$(cd "$BENCH_SRC/.." && pwd)}"
: "${HDDSIM:=$SWEEP_BUILD/bench/hddsim/hddsim}"
# the binaries themselves, not libtool's wrapper scripts: the wrapper's bash
# and seds would be timed with the tool (tests/uninstalled.sh)
. "$BENCH_SRC/../tests/uninstalled.sh"
uninstalled "$SWEEP_BUILD"
SWEEP_TOOLS=$sweep_tools SWEEP_TEST_TOOLS=$sweep_test_tools
BENCH_ME=${0##*/}

die() { echo "$BENCH_ME: $*" >&2; exit 1; }
note() { echo "$BENCH_ME: $*" >&2; }

bench_need_root() {
	[ "$(id -u)" = 0 ] && return 0
	die "must run as root: it creates loop devices, mounts file systems, drops the page cache and reads ftrace events"
}

# Resources still to undo, newest last: "kind<TAB>what<TAB>extra".
_BENCH_RES=()
_res_add() { _BENCH_RES+=("$1"$'\t'"$2"$'\t'"${3:-}"); }
_res_del() {
	local i
	for i in "${!_BENCH_RES[@]}"; do
		case ${_BENCH_RES[i]} in "$1"$'\t'"$2"$'\t'*) unset '_BENCH_RES[i]' ;; esac
	done
	_BENCH_RES=("${_BENCH_RES[@]}")
}

_undo() { # kind what extra
	case $1 in
	mount) umount "$2" 2>/dev/null || umount -l "$2" 2>/dev/null ;;
	loop) losetup -d "$2" 2>/dev/null ;;
	hddsim) _hddsim_kill "$2" "$3" ;;
	trace) _trace_remove "$2" ;;
	dir) rm -rf -- "$2" ;;
	vmdirty) _vm_dirty_restore "$2" ;;
	reclaim | sysval) echo "$3" >"$2" 2>/dev/null ;; # a value written back
	pid) kill "$2" 2>/dev/null ;;
	esac
}

bench_cleanup() {
	local i kind what extra
	for ((i = ${#_BENCH_RES[@]} - 1; i >= 0; i--)); do
		IFS=$'\t' read -r kind what extra <<<"${_BENCH_RES[i]}"
		_undo "$kind" "$what" "$extra" || true
	done
	_BENCH_RES=()
}
if [ -z "${BENCH_NO_TRAP:-}" ]; then
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM HUP
fi

# BENCH_WORK: a directory removed on exit; a tmpfs of the given size if any.
bench_workdir() {
	BENCH_WORK=$(mktemp -d "${TMPDIR:-/tmp}/sweep-bench.XXXXXX") || die "cannot make a work directory"
	_res_add dir "$BENCH_WORK"
	if [ -n "${1:-}" ]; then
		mount -t tmpfs -o "size=$1,mode=0755" sweep-bench "$BENCH_WORK" ||
			die "cannot mount a tmpfs on $BENCH_WORK"
		_res_add mount "$BENCH_WORK"
	fi
}

# ---- the emulated disk ------------------------------------------------------

_hddsim_kill() { # mnt pid
	umount "$1" 2>/dev/null || fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null || true
	local n=0
	while kill -0 "$2" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	kill "$2" 2>/dev/null || true
	wait "$2" 2>/dev/null || true
}

hddsim_start() { # image mnt options...
	local img=$1 mnt=$2 n=0
	shift 2
	[ -x "$HDDSIM" ] || die "$HDDSIM not built: run 'make bench/hddsim/hddsim' (needs libfuse3-dev)"
	mkdir -p "$mnt"
	"$HDDSIM" --image="$img" "$@" -f "$mnt" 2>>"${BENCH_LOG:-/dev/stderr}" &
	local pid=$!
	_res_add hddsim "$mnt" "$pid"
	until [ -e "$mnt/stats" ]; do
		kill -0 "$pid" 2>/dev/null || die "hddsim failed to start (options: $*)"
		[ $n -lt 100 ] || die "hddsim did not mount $mnt within 10 s"
		sleep 0.1
		n=$((n + 1))
	done
}

hddsim_stop() { # mnt
	local i kind what extra
	for i in "${!_BENCH_RES[@]}"; do
		IFS=$'\t' read -r kind what extra <<<"${_BENCH_RES[i]}"
		[ "$kind" = hddsim ] && [ "$what" = "$1" ] || continue
		_hddsim_kill "$what" "$extra"
		_res_del hddsim "$what"
		return 0
	done
}

stats_snap() { cat "$1/stats" >"$2" || die "cannot read $1/stats"; }
stats_diff() { # a b key
	awk -v k="$3" 'FNR == NR { if ($1 == k) a = $2; next } $1 == k { printf "%.0f\n", $2 - a }' "$1" "$2"
}

# ---- loop devices, elevators, file systems -----------------------------------

loop_attach() { # file
	local q
	LOOP_DEV=$(losetup --direct-io=on -f --show "$1") || die "losetup failed on $1"
	_res_add loop "$LOOP_DEV"
	q=/sys/block/${LOOP_DEV#/dev/}/queue
	# A new loop device says rotational 0 with a 2.5 MiB read-ahead; a SATA
	# disk says 1 and 128 KiB. Writing rotational may switch the elevator,
	# so set_elevator must come after.
	echo "${LOOP_ROTATIONAL:-1}" >"$q/rotational"
	echo 128 >"$q/read_ahead_kb"
}

loop_detach() {
	losetup -d "$1" || die "cannot detach $1"
	_res_del loop "$1"
}

set_elevator() { # dev name
	local f=/sys/block/${1#/dev/}/queue/scheduler
	echo "$2" >"$f" 2>/dev/null || die "$1: elevator $2 not available (have: $(cat "$f"))"
	grep -q "\[$2\]" "$f" || die "$1: elevator $2 did not take: $(cat "$f")"
}

fs_mkfs() { # type dev
	case $1 in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard \
		${BENCH_EXT4_INODE_BYTES:+-i "$BENCH_EXT4_INODE_BYTES"} "$2" ;;
	xfs) mkfs.xfs -q -f -K "$2" ;;
	btrfs) mkfs.btrfs -q -f -K "$2" >/dev/null ;;
	*) die "unknown file system: $1" ;;
	esac || die "mkfs.$1 failed on $2"
}

fs_mount() { # dev mnt opts
	mkdir -p "$2"
	mount -o "$3" "$1" "$2" || die "cannot mount $1 on $2 ($3)"
	_res_add mount "$2"
}

fs_umount() {
	umount "$1" || die "cannot unmount $1"
	_res_del mount "$1"
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# ---- tracing: block_rq_issue on one device, in a private ftrace instance ------

_BENCH_TRACE=
_trace_remove() {
	echo 0 2>/dev/null >"$1/events/block/block_rq_issue/enable" || true
	rmdir "$1" 2>/dev/null || true
}

# Returns 1 (after a note) where ftrace cannot be had; the others then do nothing.
trace_open() { # dev
	local tr=/sys/kernel/tracing maj min
	if [ ! -d "$tr/instances" ]; then
		# mounted for good: another bench beside this one may trace too,
		# and an unmount at our exit would take its instance away
		if ! mount -t tracefs nodev "$tr" 2>/dev/null; then
			note "cannot mount tracefs on $tr: no seek figures from the block layer"
			return 1
		fi
	fi
	_BENCH_TRACE=$tr/instances/sweep-bench.$$
	if ! mkdir "$_BENCH_TRACE" 2>/dev/null; then
		note "cannot make ftrace instance $_BENCH_TRACE: no seek figures from the block layer"
		_BENCH_TRACE=
		return 1
	fi
	_res_add trace "$_BENCH_TRACE"
	maj=$((0x$(stat -L -c %t "$1"))) min=$((0x$(stat -L -c %T "$1")))
	echo 32768 >"$_BENCH_TRACE/buffer_size_kb"
	echo "dev == $(((maj << 20) | min))" >"$_BENCH_TRACE/events/block/block_rq_issue/filter"
}

trace_begin() {
	[ -n "$_BENCH_TRACE" ] || return 0
	: >"$_BENCH_TRACE/trace"
	echo 1 >"$_BENCH_TRACE/events/block/block_rq_issue/enable"
}

trace_end() { # file
	: >"$1"
	[ -n "$_BENCH_TRACE" ] || return 0
	# gone (tracefs unmounted by someone else): no figures, but the run goes on
	echo 0 2>/dev/null >"$_BENCH_TRACE/events/block/block_rq_issue/enable" || return 0
	cat "$_BENCH_TRACE/trace" >"$1"
	local lost
	lost=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' "$_BENCH_TRACE"/per_cpu/cpu*/stats)
	[ "$lost" = 0 ] || note "trace lost $lost events: seek figures are partial"
}

trace_close() {
	[ -n "$_BENCH_TRACE" ] || return 0
	_trace_remove "$_BENCH_TRACE"
	_res_del trace "$_BENCH_TRACE"
	_BENCH_TRACE=
}

# Sums |start - end of previous| over dispatched requests, in sectors.
trace_seek() {
	awk '/block_rq_issue:/ {
		for (i = 1; i <= NF; i++) if ($i == "+") break
		if (i > NF) next
		s = $(i - 1); n = $(i + 1)
		if (reqs++) seek += s > end ? s - end : end - s
		end = s + n
	} END { printf "%d %.0f\n", reqs, seek }' "$1"  # %d stops at 2^31 in mawk
}

# ---- writeback thresholds -----------------------------------------------------

_VM=/proc/sys/vm
# Each *_bytes and *_ratio pair is one setting: writing one zeroes the other,
# so the one that was set is written back.
_vm_dirty_restore() { # "bg_bytes bg_ratio bytes ratio"
	local v
	read -ra v <<<"$1"
	if [ "${v[0]}" != 0 ]; then echo "${v[0]}" >$_VM/dirty_background_bytes; else echo "${v[1]}" >$_VM/dirty_background_ratio; fi
	if [ "${v[2]}" != 0 ]; then echo "${v[2]}" >$_VM/dirty_bytes; else echo "${v[3]}" >$_VM/dirty_ratio; fi
}

vm_dirty_set() { # bytes
	local old
	old="$(cat $_VM/dirty_background_bytes $_VM/dirty_background_ratio $_VM/dirty_bytes $_VM/dirty_ratio | tr '\n' ' ')"
	_res_add vmdirty "$old"
	echo $(($1 * 4)) >$_VM/dirty_bytes || die "cannot set vm.dirty_bytes"
	echo "$1" >$_VM/dirty_background_bytes || die "cannot set vm.dirty_background_bytes"
}

# ---- proactive reclaim ----------------------------------------------------------
# Some machines (this VM among them) run DAMON to page out page cache nobody
# touched for a while. A walk reads metadata first and data later: what the
# first phase cached can be gone when the second needs it (btrfs looks up
# each file's extents in leaves read during the metadata phase), which turns
# a sweep back into seeks. Runs say whether it was on, and can pause it.

_DAMON=/sys/kernel/mm/damon/admin/kdamonds
_DAMON_RECLAIM=/sys/module/damon_reclaim/parameters/enabled

# The pageout schemes of running kdamonds, as "kdamond N pages out memory it
# sees idle for S s", and damon_reclaim's switch; "none" without either.
reclaim_state() {
	local k c s age aggr out=
	for k in "$_DAMON"/[0-9]*; do
		[ "$(cat "$k/state" 2>/dev/null)" = on ] || continue
		for s in "$k"/contexts/*/schemes/[0-9]*; do
			[ "$(cat "$s/action" 2>/dev/null)" = pageout ] || continue
			c=${s%/schemes/*}
			age=$(cat "$s/access_pattern/age/min")
			aggr=$(cat "$c/monitoring_attrs/intervals/aggr_us")
			out+="kdamond ${k##*/} pages out memory it sees idle for $((age * aggr / 1000000)) s; "
		done
	done
	[ "$(cat "$_DAMON_RECLAIM" 2>/dev/null)" != Y ] || out+="damon_reclaim on; "
	out=${out%; }
	echo "${out:-none}"
}

reclaim_pause() {
	local k
	for k in "$_DAMON"/[0-9]*; do
		[ "$(cat "$k/state" 2>/dev/null)" = on ] || continue
		echo off >"$k/state" || die "cannot turn $k off"
		_res_add reclaim "$k/state" on
	done
	if [ "$(cat "$_DAMON_RECLAIM" 2>/dev/null)" = Y ]; then
		echo N >"$_DAMON_RECLAIM" || die "cannot turn damon_reclaim off"
		_res_add reclaim "$_DAMON_RECLAIM" Y
	fi
}
