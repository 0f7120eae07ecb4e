#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# usermap.sh: --usermap and --groupmap beside rsync (as root, who can give
# owners): FROM:TO pairs, the first that matches winning; FROM "*", a
# number, a range or a name or pattern (the sender's name; none under
# --numeric-ids), TO a name or number looked up where the entry lands (one
# unknown there said, the pair mapping nothing); a map means -o (-g); -i's
# o and g onto a copy; pushed and pulled over a remote shell. Given twice,
# or beside --chown, or a pair without its ':': a usage error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
[ "$(id -u)" = 0 ] || skip "giving owners needs root"
id nobody >/dev/null 2>&1 && id daemon >/dev/null 2>&1 || skip "no users nobody and daemon here"
local_rsh
mkdir -p "$T/src/d"
for u in 0 1 65534 1234 1500 3000; do
	echo $u > "$T/src/f$u" && echo $u > "$T/src/d/g$u"
	chown $u:$u "$T/src/f$u" "$T/src/d/g$u"
done
chown 1500:1234 "$T/src/d"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09.25' {} +
ngroup=$(id -gn nobody)
for m in 'nobody:daemon' '1000-2000:root,*:bin' 'dae*:2,1234:nobody' 'unknownname:root' \
	'1234:unknownname' '0:5' 'no?ody:1,[0-9]*:2'; do
	both "--usermap=$m" -ai --usermap="$m" src/ DST
done
for m in "$ngroup:bin,1500:daemon" '*:7' '1234-1500:0'; do
	both "--groupmap=$m" -ai --groupmap="$m" src/ DST
done
both "both maps" -ai --usermap='*:daemon' --groupmap='1234:daemon' src/ DST
both "--numeric-ids" -ai --numeric-ids --usermap='nobody:bin,1234:daemon' src/ DST
TIMES=no both "without -o" -rti --usermap='*:bin' src/ DST
PREPARE='rsync -a ../src/ dst/' both "onto a copy" -ai --usermap='nobody:daemon,1234:0' src/ DST
both "push" -ai --usermap='nobody:daemon,1000-2000:bin' --groupmap='*:daemon' -e "$RSH" src/ localhost:DST
both "pull" -ai --usermap='nobody:daemon,1000-2000:bin' --groupmap='*:daemon' -e "$RSH" localhost:src/ DST
# (maps that give a later pair's FROM: applied once, by the receiver)
both "push, a swap" -ai --usermap='daemon:bin,*:daemon' --groupmap='1:2,2:1' -e "$RSH" src/ localhost:DST
both "pull, a swap" -ai --usermap='daemon:bin,*:daemon' --groupmap='1:2,2:1' -e "$RSH" localhost:src/ DST
both "pull, --numeric-ids" -ai --numeric-ids --usermap='1-2:bin,*:daemon' -e "$RSH" localhost:src/ DST
both "pull, unknown" -ai --usermap='1234:unknownname' -e "$RSH" localhost:src/ DST
NO_TREE=1 both "twice" -a --usermap=a:b --usermap=c:d src/ DST
NO_TREE=1 both "beside --chown" -a --usermap=a:b --chown=x src/ DST
NO_TREE=1 both "after --chown" -a --chown=x --usermap=a:b src/ DST
NO_TREE=1 both "no colon" -a --usermap=abc src/ DST
# rsync's reading of a map: its usage errors in its words, ":TO" for the
# ids without a name, a name as it is (no pattern without * ? [), the
# first ':' splitting; --chown's parts apart
for m in '1:2,' ',1:2' '1x:bin' '1000-:bin' '10-20-30:bin' '' 'a:' ':bin' 'daemon:bin:x' 'ro\ot:bin' '*:bin,*:nosuch'; do
	both "--usermap=$m" -ai --usermap="$m" src/ DST
done
for a in "--chown=bin --chown=:daemon" "--usermap=1:2 --chown=:daemon" "--groupmap=0:2 --chown=daemon" \
	"--chown=bin --chown=daemon" "--chown=:bin --chown=:daemon" "--usermap=1:2 --chown=bin"; do
	# (word-split on purpose: each is two options)
	# shellcheck disable=SC2086
	both "$a" -ai $a src/ DST
done
exit 0
