#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mkpath.sh: --mkpath beside rsync: DEST's missing directories are made
# (DEST itself for a directory or several files; the directory above it
# for one file named by DEST), "created N directories for PATH" said under
# -i and -v, counted only in a dry run; without it a missing parent is
# 11; a file in the way is 11, said with DEST's path; pushed and pulled
# over a remote shell, the receiver makes them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
# (the directories made have the run's own time: not compared)
TIMES=no
PREPARE='mkdir -p dst/have'
both "a directory, three levels" -ai --mkpath src/ DST/a/b/c/
both "without the slash" -ai --mkpath src/ DST/a/b/c
both "below one that is there" -av --mkpath src/ DST/have/b/
both "one file, named" -ai --mkpath src/file DST/x/y/name
both "one file, into DEST/" -ai --mkpath src/file DST/x/y/
both "two sources" -ai --mkpath src/file src/sub DST/x/y
both "all there" -ai --mkpath src/ DST/have/
both "quiet" -a --mkpath src/ DST/a/b/
both "dry run" -ain --mkpath src/ DST/a/b/c/
both "without --mkpath" -ai src/ DST/a/b/c/
both "--mkpath --no-mkpath" -ai --mkpath --no-mkpath src/ DST/a/b/c/
PREPARE='mkdir -p dst && echo x > dst/file'
both "a file in the way, one file" -ai --mkpath src/file DST/file/x/name
PREPARE='mkdir -p dst/have'
both "push" -ai --mkpath -e "$RSH" src/ localhost:DST/a/b/c/
both "push, one file" -ai --mkpath -e "$RSH" src/file localhost:DST/x/y/name
both "pull" -ai --mkpath -e "$RSH" localhost:src/ DST/a/b/c/

# a file in the way of a directory DEST: 11 (rsync's message says another
# errno there)
for prog in rsync sweep-sync; do
	rm -rf "$T/w" && mkdir "$T/w" && echo x > "$T/w/f"
	$prog -a --mkpath "$T/src/" "$T/w/f/a/" > /dev/null 2> "$T/w.err"
	echo $? > "$T/$prog.w"
	grep -q "mkdir \"$T/w/f/a/*\" failed" "$T/w.err" || { cat "$T/w.err" >&2; fail "$prog: the path not said"; }
done
check_same "$T/rsync.w" "$T/sweep-sync.w"
exit 0
