#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# human.sh: -h (--human-readable) beside rsync: the sizes of --stats and
# of -v's summary in units of 1000 with two decimals under -h, of 1024
# under -hh (and more h's), plain numbers under --no-h, thousands
# separators by default and after --no-h -h; counts never in units; over
# a remote shell the far end, which writes the report of a push, too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
head -c 1500000 /dev/urandom > "$T/src/mega"
head -c 2047 /dev/urandom > "$T/src/kilo"
mkdir "$T/src/many"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do : > "$T/src/many/$i"; done
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
for h in -h -hh -hhh --human-readable --no-h --no-human-readable "-h --no-h" "--no-h -h" "-hh --no-h -h"; do
	both "--stats $h" -a --stats $h src/ DST
	both "-v $h" -av $h src/ DST
done
both "-n --stats -h" -an --stats -h src/ DST
both "push --stats -h" -a --stats -h -e "$RSH" src/ localhost:DST
both "push --stats --no-h" -a --stats --no-h -e "$RSH" src/ localhost:DST
both "pull --stats -hh" -a --stats -hh -e "$RSH" localhost:src/ DST

# --stats' byte totals are the summary's, each way; the list's size is
# that of what went over the wire (none here without one)
for how in "-a --stats src/ T1" "-a --stats -e $RSH src/ localhost:T2" "-a --stats -e $RSH localhost:src/ T3"; do
	(cd "$T" && sweep-sync $how) > "$T/stats.out" || fail "$how: failed"
	sent=$(sed -n 's/^Total bytes sent: //p' "$T/stats.out")
	received=$(sed -n 's/^Total bytes received: //p' "$T/stats.out")
	list=$(sed -n 's/^File list size: //p' "$T/stats.out")
	grep -qx "sent $sent bytes  received $received bytes  .*" "$T/stats.out" ||
		fail "$how: totals $sent/$received are not the summary's"
	case $how in
	*localhost*) [ "${list:-0}" != 0 ] || fail "$how: no file list size over the wire" ;;
	*) [ "$list" = 0 ] || fail "$how: a file list size ($list) without a wire" ;;
	esac
done
exit 0
