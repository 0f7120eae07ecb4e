#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sizes.sh: --max-size and --min-size beside rsync: regular files over or
# under the size are left (not made, not updated), in rsync's units (K,
# M, G of 1024; KB of 1000; a fraction; "+1", "-1"), said under -vv; they
# still count in --stats, and --delete keeps a copy they have (here,
# pushed and pulled over a remote shell); a size that does not read is a
# usage error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/d"
: > "$T/src/empty"
head -c 100 /dev/urandom > "$T/src/small"
head -c 5000 /dev/urandom > "$T/src/mid"
head -c 5120 /dev/urandom > "$T/src/d/fivek"
head -c 200000 /dev/urandom > "$T/src/d/big"
ln -s small "$T/src/link"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +

for size in 4k 5000 5000+1 4.9K 5KB 5KB-1 5K 5K-1 0 0.5M 1G; do
	both "--max-size=$size" -ai --max-size=$size src/ DST
done
for size in 0 1 100 101 1K 5000-1 5KB 5120+1; do
	both "--min-size=$size" -ai --min-size=$size src/ DST
done
both "--max-size=1M --min-size=200" -ai --max-size=1M --min-size=200 src/ DST
# -vv says each file left (rsync's other -vv lines are its protocol's)
for prog in rsync sweep-sync; do
	rm -rf "$T/vv"
	$prog -avv --max-size=4k --min-size=1 "$T/src/" "$T/vv/" | grep -e ' is over max-size$' -e ' is under min-size$' | sort > "$T/$prog.vv"
done
check_same "$T/rsync.vv" "$T/sweep-sync.vv"
[ -s "$T/sweep-sync.vv" ] || fail "-vv said nothing of the files left"
both "--stats --max-size=5K" -a --stats --max-size=5K src/ DST

# an old copy of a file now over the size is neither updated nor deleted
old='rsync -a ../src/ dst/ && echo old > dst/d/big && echo gone > dst/extra &&
	touch -d 2011-01-01 dst/d/big dst/extra dst/d dst'
PREPARE=$old both "--delete --max-size=4k" -ai --delete --max-size=4k src/ DST
PREPARE=$old both "push --delete --max-size=4k" -ai --delete --max-size=4k -e "$RSH" src/ localhost:DST
PREPARE=$old both "pull --delete --min-size=6000" -ai --delete --min-size=6000 -e "$RSH" localhost:src/ DST

for size in x 5Q -5 1.5.5 5K+2 '' k . 5. 1e3 0x10 ' 5' +1 -0 inf nan 0-1 0.5-1 9999999p 5bb \
	5kib 5KiB 1,5k k+1 k-1 -0-1 -1-1; do
	NO_TREE=1 both "--max-size=$size" -a --max-size=$size src/ DST
done
exit 0
