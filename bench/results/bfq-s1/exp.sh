#!/bin/bash
# exp.sh populate | exp.sh run LABEL ELEV "HDDSIM OPTS" CMD...
set -euo pipefail
export SWEEP_BUILD=${SWEEP_BUILD:-/work/wt-bfq}
. /work/main/bench/lib.sh
bench_need_root
W=/var/tmp/b19/w
IMG=$W/ext4.img
mkdir -p $W
mountpoint -q $W || mount -t tmpfs -o size=9G tmpfs $W
case $1 in
populate)
	rm -f $IMG; mkdir -p $W/hd $W/m
	hddsim_start $IMG $W/hd --size=4G --scale=0
	loop_attach $W/hd/disk
	fs_mkfs ext4 $LOOP_DEV
	fs_mount $LOOP_DEV $W/m rw,noatime
	[ -d $W/src ] || { mkdir $W/src; tar -xf /usr/src/linux-source-6.1.tar.xz -C $W/src; }
	mkdir $W/m/old $W/m/tree
	(cd $W/src && tar -cf - .) | (cd $W/m/old && tar -xf -)
	/work/wt-bfq/bench/age --dir $W/m/old --thin 33 --seed 1
	(cd $W/src && tar -cf - .) | (cd $W/m/tree && tar -xf -)
	fs_umount $W/m; loop_detach $LOOP_DEV; hddsim_stop $W/hd ;;
run)
	label=$2 elev=$3 opts=$4; shift 4
	mkdir -p $W/hd $W/m /var/tmp/b19/out
	# shellcheck disable=SC2086
	hddsim_start $IMG $W/hd --size=4G --scale=1 $opts
	loop_attach $W/hd/disk
	set_elevator $LOOP_DEV $elev
	trace_open $LOOP_DEV || true
	for ev in block_rq_insert block_rq_complete; do
		cat "$_BENCH_TRACE/events/block/block_rq_issue/filter" | sed 's/^.*dev/dev/' > "$_BENCH_TRACE/events/block/$ev/filter"
		echo 1 > "$_BENCH_TRACE/events/block/$ev/enable"
	done
	# cold without drop_caches (a bench may run beside): a fresh loop
	# device and mount hold nothing of the file system yet
	fs_mount $LOOP_DEV $W/m ro,noatime
	stats_snap $W/hd $W/s0
	trace_begin
	t0=$(date +%s.%N)
	if [ -n "${MEMCG:-}" ]; then
		cg=/sys/fs/cgroup/memory/sweepexp
		mkdir -p $cg; echo "$MEMCG" > $cg/memory.limit_in_bytes
		(cd $W/m && echo $BASHPID > $cg/cgroup.procs && eval "$*") 2>/var/tmp/b19/out/$label.err || echo "rc $?" >>/var/tmp/b19/out/$label.err
	else
		(cd $W/m && eval "$*") 2>/var/tmp/b19/out/$label.err || echo "rc $?" >>/var/tmp/b19/out/$label.err
	fi
	t1=$(date +%s.%N)
	trace_end /var/tmp/b19/out/$label.trace
	stats_snap $W/hd $W/s1
	fs_umount $W/m
	for ev in block_rq_insert block_rq_complete; do echo 0 > "$_BENCH_TRACE/events/block/$ev/enable"; done
	trace_close
	loop_detach $LOOP_DEV; hddsim_stop $W/hd
	printf '%s %s wall %.2f busy %.2f seeks %s reqs %s mib %s trace %s | %s\n' "$label" "$elev" \
		"$(echo "$t1 - $t0" | bc)" "$(echo "$(stats_diff $W/s0 $W/s1 busy_ns) / 1000000000" | bc -l)" \
		"$(stats_diff $W/s0 $W/s1 seeks)" "$(stats_diff $W/s0 $W/s1 requests)" \
		"$(echo "$(stats_diff $W/s0 $W/s1 bytes_read) / 1048576" | bc)" \
		"$(trace_seek /var/tmp/b19/out/$label.trace)" "$(tail -1 /var/tmp/b19/out/$label.err)" | tee -a /var/tmp/b19/results.txt ;;
esac
