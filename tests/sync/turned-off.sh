#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# turned-off.sh: the options backup scripts put after -a to turn parts of it
# off (--no-perms, --no-owner, --no-group, --no-times, --no-D, --no-links,
# --no-r, --no-H, --no-A, --no-X, --no-v, --no-i and their short forms),
# -O (no times on directories) onto a copy whose directories have other
# times, --delete-delay, and the options sweep-sync takes as what it always
# does (-W, --no-W, -s, --no-s): each beside rsync, here and pushed over a
# remote shell (the far end must get what was turned off).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chown -h nobody "$T/src/file" "$T/src/sub"
	chgrp -h "$(id -gn nobody)" "$T/src/sub/linked"
fi

both "--no-perms" -a --no-perms src/ DST
both "--no-p --no-o --no-g" -a --no-p --no-o --no-g src/ DST
both "--no-owner --no-group" -a --no-owner --no-group src/ DST
TIMES=no both "--no-times" -a --no-times src/ DST
TIMES=no both "--no-t" -a --no-t src/ DST
both "--no-D" -a --no-D src/ DST
both "--no-devices" -a --no-devices src/ DST
both "--no-specials" -a --no-specials src/ DST
both "--no-links" -a --no-links src/ DST
both "--no-l" -a --no-l src/ DST
# what is not sent is in rsync's list all the same: counted in --stats
# and -v's total size
both "-rtv --stats: links, devices, fifos not sent" -rtv --stats src/ DST
# a daemon's greeting, which a local run or a remote shell has none of
both "--no-motd" -a --no-motd src/ DST
NO_TREE=1 both "--no-r" -a --no-r src/ DST
both "--no-recursive" -ai --no-recursive src/ DST
both "--no-r, a directory and one file: DEST is that file" -ai --no-r src/ src/file DST
TIMES=no both "--no-r, DEST/ is made" -ai --no-r src/ DST/
both "-aHAX --no-H --no-A --no-X" -aHAX --no-H --no-A --no-X src/ DST
both "-aHAX --no-hard-links --no-acls --no-xattrs" -aHAX --no-hard-links --no-acls --no-xattrs src/ DST
both "-av --no-v" -av --no-v src/ DST
# without -r, -v has no list to announce
TIMES=no both "-v without -r, a file" -v src/file DST/
TIMES=no both "-v without -r, a directory" -v src/ DST/
TOUCH_DST=1 both "-lptv" -lptv src/file DST/
both "-ai --no-i" -ai --no-i src/ DST
both "-a -p --no-p -p" -a --no-p -p src/ DST
both "-aW" -aW src/ DST
both "-a --no-W" -a --no-W src/ DST
both "-as" -as src/ DST
both "-a --no-s" -a --no-s src/ DST

# -O: a copy whose directories have other times keeps them, and -i says
# nothing of them; without it they get the source's again
redate='rsync -a ../src/ dst/; find dst -type d -exec touch -d 2020-02-02 {} +'
PREPARE=$redate both "-aiO onto redated directories" -aiO src/ DST
PREPARE=$redate both "--omit-dir-times" -ai --omit-dir-times src/ DST
PREPARE=$redate both "-aiO --no-O" -aiO --no-O src/ DST
PREPARE='mkdir dst' TIMES=no both "-aO, a new copy" -aO src/ DST

# --delete-delay deletes what the source lacks, after the transfer
extra='rsync -a ../src/ dst/; mkdir -p dst/gone/deeper; echo x > dst/gone/deeper/f; echo y > dst/extra'
PREPARE=$extra both "--delete-delay" -ai --delete-delay src/ DST

# pushed: the far end turns the same things off
PREPARE=$redate both "push -aiO --no-perms --no-owner" -aiO --no-perms --no-owner -e "$RSH" src/ localhost:DST
TIMES=no both "push --no-times" -a --no-times -e "$RSH" src/ localhost:DST
PREPARE=$extra both "push --delete-delay" -ai --delete-delay -e "$RSH" src/ localhost:DST
exit 0
