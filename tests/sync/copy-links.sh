#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# copy-links.sh: -L (--copy-links) beside rsync: every symbolic link is
# sent as what it leads to (a file's bytes and attributes, a directory
# with what it holds), a link that leads nowhere is said as rsync says it
# ("symlink has no referent", exit 23) and left out; a second run finds
# everything unchanged.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
# (not a link to root's /etc/hostname: a user's copy of it has another
# owner and group, which rsync, unprivileged, does not report)
rm "$T/src/abs-link"
mkdir -p "$T/src/real/inner"
echo inner > "$T/src/real/inner/f"
ln -s real "$T/src/dir-link"
ln -s ../file "$T/src/real/up"
find "$T/src/real" "$T/src/dir-link" -exec touch -h -d 2011-01-01 {} +
touch -d 2011-01-01 "$T/src"
both "-aL" -aiL src/ DST
# (-r without -t: the copies have the time of the run)
TIMES=no both "-rL, a directory's name" -riL --copy-links src/real/inner DST
PREPARE='rsync -aL ../src/ dst/ 2>/dev/null' both "-aL again" -aiL src/ DST
grep -q '^[>c]' "$T/O.out" && fail "-aL again: something was sent: $(cat "$T/O.out")"
# --delete-after and --delete-before go down a linked directory too, as
# --delete (during) does and as rsync's do
mkdir -p "$T/dl/src/real" && ln -s real "$T/dl/src/d" && echo x > "$T/dl/src/real/x"
for when in --delete --delete-before --delete-after; do
	rm -rf "$T/dl/dst" && mkdir -p "$T/dl/dst/d" && echo s > "$T/dl/dst/d/stale"
	sweep-sync -rL $when "$T/dl/src/" "$T/dl/dst/" || fail "-rL $when: status"
	[ ! -e "$T/dl/dst/d/stale" ] && [ -f "$T/dl/dst/d/x" ] || fail "-rL $when: d/stale kept"
done
# a link to nowhere is an I/O error to rsync: nothing deleted after it,
# said with exit 23 whether links are sent (-l) or not; -m knows of it
# before the transfer, and deletes nothing even during it
mkdir -p "$T/nr/src" && ln -s nowhere "$T/nr/src/l" && echo s > "$T/nr/src/f"
touch -h -d 2011-01-01 "$T/nr/src/l" "$T/nr/src/f" "$T/nr/src"
PREPARE='mkdir dst && echo k > dst/keep && touch -d 2011-01-01 dst/keep dst'
both "-rL --delete-after, a link to nowhere" -rtLi --delete-after nr/src/ DST
both "-aL -m --delete, a link to nowhere" -aLi -m --delete nr/src/ DST
unset PREPARE
# over a remote shell, pushed and pulled, -L through a link to a file of
# several names, and with -X (the sender opened the link itself, not
# following it: "Too many levels of symbolic links", 23)
local_rsh
mkdir -p "$T/hl/src"
echo new > "$T/hl/src/f" && ln "$T/hl/src/f" "$T/hl/src/hf" && ln -s f "$T/hl/src/l"
touch -h -d 2011-01-01 "$T/hl/src/f" "$T/hl/src/l" "$T/hl/src"
for opts in -aiL -aiLX; do
	# shellcheck disable=SC2086
	both "$opts, a link to a file of two names, pushed" $opts -e "$RSH" hl/src/ localhost:DST
	# shellcheck disable=SC2086
	both "$opts, a link to a file of two names, pulled" $opts -e "$RSH" localhost:hl/src/ DST
done
# a link to nowhere, here (--delete during the transfer: known before
# anything in its directory is deleted; one the rules leave out is no
# error), pushed and pulled: said once, by the sender
PREPARE='mkdir dst && echo k > dst/keep && touch -d 2011-01-01 dst/keep dst'
both "-aL --delete, a link to nowhere" -aLi --delete nr/src/ DST
both "-aL --delete, a link to nowhere left out" -aLi --delete --exclude=l nr/src/ DST
both "-aL --delete, a link to nowhere, pushed" -aLi --delete -e "$RSH" nr/src/ localhost:DST
both "-aL --delete, a link to nowhere, pulled" -aLi --delete -e "$RSH" localhost:nr/src/ DST
unset PREPARE

# -LH: a link to a file of one name is a copy of its own, as rsync makes
# it (sweep-sync linked the two); to a file of several names, one of them
mkdir -p "$T/lh/src" && echo f > "$T/lh/src/f" && ln -s f "$T/lh/src/lf"
touch -h -d 2011-01-01 "$T/lh/src/f" "$T/lh/src/lf" "$T/lh/src"
both "-aiLH, a link to a file of one name" -aiLH lh/src/ DST
# (without -i: which name comes first, "=>" the others, is the walk's order)
both "-aLH, a link to a file of two names" -aLH hl/src/ DST
exit 0

