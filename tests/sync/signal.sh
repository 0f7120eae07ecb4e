#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# signal.sh: a run interrupted while a file is being written (Ctrl-C, a
# kill, a hang-up) leaves no temporary .NAME.XXXXXX behind and exits 20,
# as rsync does; the files finished before it are whole, and the
# interrupted one is absent or as it was. The stall comes from an
# LD_PRELOAD shim (stall-shim.c) put into rsync and sweep-sync alike; the
# signal goes to the whole process group, as a terminal sends it.
. "$top_srcdir/tests/lib.sh"
need_cmd rsync setsid "${CC:-cc}"
build_shim tests/sync/stall-shim.c

mkdir -p "$T/src/sub"
printf 'small\n' > "$T/src/a-small"
head -c 300000 /dev/urandom > "$T/src/sub/big"

# interrupt NAME SIGNAL PROG ARGS...: PROG ARGS in its own process group,
# stalled in its first write to sub/big (its temporary file); SIGNAL sent
# to the group once it is there. The status and messages go to
# NAME.status and NAME.err.
interrupt() {
	name=$1 sig=$2
	shift 2
	rm -f "$T/mark" "$T/leader"
	# setsid forks when it leads a group already; -w waits for the program
	# and exits with its status, and the leader writes its pid down
	STALL_NAME=/sub/.big. STALL_MARK="$T/mark" LD_PRELOAD="$T/stall-shim.so" \
		setsid -w sh -c 'echo $$ > "$0"; exec "$@"' "$T/leader" "$@" 2> "$T/$name.err" &
	pid=$!
	n=0
	while { [ ! -e "$T/mark" ] || [ ! -s "$T/leader" ]; } && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	group=$(cat "$T/leader")
	[ -e "$T/mark" ] || { /bin/kill -s KILL -- -"$group"; fail "$name: never wrote big"; }
	/bin/kill -s "$sig" -- -"$group"
	wait $pid
	echo $? > "$T/$name.status"
}

# leftovers DIR: the temporary files left in DIR
leftovers() { find "$1" -name '.*.*' -type f | sed "s|$1/||"; }

for sig in INT TERM HUP; do
	rm -rf "$T/gnu" "$T/our"
	interrupt rsync $sig rsync -a "$T/src/" "$T/gnu/"
	interrupt our $sig "$top_builddir/sweep-sync" -a "$T/src/" "$T/our/"
	[ "$(cat "$T/rsync.status")" = 20 ] || fail "SIG$sig: rsync exited $(cat "$T/rsync.status"), not 20 (this test's idea of rsync is wrong)"
	[ "$(cat "$T/our.status")" = 20 ] || fail "SIG$sig: sweep-sync exited $(cat "$T/our.status"), not 20"
	grep -q "received SIGINT, SIGTERM, or SIGHUP (code 20)" "$T/our.err" ||
		fail "SIG$sig: sweep-sync said: $(cat "$T/our.err")"
	[ -z "$(leftovers "$T/gnu")" ] || fail "SIG$sig: rsync left $(leftovers "$T/gnu") (this test's idea of rsync is wrong)"
	[ -z "$(leftovers "$T/our")" ] || fail "SIG$sig: sweep-sync left $(leftovers "$T/our")"
	[ ! -e "$T/our/sub/big" ] || fail "SIG$sig: the interrupted file is there"
	if [ -e "$T/our/a-small" ]; then
		check_same "$T/src/a-small" "$T/our/a-small"
	fi
done
exit 0
