#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# missing-args.sh: --ignore-missing-args and --delete-missing-args beside
# rsync: a SRC or a --files-from name that is not there is no error (no
# message, exit 0, deletions still made); with --delete-missing-args its
# copy goes where the SRC would have gone (a file, a link, an empty
# directory; one that holds something only under --force or --delete,
# else "cannot delete non-empty directory"), DEST itself when it names the
# one missing file; said under -v and -i, counted by --stats, kept under
# -n; pushed and pulled over a remote shell, the receiver removes it,
# unless the receiver's rules protect it.
# Without them, a SRC that is not there stops deletions from the start (a
# later one too: its copies in DEST stay).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
TIMES=no
have='mkdir -p dst/gone dst/emptyd dst/sub && echo x > dst/gone/f && echo y > dst/nothere && ln -s x dst/link && echo z > dst/sub/missing && echo w > dst/extra'
both "missing, no option" -ai src/file src/nothere DST/
both "ignored" -ai --ignore-missing-args src/file src/nothere DST/
PREPARE=$have both "ignored, --delete" -ai --delete --ignore-missing-args src/ src/nothere/ DST/
PREPARE=$have both "deleted" -ai --delete-missing-args src/file src/nothere src/gone src/emptyd src/link DST/
PREPARE=$have both "deleted, -v" -av --delete-missing-args src/file src/nothere src/gone src/emptyd DST/
# a dry run into a DEST not there: nothing to look at, no error (it said
# "link_stat ... Bad file descriptor", 23)
NO_TREE=1 both "deleted, -n, a new DEST" -ain -r --delete-missing-args src/nothere src/file DST/new/
PREPARE=$have both "deleted, --force" -ai --force --delete-missing-args src/file src/gone DST/
PREPARE=$have both "deleted, --stats" -a --stats --delete-missing-args src/file src/nothere src/gone src/emptyd DST/
PREPARE=$have both "deleted, dry run" -ain --delete-missing-args src/file src/nothere src/emptyd DST/
PREPARE='echo q > dst' both "DEST names the file" -ai --delete-missing-args src/nothere DST
printf 'file\nsub/missing\nnothere\ngone\nsub/deeper\n' > "$T/list"
PREPARE=$have both "--files-from" -ai --delete-missing-args --files-from="$T/list" src/ DST/
PREPARE=$have both "--files-from, ignored" -ai --ignore-missing-args --files-from="$T/list" src/ DST/
PREPARE=$have both "push" -ai --delete-missing-args -e "$RSH" src/file src/nothere src/emptyd localhost:DST/
PREPARE=$have both "pull" -ai --delete-missing-args -e "$RSH" localhost:src/nothere localhost:src/file DST/
PREPARE=$have both "push, --files-from" -ai --delete-missing-args --files-from="$T/list" -e "$RSH" src/ localhost:DST/
PREPARE=$have both "pull, --files-from" -ai --delete-missing-args --files-from="$T/list" -e "$RSH" localhost:src/ DST/
PREPARE=$have both "pull, ignored" -ai --ignore-missing-args -e "$RSH" localhost:src/nothere localhost:src/file DST/

# without the options, a SRC that is not there (a disk not mounted) stops
# every deletion from the start, as rsync's list is read before any: the
# copies of its files in DEST, extraneous to the SRCs before it, stay
PREPARE='mkdir dst && echo o > dst/precious && echo w > dst/extra'
both "a later SRC missing" -ai --delete src/ gone/ DST/
both "a later SRC missing, --delete-after" -ai --delete-after src/ gone/ DST/
both "a later SRC missing, pushed" -ai --delete -e "$RSH" src/ gone/ localhost:DST/
both "a later SRC missing, pulled" -ai --delete -e "$RSH" localhost:src/ localhost:gone/ DST/
# (a --files-from name that is not there does not: what a listed
# directory's copy holds beyond it goes, as in rsync)
printf 'sub\ngone/x\n' > "$T/list2"
PREPARE='mkdir -p dst/sub && echo o > dst/sub/precious'
both "a later name missing, --files-from" -ai -r --delete --files-from="$T/list2" src/ DST/
both "a later name missing, --files-from pushed" -ai -r --delete --files-from="$T/list2" -e "$RSH" src/ localhost:DST/

# an excluded name is not asked for: its copy stays; a SRC taken as
# absent does not count for DEST's kind (one file left: DEST its name)
PREPARE=$have both "deleted, excluded" -ai --force --delete-missing-args --exclude=gone src/file src/gone DST/
PREPARE=$have both "--files-from, excluded" -ai --force --delete-missing-args --exclude=gone --files-from="$T/list" src/ DST/
# the receiver's rules decide, as in rsync: a protected copy stays (a rule
# for directories only is not the missing name's); a hidden one goes
for rule in "P gone" "P nothere" "P gone/" "protect /nothere" "H nothere" "S gone" "P gone/f"; do
	PREPARE=$have both "deleted, '$rule'" -ai --force --delete-missing-args --filter="$rule" src/file src/gone src/nothere DST/
	# (pulled, rsync refuses a name its hide rules leave out: exit 4)
	[ "$rule" = "H nothere" ] ||
		PREPARE=$have both "deleted, '$rule', pulled" -ai --force --delete-missing-args --filter="$rule" -e "$RSH" localhost:src/gone localhost:src/nothere DST/
	PREPARE=$have both "--files-from, '$rule'" -ai --force --delete-missing-args --filter="$rule" --files-from="$T/list" src/ DST/
done
# (pushed, rsync's client sends the far receiver its rules only under
# --delete: there it deletes what they protect; ours keeps it)
PREPARE=$have both "deleted, a hide rule, pushed" -ai --force --delete-missing-args --filter="H nothere" -e "$RSH" src/gone src/nothere localhost:DST/
both "ignored, DEST the one file's name" -ai --ignore-missing-args src/file src/nothere DST
PREPARE='echo old > dst' both "ignored, DEST a file" -ai --ignore-missing-args src/file src/nothere DST
both "ignored, DEST/ made" -ai --ignore-missing-args src/nothere DST/
# (a listed name excluded: the next in its directory still goes)
printf 'sub/linked\nsub/deeper\n' > "$T/list3"
TOUCH_DST=1 both "--files-from, an excluded name before another" -ai --exclude=linked --files-from="$T/list3" src/ DST/
exit 0
