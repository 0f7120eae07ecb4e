#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# link-dest.sh: --link-dest beside rsync, the rotating-snapshot recipe: a
# new snapshot of a tree of every file type against the previous one (made
# by rsync -a from an older state of the tree). What is unchanged shares
# its inode with the previous snapshot (the manifests compare the link
# groups of prev and dst together), what changed does not; -i's letters
# compare with the previous snapshot's entry ("cf" for the same data with
# other permissions, ">f.s" for a changed file, nothing for a linked one);
# with -I nothing is linked (unless -c finds the same bytes);
# a relative DIR is taken from DEST (from its directory, for one file);
# a missing DIR is said and the next one used; an existing DEST is
# relinked; -n links nothing; -u leaves a newer copy alone.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
rsync -aH "$T/src/" "$T/old/" || fail "rsync -aH"
# what changes between the snapshots: data (size), permissions only, a
# directory's time, a link's target, a file that is new
printf 'other, longer\n' > "$T/old/with space"
touch -d '2010-05-06 07:08:09.25' "$T/old/with space"
chmod 0600 "$T/old/-dash"
touch -d 2005-01-01 "$T/old/sub"
rm "$T/old/rel-link"
ln -s elsewhere "$T/old/rel-link"
rm "$T/old/empty"
touch -h -d 2009-01-01 "$T/old/rel-link" "$T/old" # not now: see sync_tree

PREPARE='rsync -a ../old/ prev/'
both "-ai" -ai --link-dest=../prev src/ DST
both "-av" -av --link-dest=../prev src/ DST
# (-I: no file is the same as DIR's, each sent: nothing linked)
both "-aiI" -aiI --link-dest=../prev src/ DST
both "-aiIc" -aiIc --link-dest=../prev src/ DST
# (-H: prev with -H too; else which name of a group is linked to prev
# depends on the order of the walk, the disk's here, the names' in rsync)
PREPARE='rsync -aH ../old/ prev/' both "-aH --stats" -aH --stats --link-dest=../prev src/ DST
both "a missing DIR, then one" -ai --link-dest=../none --link-dest=../prev src/ DST
# (NO_TREE: DEST gets a new entry, its time is that of the run)
NO_TREE=1 both "a directory below" -ai --link-dest=../prev src/sub DST/
for side in R O; do
	[ "$(stat -c %i "$T/$side/prev/sub/up-link")" = "$(stat -c %i "$T/$side/dst/sub/up-link")" ] ||
		fail "$side: a directory below: sub/up-link is not linked"
done
both "-n" -ain --link-dest=../prev src/ DST
both "a missing SRC first" -ai --link-dest=../prev nowhere src/ DST
if [ "$(id -u)" = 0 ]; then
	PREPARE='rsync -a ../old/ prev/; rsync -a ../old/ dst/' both "an existing DEST" -ai --link-dest=../prev src/ DST
else
	# rsync makes an existing read-only directory writable for a while
	# when it is not root; sweep-sync does that only for those it makes
	echo "SKIP part: an existing DEST with a read-only directory: root only" >&2
fi
# -u: a copy newer than the source stays, though DIR has the source's
# file (it was replaced by a link to DIR's, its edits lost), here and
# over a remote shell
local_rsh
PREPARE='rsync -a ../old/ prev/; mkdir dst; echo "newer edits" > dst/file; touch -d 2030-01-01 dst/file'
for opts in -aiu "-aiu --inplace"; do
	# shellcheck disable=SC2086
	both "$opts, a newer copy" $opts --link-dest=../prev src/ DST
	# shellcheck disable=SC2086
	both "$opts, a newer copy, pushed" $opts --link-dest=../prev -e "$RSH" src/ localhost:DST
done
PREPARE='rsync -a ../old/ prev/'
both "one file" -ai --link-dest=prev src/file DST
NO_TREE=1 both "one file, into DEST/" -ai --link-dest=../prev src/file DST/
for side in R O; do
	[ "$(stat -c %i "$T/$side/prev/file")" = "$(stat -c %i "$T/$side/dst/file")" ] ||
		fail "$side: one file, into DEST/: it is not linked"
done

# the recipe itself, spelled out: unchanged files share the inode of the
# previous snapshot, changed ones do not
PREPARE='rsync -a ../old/ prev/'
both "-a" -a --link-dest=../prev src/ DST
for side in R O; do
	ino() { stat -c %i "$T/$side/$1"; }
	[ "$(ino prev/large)" = "$(ino dst/large)" ] || fail "$side: large is not linked"
	[ "$(ino prev/dangling)" = "$(ino dst/dangling)" ] || fail "$side: a link is not linked"
	[ "$(ino prev/with\ space)" != "$(ino dst/with\ space)" ] || fail "$side: a changed file is linked"
	[ "$(ino prev/-dash)" != "$(ino dst/-dash)" ] || fail "$side: a file with other perms is linked"
	[ "$(stat -c %h "$T/$side/dst/large")" = 2 ] || fail "$side: large has not 2 names"
done

# -AX: a file whose attributes moved since the snapshot (a value, one more,
# an ACL) is not linked (a link would carry the old ones), nor shown the same
if getfattr -n user.test "$T/src/file" >/dev/null 2>&1 && command -v setfacl >/dev/null; then
	PREPARE='rsync -aAX ../src/ prev/ && cp -a ../src src && setfattr -n user.test -v new src/file &&
		setfattr -n user.more -v m src/large && setfacl -m u:nobody:r src/-dash'
	local_rsh
	for how in here pushed; do
		if [ $how = here ]; then
			both "-aiAX, attributes moved" -aiAX --link-dest=../prev SRC/ DST
		else
			both "-aiAX, attributes moved, pushed" -aiAX --link-dest=../prev -e "$RSH" SRC/ localhost:DST
		fi
		for side in R O; do
			ino() { stat -c %i "$T/$side/$1"; }
			[ "$(ino prev/file)" != "$(ino dst/file)" ] || fail "$side, $how: -AX: file is linked"
			[ "$(ino prev/-dash)" != "$(ino dst/-dash)" ] || fail "$side, $how: -AX: -dash is linked"
			[ "$(ino prev/dangling)" = "$(ino dst/dangling)" ] ||
				fail "$side, $how: -AX: dangling is not linked"
		done
	done
else
	echo "--link-dest -AX: not checked (no user xattrs here, or no setfacl)"
fi
exit 0
