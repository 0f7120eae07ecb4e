#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# out-format.sh: --out-format (and its old name --log-format) and
# --log-file-format beside rsync: each escape (%n, %L, %i, %f, %l, %o,
# %M, %B, %U, %G, %%) with separators and units (%'l, %''l, %'''l), a
# width and '-', an escape rsync does not know kept as written; without
# %i the lines are -v's (what is made or sent), with it -i's (every
# change); deletions "deleting NAME", or in the format when it has %i or
# %o; under -v, -n, --delete, with -i; pushed ("send") and pulled
# ("recv") over a remote shell; the log in its own format; the escapes
# of rsync's daemon as rsync has them outside one; -ii, which says the
# unchanged too. %c and %C (checksums) are refused, a usage error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
extra='rsync -a ../src/ dst/ && rm dst/file && echo x > dst/extra && chmod 600 dst/sub/linked && touch -d 2001-01-01 dst/link2 dst/extra dst'
all="[%o] %n|%L|%f|%l|%'l|%''l|%'''l|%M|%B|%U|%G|%%|%x|%-12n|%12n|%-5L|%5l"
for fmt in '%n' '%i %n%L' '%n%L %i' "$all"; do
	both "new: $fmt" -a --out-format="$fmt" src/ DST/
	PREPARE=$extra both "changes: $fmt" -a --delete --out-format="$fmt" src/ DST
	PREPARE=$extra both "-v: $fmt" -av --out-format="$fmt" src/ DST
done
PREPARE=$extra both "dry run" -an --delete --out-format="$all" src/ DST
PREPARE=$extra both "-i and a format without %i" -ai --delete --out-format='%n' src/ DST
PREPARE=$extra both "--log-format" -a --log-format='%o %n' src/ DST
PREPARE=$extra both "an empty format" -a --out-format= src/ DST
PREPARE=$extra both "-g and -o off" -rlpt --out-format='%n %U %G' src/ DST
TOUCH_DST=1 both "without the slash" -a --out-format="$all" src DST
both "push" -a --delete --out-format="$all" -e "$RSH" src/ localhost:DST/
PREPARE=$extra both "pull" -a --delete --out-format="[%o] %n%L %l %i %f" -e "$RSH" localhost:src/ DST/
both "%f of an absolute SRC" -a --out-format='%f|%n' "$T/src/" DST/
printf 'file\nsub/linked\n' > "$T/list"
TOUCH_DST=1 both "%f of --files-from" -a --out-format='%f|%n' --files-from="$T/list" src/ DST/
both "a daemon's escapes" -a --out-format="x %h|%a|%u|%P|%m|%-3m|" src/ DST
# -ii: what is found as it should be is said too ('.f' and blanks), here,
# in a dry run, pushed and pulled
PREPARE=$extra both "-ii" -aii --delete src/ DST
PREPARE=$extra both "-ii, dry run" -aiin src/ DST
PREPARE=$extra both "-ii, pushed" -aii -e "$RSH" src/ localhost:DST/
PREPARE=$extra both "-ii, pulled" -aii -e "$RSH" localhost:src/ DST/
for esc in c C; do
	rm -rf "$T/O" && mkdir "$T/O"
	sweep-sync -a --out-format="x %'-4$esc" "$T/src/" "$T/O/dst" > "$T/out" 2> "$T/err"
	[ $? = 1 ] || fail "%$esc: not a usage error"
	grep -q "%$esc is not supported" "$T/err" || fail "%$esc: not said: $(cat "$T/err")"
	[ ! -e "$T/O/dst" ] || fail "%$esc: DEST made"
done

# the log in its own format (its lines' time and process left out)
for fmt in '%i %n%L' '%n' '%o %n %l' ''; do
	for prog in rsync sweep-sync; do
		side=R
		[ $prog = sweep-sync ] && side=O
		rm -rf "$T/$side" && mkdir "$T/$side" && (cd "$T/$side" && eval "$extra")
		rm -f "$T/$prog.log"
		(cd "$T" && $prog -a --delete --log-file="$T/$prog.log" --log-file-format="$fmt" src/ "$side/dst") > /dev/null 2>&1
		sed 's/^[0-9]\{4\}\/[0-9][0-9]\/[0-9][0-9] [0-9:]\{8\} \[[0-9]*\] //; /^sent /d; /^total /d' \
			"$T/$prog.log" | sort > "$T/$prog.norm"
	done
	check_same "$T/rsync.norm" "$T/sweep-sync.norm" || fail "$fmt: the logs differ"
	grep -q . "$T/sweep-sync.norm" || fail "$fmt: nothing logged"
	[ -n "$fmt" ] || ! grep -q '^$' "$T/sweep-sync.norm" || fail "an empty format: empty lines logged"
done
exit 0
