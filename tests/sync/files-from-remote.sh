#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# files-from-remote.sh: --files-from over a remote shell beside rsync over
# the same one (tests/sync/remote.sh's local -e): a push reads the list and
# sends what it names; a pull reads the list here and sends it to the far
# end, which sends what it names; either way each name goes under its own
# path below DEST with its implied directories, as files-from.sh checks
# for a local run. A far end given a name that leaves SRC ("..") refuses
# it; HOST:FILE and :FILE (a list read there) are refused as not
# supported (:FILE was read here, as a file of that name).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
# (no comments: rsync's pull sends the list as it is, and its far end
# takes "# a comment" for a name; sweep-sync skips comments either way)
COMMENTS=no files_from_tree
local_rsh
E=$RSH
for dir in push pull; do
	S=src D=localhost:DST/
	[ $dir = pull ] && S=localhost:src D=DST/
	both "$dir -a" -ai --files-from=list -e "$E" $S $D
	both "$dir -ar" -air --files-from=list -e "$E" $S $D
	both "$dir -aH" -aH --files-from=list -e "$E" $S $D
	both "$dir --stats" -a --stats --files-from=list -e "$E" $S $D
	both "$dir -n" -ain --files-from=list -e "$E" $S $D
	WRAP='cat list |' both "$dir, standard input" -ai --files-from=- -e "$E" $S $D
	both "$dir --from0" -ai --from0 --files-from=nul -e "$E" $S $D
	both "$dir, excluded" -ai --exclude=f --exclude=e --files-from=list -e "$E" $S $D
	both "$dir, /./" -ai --files-from=marker -e "$E" $S $D
	both "$dir, a name missing" -ai --files-from=missing -e "$E" $S $D
	TOUCH_DST=1 both "$dir, dir/" -ai --files-from=slashes -e "$E" $S $D
	PREPARE='rsync -a ../src/ dst/; echo x > dst/a/extra; echo y > dst/a/b/extra2; touch -d 2010-01-01 dst/a/extra dst/a/b/extra2' \
		TOUCH_DST=1 both "$dir, dir/, --delete" -ai --delete --files-from=slashes -e "$E" $S $D
	PREPARE='rsync -a ../src/ dst/; chmod 0755 dst/a/b; echo changed > dst/a/b/f; touch -d 2012-01-01 dst/d'
	both "$dir, again, with changes" -ai --files-from=list -e "$E" $S $D
	PREPARE='rsync -a ../src/ dst/; echo extra > dst/d/extra'
	both "$dir -r --delete" -air --delete --files-from=list -e "$E" $S $D
	both "$dir -r --delete-after" -air --delete-after --files-from=list -e "$E" $S $D
	PREPARE='rsync -a ../src/ dst/; echo extra > dst/d/extra; touch -d 2001-01-01 dst/d/extra dst/d' \
		both "$dir -nr --delete-after" -ainr --delete-after --files-from=list -e "$E" $S $D
	both "$dir -r --delete-before" -air --delete-before --files-from=list -e "$E" $S $D
	PREPARE=
done

# DEST a file: said as a local run says it, and the two ends stay in step
echo x > "$T/dest-file"
for dir in local push pull; do
	S=src D=localhost:dest-file
	[ $dir = pull ] && S=localhost:src D=dest-file
	[ $dir = local ] && S=src D=dest-file
	(cd "$T" && sweep-sync -r --delete-before --files-from=list -e "$E" $S $D) > /dev/null 2> "$T/$dir.err"
	echo $? > "$T/$dir.status"
	! grep -q "protocol error" "$T/$dir.err" || { cat "$T/$dir.err" >&2; fail "DEST a file, $dir: out of step"; }
	[ "$(cat "$T/dest-file")" = x ] || fail "DEST a file, $dir: written"
done
check_same "$T/local.status" "$T/push.status"
check_same "$T/local.status" "$T/pull.status"

# a name that would leave SRC has its '..' collapsed, at either end, as
# rsync's ("../secret/s" is "secret/s" in SRC: not found, 23): the others
# go
printf '../secret/s\nsub/../../secret/s\nfile\n' > "$T/up"
mkdir -p "$T/secret" && echo s > "$T/secret/s"
for dir in push pull; do
	S=src D=localhost:up-dst/
	[ $dir = pull ] && S=localhost:src D=up-dst/
	rm -rf "$T/up-dst" && mkdir "$T/up-dst"
	(cd "$T" && sweep-sync -a --files-from=up -e "$E" $S $D) > /dev/null 2> "$T/err"
	status=$?
	[ $status = 23 ] && [ "$(grep -c "src/secret/s\" failed" "$T/err")" = 2 ] ||
		{ cat "$T/err" >&2; fail "$dir, a name with '..': status $status"; }
	[ "$(ls -A "$T/up-dst")" = file ] && [ ! -e "$T/s" ] && [ ! -e "$T/up-dst/s" ] ||
		fail "$dir, a name with '..': $(ls -A "$T" "$T/up-dst")"
done
(cd "$T" && sweep-sync -a --files-from=localhost:list -e "$E" src localhost:x/) > /dev/null 2> "$T/err"
[ $? = 1 ] && grep -q "HOST:FILE" "$T/err" || { cat "$T/err" >&2; fail "HOST:FILE not refused"; }
cp "$T/list" "$T/:list" || fail "cp"
(cd "$T" && sweep-sync -a --files-from=:list -e "$E" src localhost:x/) > /dev/null 2> "$T/err"
[ $? = 1 ] && grep -q ":FILE" "$T/err" && [ ! -e "$T/x" ] || { cat "$T/err" >&2; fail ":FILE not refused"; }
exit 0
