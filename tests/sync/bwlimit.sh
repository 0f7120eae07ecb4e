#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bwlimit.sh: --bwlimit=RATE beside rsync: the same copy, output and
# messages, rsync's units (KiB a second by default; B, K, M, G, with "B"
# for powers of 1000 and "iB" for 1024; fractions), 0 for no limit, and
# its usage errors for what is no rate or under 512 bytes a second; and
# the data is written no faster than the limit: 1.5 MiB at 1 MiB/s takes
# a second at least.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/sub"
head -c 600000 /dev/urandom > "$T/src/sub/a"
head -c 900000 /dev/urandom > "$T/src/b"
echo small > "$T/src/c"
find "$T/src" -exec touch -d 2011-01-01 {} +
for rate in 0 20000 1.5m 20MB 20MiB 100000K 2g; do
	both "--bwlimit=$rate" -ai --bwlimit=$rate src/ DST
done
for rate in fast 100B 1x -5; do
	NO_TREE=1 both "--bwlimit=$rate" -a --bwlimit=$rate src/ DST
done
rm -rf "$T/dst"
start=$(date +%s%N)
sweep-sync -a --bwlimit=1m "$T/src/" "$T/dst/" || fail "sweep-sync --bwlimit=1m"
took=$((($(date +%s%N) - start) / 1000000))
[ $took -ge 1000 ] || fail "1.5 MiB at 1 MiB/s took $took ms"
check_same "$T/src/b" "$T/dst/b"
exit 0
