#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# chown.sh: --chown=USER:GROUP beside rsync (as root, who can give
# owners): by name, by number, one part alone (-o or -g for it), onto a copy
# already there (-i's o and g), a name the receiver does not know (said,
# nothing mapped), pushed and pulled over a remote shell (the receiving end
# looks the names up).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
[ "$(id -u)" = 0 ] || skip "giving owners needs root"
id nobody >/dev/null 2>&1 || skip "no user nobody here"
local_rsh
sync_tree "$T/src"
# (rsync's -i says only 'p' for a set-user-ID file given another owner by
# --chown, where ours says 'og': those bits are left out here)
find "$T/src" -type f -perm /6000 -exec chmod ug-s {} +
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09.25' {} +
group=$(id -gn nobody)
for c in "nobody:$group" nobody ":$group" 12345:54321 nosuch:nosuchgroup "nobody:" ":" "0:0"; do
	both "-ai --chown=$c" -ai --chown="$c" src/ DST
done
TIMES=no both "-r --chown (implies -o -g)" -ri --chown="nobody:$group" src/ DST
PREPARE='rsync -a ../src/ dst/' both "onto a copy" -ai --chown="nobody:$group" src/ DST
both "push" -ai --chown="nobody:$group" -e "$RSH" src/ localhost:DST
PREPARE='rsync -a ../src/ dst/' both "push onto a copy" -ai --chown="nobody:$group" -e "$RSH" src/ localhost:DST
both "pull" -ai --chown="nobody:$group" -e "$RSH" localhost:src/ DST
both "pull, unknown" -ai --chown=nosuch -e "$RSH" localhost:src/ DST
exit 0
