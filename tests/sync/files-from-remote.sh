#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# files-from-remote.sh: --files-from over a remote shell beside rsync over
# the same one (tests/sync/remote.sh's local -e): a push reads the list and
# sends what it names; a pull reads the list here and sends it to the far
# end, which sends what it names; either way each name goes under its own
# path below DEST with its implied directories, as files-from.sh checks
# for a local run. A far end given a name that leaves SRC ("..") refuses
# it; HOST:FILE (a list read there) is refused as not supported.
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
	PREPARE='rsync -a ../src/ dst/; chmod 0755 dst/a/b; echo changed > dst/a/b/f; touch -d 2012-01-01 dst/d'
	both "$dir, again, with changes" -ai --files-from=list -e "$E" $S $D
	PREPARE='rsync -a ../src/ dst/; echo extra > dst/d/extra'
	both "$dir -r --delete" -air --delete --files-from=list -e "$E" $S $D
	both "$dir -r --delete-after" -air --delete-after --files-from=list -e "$E" $S $D
	PREPARE=
done

# a list that leaves SRC is refused by the far end that sends
printf '../secret\n' > "$T/up"
mkdir -p "$T/secret" "$T/up-dst" && echo s > "$T/secret/s"
(cd "$T" && sweep-sync -a --files-from=up -e "$E" localhost:src up-dst/) > /dev/null 2> "$T/err"
status=$?
[ $status = 12 ] && grep -q "a --files-from name that leaves SRC" "$T/err" ||
	{ cat "$T/err" >&2; fail "a name with '..': status $status"; }
[ -z "$(ls -A "$T/up-dst")" ] || fail "a name with '..': something was sent"
(cd "$T" && sweep-sync -a --files-from=localhost:list -e "$E" src localhost:x/) > /dev/null 2> "$T/err"
[ $? = 1 ] && grep -q "HOST:FILE" "$T/err" || { cat "$T/err" >&2; fail "HOST:FILE not refused"; }
exit 0
