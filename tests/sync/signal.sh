#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# signal.sh: a run interrupted while a file is being written (Ctrl-C, a
# kill, a hang-up) leaves no temporary .NAME.XXXXXX behind and exits 20,
# as rsync does; the files finished before it are whole, and the
# interrupted one is absent or as it was; the directories made have
# their modes, as rsync gives them as it makes them (they were left
# 0700 with -o, or without write for the group and others). The stall comes from an
# LD_PRELOAD shim (stall-shim.c) put into rsync and sweep-sync alike; the
# signal goes to the whole process group, as a terminal sends it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd rsync setsid "${CC:-cc}"
build_shim tests/sync/stall-shim.c

mkdir -p "$T/src/sub/deeper" "$T/src/open"
chmod 0775 "$T/src/sub"
chmod 0777 "$T/src/open"
printf 'small\n' > "$T/src/a-small"
head -c 300000 /dev/urandom > "$T/src/sub/big"

for sig in INT TERM HUP; do
	rm -rf "$T/gnu" "$T/our"
	interrupt rsync $sig rsync -a "$T/src/" "$T/gnu/"
	interrupt our $sig "$sweep_tools/sweep-sync" -a "$T/src/" "$T/our/"
	[ "$(cat "$T/rsync.status")" = 20 ] || fail "SIG$sig: rsync exited $(cat "$T/rsync.status"), not 20 (this test's idea of rsync is wrong)"
	[ "$(cat "$T/our.status")" = 20 ] || fail "SIG$sig: sweep-sync exited $(cat "$T/our.status"), not 20"
	grep -q "received SIGINT, SIGTERM, or SIGHUP (code 20)" "$T/our.err" ||
		fail "SIG$sig: sweep-sync said: $(cat "$T/our.err")"
	[ -z "$(leftovers "$T/gnu")" ] || fail "SIG$sig: rsync left $(leftovers "$T/gnu") (this test's idea of rsync is wrong)"
	[ -z "$(leftovers "$T/our")" ] || fail "SIG$sig: sweep-sync left $(leftovers "$T/our")"
	[ ! -e "$T/our/sub/big" ] || fail "SIG$sig: the interrupted file is there"
	for side in gnu our; do
		(cd "$T/$side" && find . -type d -printf '%m %p\n' | sort -k2) > "$T/$side.modes"
	done
	check_same "$T/gnu.modes" "$T/our.modes" || fail "SIG$sig: the directories' modes"
	if [ -e "$T/our/a-small" ]; then
		check_same "$T/src/a-small" "$T/our/a-small"
	fi
done
exit 0
