#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# modify-window.sh: --modify-window=NUM (-@NUM) beside rsync: modification
# times that many seconds apart are the same (a FAT disk keeps them to 2
# seconds), so such a file is neither sent again nor given the source's
# time; 0 (the default) compares whole seconds, below 0 nanoseconds too
# (rsync 3.1.3's), for files and directories. The quick check, -u,
# --link-dest, here, pushed and pulled; a window that is not a number is a
# usage error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
# f: a second and a half older at DEST; g: the same second, another
# fraction; h: 3 seconds newer at DEST; the directories d and e as g and
# f, and DEST itself as g (rsync gives a directory its time by the same
# rule, also after --delete-after's and --delete-delay's passes)
export PREPARE='mkdir -p src/d src/e dst/d dst/e &&
	for n in f g h; do echo $n > src/$n; echo $n > dst/$n; done &&
	touch -d "2020-01-01 00:00:10.5" src/f src/e && touch -d "2020-01-01 00:00:09" dst/f dst/e &&
	touch -d "2020-01-01 00:00:10" src/g && touch -d "2020-01-01 00:00:10.9" dst/g &&
	touch -d "2020-01-01 00:00:10.25" src/d && touch -d "2020-01-01 00:00:10.75" dst/d &&
	touch -d "2020-01-01 00:00:10" src/h && touch -d "2020-01-01 00:00:13" dst/h &&
	touch -d "2011-01-01 00:00:00.25" src && touch -d "2011-01-01 00:00:00.75" dst'
for w in 0 1 2 -1; do
	both "-@$w" -ai -@$w SRC/ DST/
	both "-@$w --delete-after" -ai --delete-after -@$w SRC/ DST/
	both "-@$w --delete-delay" -ai --delete-delay -@$w SRC/ DST/
	both "--modify-window=$w -u" -aiu --modify-window=$w SRC/ DST/
done
both "-@-1, pushed" -ai -@-1 -e "$RSH" SRC/ localhost:DST/
both "-@2, pulled" -ai -@2 -e "$RSH" localhost:SRC/ DST/
both "-@-1, pulled" -ai -@-1 -e "$RSH" localhost:SRC/ DST/
# --link-dest: a file within the window is linked
export PREPARE='mkdir -p src prev && echo f > src/f && echo f > prev/f &&
	touch -d "2020-01-01 00:00:10" src/f && touch -d "2020-01-01 00:00:11" prev/f &&
	touch -d 2011-01-01 src prev'
for w in 0 1; do
	TOUCH_DST=1 both "--link-dest -@$w" -ai -@$w --link-dest=../prev SRC/ DST/
done
unset PREPARE
NO_TREE=1 both "not a number" -a --modify-window=x src/ DST/
exit 0
