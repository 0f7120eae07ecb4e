#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# exclude.sh: --exclude and --include beside rsync: a name anywhere, a
# pattern anchored with '/', directories only with a trailing '/', '*',
# '**', '?' and classes, a path with a '/' inside, the first match
# deciding, and an excluded directory left out with all it holds; a
# trailing "/***" (the directory too), "**" never standing for a slash
# less (but for nothing at an unanchored pattern's start),
# POSIX classes ([[:alpha:]]), and "- " and "+ " before a pattern given
# to --exclude or --include; "!" clears the rules before it.
# (NO_TREE where DST gets a new entry: its time is that of the run)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a/b/c" "$T/src/b" "$T/src/logs" "$T/src/x.o"
for f in a/one.o a/b/two.o a/b/c/three.c b/four.c logs/l1 top.o top.c x.o/in a/b/logs b/f1 b/f2; do
	echo "$f" > "$T/src/$f"
done
find "$T/src" -exec touch -d 2011-01-01 {} +
both "name" -ai --exclude=top.o src/ DST
both "wildcard" -ai --exclude='*.o' src/ DST
both "directories only" -ai --exclude='*.o/' --exclude='logs/' src/ DST
both "anchored" -ai --exclude=/b src/ DST
NO_TREE=1 both "anchored in a directory" -ai --exclude=/src/b src DST
both "path" -ai --exclude=b/c src/ DST
both "**" -ai --exclude='a/**/three.c' src/ DST
both "?" -ai --exclude='f?' src/ DST
both "class" -ai --exclude='f[13]' --exclude='[!a-z]*' src/ DST
both "include first" -ai --include='*.c' --include='*/' --exclude='*' src/ DST
both "/***" -ai --exclude='b/***' src/ DST
both "/*** included" -ai --include='b/***' --exclude='*' src/ DST
both "**/ for none" -ai --exclude='**/b/**' src/ DST
# a backslash escapes only in a pattern with a wildcard: 'a\b' is that
# name (sweep-sync took it for ab, and deleted ab under --delete-excluded)
for p in 'a\b' 'a\*' 'a\\b' '*\b'; do
	PREPARE='mkdir -p src dst && echo 1 > src/ab && echo 2 > "src/a\\b" && echo 3 > "src/a*" &&
		echo 4 > "src/a\\\\b" && echo 5 > dst/ab && touch -d 2011-01-01 src/* src dst/ab' \
		NO_TREE=1 both "a backslash: $p" -ai --delete-excluded --exclude="$p" SRC/ DST
	for side in R O; do ls "$T/$side/dst" > "$T/$side.ls"; done
	check_same "$T/R.ls" "$T/O.ls" || fail "a backslash: $p: the trees differ"
done
# two stars never stand for a slash less ('a/**/two.o' is not a/two.o,
# which sweep-sync excluded, and deleted under --delete-excluded), but at
# an unanchored pattern's start they may stand for nothing
echo a/two.o > "$T/src/a/two.o" && touch -d 2011-01-01 "$T/src/a/two.o" "$T/src/a"
for p in 'a/**/two.o' '/a/**/two.o' '**/two.o' '/**/top.c' '**/a/two.o' 'b/**/three.c' \
	'***/top.c' '**/c/' 'a/***'; do
	both "two stars: $p" -ai --exclude="$p" src/ DST
	PREPARE='rsync -a ../src/ dst/' both "two stars, --delete-excluded: $p" -ai --delete-excluded \
		--exclude="$p" src/ DST
done
both "a POSIX class" -ai --exclude='[[:alpha:]][[:digit:]]' --exclude='[![:lower:]]*.o' src/ DST
both "- and + before a pattern" -ai --exclude='- top.*' --exclude='+ *.c' --exclude='*.c' \
	--include='- f1' src/ DST
PREPARE='mkdir dst' NO_TREE=1 both "exclude the root's name" -ai --exclude=src src DST
both "'!' drops the rules before it" -ai --exclude='*.o' --exclude='!' --exclude='*.c' src/ DST
both "'!' as an include" -ai --exclude='*.o' --include='!' src/ DST
printf '*.o\n!\nf1\n' > "$T/bang"
both "'!' in --exclude-from" -ai --exclude-from="$T/bang" src/ DST
