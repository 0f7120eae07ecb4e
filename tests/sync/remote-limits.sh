#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remote-limits.sh: --timeout and --bwlimit over a remote shell, beside
# rsync over the same one. A run that goes on is the same as rsync's with
# them; a far end that never answers (a remote shell that only sleeps)
# ends either direction after the timeout with rsync's words: "[Receiver]"
# for the near end of a pull, "[sender]" for that of a push, status 30. A
# limit so low that the data takes longer than the timeout is no timeout
# at either end (bytes move a quarter second's worth at a time), and the
# data takes the time the limit gives it, pushed or pulled.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
local_rsh
E=$RSH

both "push --timeout --bwlimit" -ai --timeout=30 --bwlimit=10m -e "$E" src/ localhost:DST
both "pull --timeout --bwlimit" -ai --timeout=30 --bwlimit=10m -e "$E" localhost:src/ DST

# a far end that never speaks: the shell sleeps instead of running it
MUTE=$T/mute-rsh
printf '#!/bin/sh\nexec sleep 60\n' > "$MUTE"
chmod +x "$MUTE"
NO_TREE=1 both "pull from a mute far end" -a --timeout=2 -e "$MUTE" localhost:src/ DST
grep -q '^\[Receiver\] io timeout after 2 seconds -- exiting$' "$T/O.err" &&
	grep -q '^status 30$' "$T/O.out" || fail "pull from a mute far end: $(cat "$T/O.err")"
NO_TREE=1 both "push to a mute far end" -a --timeout=2 -e "$MUTE" src/ localhost:DST
grep -q '^rsync error: timeout in data send/receive (code 30)$' "$T/O.msgs" &&
	grep -q '^\[sender\] io timeout after 2 seconds -- exiting$' "$T/O.err" &&
	grep -q '^status 30$' "$T/O.out" || fail "push to a mute far end: $(cat "$T/O.err")"

# 60 kB at 20 KiB a second: about 3 s, longer than the timeout
mkdir -p "$T/slow/src"
head -c 60000 /dev/urandom > "$T/slow/src/f"
for dir in pull push; do
	rm -rf "$T/slow/dst"
	if [ $dir = pull ]; then set -- localhost:slow/src/ slow/dst/; else set -- slow/src/ localhost:slow/dst/; fi
	start=$(date +%s%N)
	(cd "$T" && sweep-sync -a --bwlimit=20 --timeout=2 -e "$E" "$@") 2> "$T/err" ||
		fail "$dir --bwlimit=20 --timeout=2: exit $?: $(cat "$T/err")"
	took=$((($(date +%s%N) - start) / 1000000))
	[ $took -ge 2000 ] || fail "$dir: 60 kB at 20 KiB/s took $took ms"
	check_same "$T/slow/src/f" "$T/slow/dst/f"
done
exit 0
