#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# info.sh: --info beside rsync: each flag at its levels (NAME2's "is
# uptodate" and the names of files whose attributes alone change, DEL's
# deletions without -v, STATS1's summary, STATS2's figures, FLIST's list
# line, NONREG0, SYMSAFE, SKIP, REMOVE), ALL, NONE and their levels, words
# in any case, a level above 4, words given with -v, --stats and
# --progress (where --info's level stands), -q over all, -i with NAME2,
# an unknown word (a usage error), HELP's table; here, pushed and pulled
# over a remote shell (the far end says what the near end's levels say).
# (It knew progress and remove only: "--info=stats2" was a usage error.)
# STATS3 is STATS2 here: rsync's adds the heap statistics of its processes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
head -c 3000 /dev/zero > "$T/src/big"
touch -d 2010-05-06 "$T/src/big" "$T/src"
changes='rsync -a ../src/ dst/ && rm dst/file && echo x > dst/extra && touch -d 2001-01-01 dst/extra && chmod 600 dst/sub/linked && chmod 640 dst/big'
for info in name name0 name2 NAME2 name9 del del0 stats1 stats2 flist flist2 nonreg0 \
	symsafe skip skip2 misc2 backup copy mount remove all,progress0 all2,progress0 \
	ALL2,PROGRESS0,Name4 none NONE \
	name2,del0 'name,,stats2' progress0; do
	PREPARE=$changes both "--info=$info" -rlt --delete --safe-links --max-size=2000 \
		--info="$info" src/ DST
done
for opts in "-v --info=name0" "-v --info=stats0" "-v --info=name2,del0" "-v --info=NONE" \
	"--info=name0 -v" "--stats --info=stats1" "-v --stats --info=stats0" \
	"-q --info=name2" "--info=all,progress0 -q" "-v --no-v --info=del" "-i --info=name2" \
	"--out-format=%n --info=name2"; do
	# shellcheck disable=SC2086 # the options are words
	PREPARE=$changes both "$opts" -rlt --delete $opts src/ DST
done
PREPARE=$changes TOUCH_DST=1 both "--info=backup,name2 -b" -rlt --delete --info=backup,name2 -b src/ DST
# --progress: NAME (unless --info set it) and FLIST2; its meter is
# sweep-sync's own (rsync's per-file lines, with rates, go to a pipe too;
# sweep-sync's is drawn on a terminal only), off here
PREPARE=$changes both "--progress --info=progress0" -rlt --delete --progress --info=progress0 src/ DST
PREPARE=$changes both "--info=progress0,name0 --progress" -rlt --delete --info=progress0,name0 \
	--progress src/ DST
# a usage error, and the table
both "an unknown word" -r --info=name,bogus src/ DST
both "a word of digits" -r --info=2 src/ DST
both "--info=help" -r --info=help src/ DST
both "--info=HELP after -v" -rv --info=HELP src/ DST
# the far end says what it did as the near end's levels ask
for info in name2 del0,name stats2 "NONE -v" remove "backup -b"; do
	# shellcheck disable=SC2086
	PREPARE=$changes TOUCH_DST=1 both "pushed, --info=$info" -rlt --delete -e "$RSH" --info=$info src/ localhost:DST/
	# shellcheck disable=SC2086
	PREPARE=$changes TOUCH_DST=1 both "pulled, --info=$info" -rlt --delete -e "$RSH" --info=$info localhost:src/ DST/
done
# BACKUP: the backup directory named as the run starts ("(new)": made
# by it), each backup as rsync names it
PREPARE=$changes TOUCH_DST=1 AFTER='touch -d 2001-01-01 bk' both "--info=backup --backup-dir" -rlt --delete --info=backup -b \
	--backup-dir=../bk src/ DST
PREPARE="$changes && mkdir bk2" TOUCH_DST=1 AFTER='touch -d 2001-01-01 bk2' both "--info=backup, the directory there" -rlt \
	--delete --info=backup -b --backup-dir=../bk2/ --suffix=.old src/ DST
