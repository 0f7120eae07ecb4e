#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# hard-link-skips.sh: under -H, a later name of a file is left alone by
# what would leave it alone had it no other (--ignore-existing, -u with a
# newer copy, --existing, --max-size), as rsync leaves it: before, it was
# linked to the first name's copy over what DEST held there (its data
# lost). Here and pushed over a remote shell, against rsync. And what -i
# says of a file's later names: "hf+++ NAME => FIRST" in a dry run, and
# across two SRC, "hf" and blanks where DEST had them apart (which name is
# the first follows the walk's order: the letters and the number of "=>"
# are compared). A later name where DEST has another kind: -u replaces a
# newer symlink (it was left), and a directory is made way for as for a
# name of its own, removed under --force, said and left without it (it
# was said in cp's words, and under -u left without a word, exit 0):
# rsync itself hangs there, so its words for a name of its own are
# compared.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
make='mkdir -p src/zz dst/zz && echo data > src/a && ln src/a src/zz/b && echo IMPORTANT > dst/zz/b'
make="$make && touch -d 2001-01-01 src/a src/zz src && touch -d 2002-01-01 dst/zz/b dst/zz dst"
PREPARE=$make
for opts in --ignore-existing -u --existing --max-size=3; do
	both "$opts" -aHi $opts SRC/ DST/
	both "$opts, pushed" -aHi $opts -e "$RSH" SRC/ localhost:DST/
done
# (with the first name's copy there already)
PREPARE="$make && echo old > dst/a && touch -d 2030-01-01 dst/a"
both "both there, -u" -aHi -u SRC/ DST/
both "both there, --ignore-existing" -aHi --ignore-existing SRC/ DST/
make='mkdir src dst && echo data > src/a && ln src/a src/b && touch -d 2001-01-01 src/a src dst'
PREPARE="$make && ln -s x dst/a && ln -s y dst/b && touch -h -d 2030-01-01 dst/a dst/b"
both "-u, symlinks newer" -aHi -u --stats SRC/ DST/
PREPARE="$make && mkdir dst/a && echo keep > dst/a/keep && touch -d 2001-01-01 dst"
both "a directory in the way, --force" -aHi --force SRC/ DST/
both "a directory in the way, -u --force" -aHi -u --force SRC/ DST/
PREPARE="$make && mkdir dst/a && touch -d 2001-01-01 dst"
both "an empty directory in the way" -aHi SRC/ DST/
mkdir "$T/way" && (cd "$T/way" && eval "$make && mkdir dst/a && echo keep > dst/a/keep")
(cd "$T/way" && rsync -ai src/a dst/) > "$T/way/rsync.out" 2>&1
for u in "" -u; do
	(cd "$T/way" && sweep-sync -aiH $u src/ dst/) > "$T/way/sweep.out" 2>&1
	[ $? = 23 ] || fail "a directory in the way $u: status $?"
	grep -v '^[>h.][fd]\|^sweep-sync error' "$T/way/sweep.out" | sort > "$T/way/sweep.msgs"
	grep -v '^rsync error' "$T/way/rsync.out" | sort > "$T/way/rsync.msgs"
	check_same "$T/way/rsync.msgs" "$T/way/sweep.msgs" || fail "a directory in the way $u: messages"
	[ -f "$T/way/dst/a/keep" ] || fail "a directory in the way $u: removed"
done
unset PREPARE
mkdir -p "$T/hl/src/x" "$T/hl/src/y"
echo d > "$T/hl/src/x/f" && ln "$T/hl/src/x/f" "$T/hl/src/y/g" && ln "$T/hl/src/x/f" "$T/hl/src/h"
for args in "-aiHn src/ dst/" "-aiH src/x src/y dst/" "-aiHn src/x src/y dst/" "-aiH src/ dst/"; do
	for prog in rsync sweep-sync; do
		rm -rf "$T/hl/dst"
		# (DEST with the names apart: linked over, "hf" and blanks)
		[ "$args" = "-aiH src/ dst/" ] &&
			cp -r --preserve=mode,ownership,timestamps "$T/hl/src" "$T/hl/dst"
		# shellcheck disable=SC2086 # the arguments are words
		(cd "$T/hl" && $prog $args) > "$T/hl/$prog.out" 2>&1 || fail "$prog $args"
		{ cut -c1-11 "$T/hl/$prog.out" | sort; grep -c ' => ' "$T/hl/$prog.out"; } > "$T/hl/$prog.codes"
	done
	check_same "$T/hl/rsync.codes" "$T/hl/sweep-sync.codes" || fail "-i of hard links: $args"
done
exit 0
