#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# backup.sh: -b, --backup-dir and --suffix beside rsync: a replaced file
# (a changed one, a link replaced by a file) and a deleted one (--delete,
# in directories removed too) are moved aside: beside themselves as
# NAME~ (or NAME+SUFFIX), or below the backup directory (relative to DEST,
# made when the first backup goes there, its directories with the modes
# of DEST's) under their path, without a suffix unless one is given. An
# existing NAME~ is never deleted. An unchanged file is not backed up.
# Bad suffixes are usage errors, in rsync's words.
# Directories keep the time of the run (-b without --backup-dir implies
# rsync's --omit-dir-times; a backup directory is made now): the trees are
# compared without times, and the times of all but directories apart.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/d" "$T/src/same"
echo new > "$T/src/a"
echo newer-b > "$T/src/d/b"
echo was-a-link > "$T/src/d/l"
echo same > "$T/src/same/s"
echo fresh > "$T/src/fresh"
find "$T/src" -exec touch -d 2011-01-01 {} +
PREPARE='mkdir -p dst/d dst/same dst/gone/g2; echo old-a > dst/a; echo b > dst/d/b
ln -s b dst/d/l; echo same > dst/same/s; echo x > dst/x; echo y > dst/gone/y
echo z > dst/gone/g2/z; echo kept > dst/d/old~; chmod 0700 dst/gone
find dst -exec touch -h -d 2010-01-01 {} +'
ftimes() { (cd "$T/$1" && find . ! -type d -printf '%T@ %p\n' | sort); }
run() {
	TIMES=no both "$@"
	[ -n "${NO_TREE:-}" ] && return
	ftimes R > "$T/R.times"
	ftimes O > "$T/O.times"
	check_same "$T/R.times" "$T/O.times"
}
run "-b" -ai -b src/ DST
run "-b --delete" -ai -b --delete src/ DST
run "-b --suffix" -ai -b --suffix=.bak --delete src/ DST
run "-b -v" -av -b --delete src/ DST
run "-b -n" -ain -b --delete src/ DST
run "-b --inplace" -ai -b --inplace src/ DST
# written in place, a file is backed up by a copy: its other names see the
# new data, as rsync's (it was moved aside, the other names kept the old)
PREPARE="$PREPARE; ln dst/a dst/snapshot" run "-b --inplace, a file of two names" \
	-ai -b --inplace src/ DST
# (rsync 3.5 fails there with --backup-dir, "stat failed: Invalid
# argument", 23, once it has made the same backup: checked on its own)
rm -rf "$T/ib" && mkdir -p "$T/ib/dst" && cp -a "$T/src/." "$T/ib/src"
echo old-a > "$T/ib/dst/a" && ln "$T/ib/dst/a" "$T/ib/dst/snapshot"
(cd "$T/ib" && sweep-sync -a --backup-dir=../bak --inplace src/ dst/) ||
	fail "--backup-dir --inplace: status $?"
[ "$(cat "$T/ib/dst/snapshot")" = new ] && [ "$(cat "$T/ib/bak/a")" = old-a ] &&
	[ "$(stat -c %h "$T/ib/dst/a")" = 2 ] || fail "--backup-dir --inplace: not backed up by a copy"
run "--backup-dir" -ai --backup-dir=../bak --delete src/ DST
run "--backup-dir --suffix" -ai --backup-dir=../bak --suffix=.old --delete src/ DST
# (rsync's generator and receiver race to make the backup directory's
# parents when both back up at once: DEST/bak is there already)
PREPARE="$PREPARE; mkdir dst/bak; touch -d 2010-01-01 dst/bak" \
	run "--backup-dir inside DEST" -ai --backup-dir=bak/deeper src/ DST
# deleting the backup directory itself, which the deletion of what it
# held fills again: "cannot delete non-empty directory", not an error
PREPARE="$PREPARE; mkdir dst/bk; echo f > dst/bk/f; touch -d 2010-01-01 dst/bk/f dst/bk dst" \
	run "--backup-dir inside DEST, deleted" -ai --backup-dir=bk --delete-after src/ DST
run "--backup-dir, nothing to back up" -ai --backup-dir=../bak src/same/ DST/same
# a file where the source has a directory: replaced, moved aside first
# (it was deleted without a backup)
PREPARE="$PREPARE; rm -rf dst/d; echo file > dst/d; touch -d 2010-01-01 dst/d dst" \
	run "-b, a directory over a file" -ai -b src/ DST
PREPARE="$PREPARE; rm -rf dst/d; echo file > dst/d; touch -d 2010-01-01 dst/d dst" \
	run "--backup-dir, a directory over a file" -ai --backup-dir=../bak src/ DST
# --inplace -b on a disk too full for the backup's copy: said with the
# file's name, 23, the file left as it was and no part of a backup kept
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null
then
	mkdir -p "$T/full/dst" "$T/fsrc"
	head -c 150000 /dev/urandom > "$T/full/dst/f" && cp "$T/full/dst/f" "$T/old-f"
	head -c 150000 /dev/urandom > "$T/fsrc/f" && touch -d 2011-01-01 "$T/fsrc/f"
	sweep-sync -a -b --inplace "$T/fsrc/" "$T/full/dst/" 2> "$T/err"
	status=$?
	[ $status = 23 ] || { cat "$T/err" >&2; umount "$T/full"; fail "--inplace -b, full: status $status"; }
	grep -q 'cannot backup.*f' "$T/err" || { cat "$T/err" >&2; umount "$T/full"; fail "--inplace -b, full: not said"; }
	cmp -s "$T/full/dst/f" "$T/old-f" || { umount "$T/full"; fail "--inplace -b, full: the file changed"; }
	[ ! -e "$T/full/dst/f~" ] || { umount "$T/full"; fail "--inplace -b, full: a part of a backup kept"; }
	umount "$T/full"
else
	echo "SKIP part: a full disk needs root to mount a small tmpfs" >&2
fi
NO_TREE=1 run "a suffix with a slash" -a -b --suffix=a/b src/ DST
NO_TREE=1 run "an empty suffix" -a -b --suffix= src/ DST
NO_TREE=1 run "an empty suffix, with --backup-dir" -ai --backup-dir=../bak --suffix= src/ DST
# -b without --backup-dir: a name ending in "~" is protected by rsync's
# implied rule, after the user's (an "R *~" of theirs comes first: it was
# kept), not under --delete-excluded; deleted, it gets no backup of its
# own (sweep-sync made t~~)
mkdir -p "$T/bk2/src" && echo 1 > "$T/bk2/src/a" && touch -d 2011-01-01 "$T/bk2/src/a" "$T/bk2/src"
PREPARE='mkdir dst && echo old > dst/a && echo b > dst/t~ && echo c > dst/extra && touch -d 2011-01-01 dst/* dst'
for opts in "--delete-excluded --exclude=x" "--delete -f R_*~" "--delete" "--delete-after -f R_*~"; do
	# shellcheck disable=SC2086
	TIMES=no both "-b $opts, a backup there" -ai -b $opts bk2/src/ DST
done
exit 0
