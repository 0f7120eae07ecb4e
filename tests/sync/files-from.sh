#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# files-from.sh: --files-from beside rsync: each listed name transferred
# under its own path below DEST, the directories on the way made with
# their source's modes and times (rsync's implied directories), a listed
# directory made empty under -a (which does not imply -r here), listed as
# "dir/" with what it holds (but not what its directories hold), and with
# all it holds under -r; leading '/' and "./" dropped, comments and blank
# lines skipped (with --from0 too), standard input as "-"; in a name,
# what comes before "/./" is where it is, not part of its path below DEST
# ("./" first: the source directory is sent too); a listed name
# that is excluded left out with its implied directories; a missing name
# said as rsync says it (exit 23); an unreadable list a usage error.
# (DST/: with a single file listed, rsync would make DEST that file)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
files_from_tree
both "-a" -ai --files-from=list src DST/
both "-a, src/" -ai --files-from=list src/ DST/
both "-ar" -air --files-from=list src DST/
# (not -i: rsync's "hf+++++++++ NAME => FIRST", see sweep-sync(1))
both "-aH" -aH --files-from=list src DST/
both "-av" -av --files-from=list src DST/
both "--stats" -a --stats --files-from=list src DST/
both "-n" -ain --files-from=list src DST/
WRAP='cat list |' both "standard input" -ai --files-from=- src DST/
both "--from0" -ai --from0 --files-from=nul src DST/
both "excluded" -ai --exclude=f --exclude=e --files-from=list src DST/
both "an implied directory excluded" -ai --exclude=b --files-from=list src DST/
both "/./: only what follows goes to DEST" -ai --files-from=marker src DST/
both "a name missing" -ai --files-from=missing src DST/
# "dir/": what it holds, its directories empty (it was made empty)
TOUCH_DST=1 both "dir/" -ai --files-from=slashes src DST/
PREPARE='rsync -a ../src/ dst/; echo x > dst/a/extra; echo y > dst/a/b/extra2; touch -d 2010-01-01 dst/a/extra dst/a/b/extra2'
TOUCH_DST=1 both "dir/, --delete" -ai --delete --files-from=slashes src DST/
PREPARE=
PREPARE='rsync -a ../src/ dst/; chmod 0755 dst/a/b; echo changed > dst/a/b/f; touch -d 2012-01-01 dst/d'
both "again, with changes" -ai --files-from=list src DST/
PREPARE='rsync -a ../src/ dst/; echo extra > dst/d/extra'
both "-r --delete" -air --delete --files-from=list src DST/
both "-r --delete-after" -air --delete-after --files-from=list src DST/
PREPARE=
# a name that would leave SRC has its '..' collapsed, as rsync's: none is
# above SRC ("../secret/s" is "secret/s" there: not found, 23), the others
# go: nothing is read outside SRC nor written outside DEST
printf '../secret/s\nsub/../../secret/s\n./../x\nfile\n' > "$T/up"
mkdir -p "$T/secret" "$T/up-dst" && echo s > "$T/secret/s"
(cd "$T" && sweep-sync -a --files-from=up src up-dst/) > /dev/null 2> "$T/err"
status=$?
[ $status = 23 ] && [ "$(grep -c "src/secret/s\" failed" "$T/err")" = 2 ] ||
	{ cat "$T/err" >&2; fail "a name with '..': status $status"; }
[ "$(ls -A "$T/up-dst")" = file ] && [ ! -e "$T/s" ] && [ ! -e "$T/x" ] ||
	fail "a name with '..': $(ls -A "$T" "$T/up-dst")"
NO_TREE=1 both "an unreadable list" -a --files-from=none src DST/
# an implied directory sent again after another directory's names is
# counted again and looked at once ('.d..t' for it was not rsync's)
printf 'a/b/f\nd/e/h\na/g\nd/e/h\n' > "$T/again"
TOUCH_DST=1 both "an implied directory again" -ai --stats --files-from=again src DST/
# ".." in a name takes the component before it away, as rsync's
# clean_fname() collapses it, none ever above the source (they were
# skipped, 23)
printf 'a/b/../g\n../file\nd/e/../../a/b/f\n' > "$T/dotdot"
TOUCH_DST=1 both "names with .." -ai --files-from=dotdot src/ DST/
# --no-relative, which rsync takes to place each name by its last
# component, is refused, not ignored (nothing made)
for no in --no-relative --no-R; do
	(cd "$T" && sweep-sync -a $no --files-from=list src/ norel/) 2> "$T/norel.err"
	st=$?
	[ $st = 1 ] && grep -q "not supported" "$T/norel.err" && [ ! -e "$T/norel" ] ||
		fail "$no --files-from: status $st, $(cat "$T/norel.err")"
done
exit 0
