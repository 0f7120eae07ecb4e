#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dest-symlink.sh: symbolic links planted in the destination where the
# copy will make a directory or a file, beside GNU cp. A link where a
# directory goes is never followed (GNU: "cannot overwrite non-directory",
# that subtree left out); a dangling one where a file goes is not written
# through; nothing is ever made outside the destination.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
mkdir -p "$T/src/d/e" "$T/outside"
printf 'a\n' > "$T/src/f"
printf 'b\n' > "$T/src/d/g"
printf 'c\n' > "$T/src/d/e/h"
plant='mkdir -p dst/d && ln -s '"$T"'/outside dst/d/e && ln -s '"$T"'/outside/new dst/f'
for opts in -r -a -rf --remove-destination; do
	rm -rf "$T/outside"/*
	PREPARE=$plant TIMES=no both "planted links, $opts" $opts src/. DST
	[ -z "$(ls -A "$T/outside")" ] || fail "$opts: something was written outside"
done
# a link to a directory where a file goes: "cannot overwrite directory",
# exit 1 (was: left out without a word, exit 0)
PREPARE='mkdir dst && ln -s '"$T"'/outside dst/f' TIMES=no both "link to a directory at a file" -a src/. DST
[ -z "$(ls -A "$T/outside")" ] || fail "written into a directory through a planted link"
# a link to a directory where a directory goes: GNU leaves it and fails
PREPARE='mkdir dst && ln -s '"$T"'/outside dst/d' TIMES=no both "link at a directory" -a src/. DST
[ -z "$(ls -A "$T/outside")" ] || fail "written through a planted link to a directory"
