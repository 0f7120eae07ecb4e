#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# prune.sh: -m (--prune-empty-dirs) beside rsync, here, pushed and pulled
# over a remote shell: chains of empty directories left out, and those
# whose only files the filters leave out; a link or a fifo keeps its
# directory (even skipped); the include-only idiom (--include='*/'
# --include=PATTERN --exclude='*'); --delete removes what DEST has of a
# pruned directory (and says what it cannot, a file its rules protect),
# but not a directory a protect rule keeps; SRC named without its slash
# is pruned itself when empty, SRC/ is not; --delete-before and -after,
# --delete-excluded; -xx; -L (a link to an empty directory pruned); several
# SRC (a directory empty in one kept for the other's file);
# --no-prune-empty-dirs undoes it, and without -r nothing is pruned. -m
# with --files-from or -R is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a/b/c" "$T/src/e" "$T/src/l" "$T/src/fifo" "$T/src/x/y" "$T/src/n/m/k" \
	"$T/empty/sub/deeper"
echo t > "$T/src/a/b/f.txt"
echo o > "$T/src/x/y/g.o"
echo k > "$T/src/n/m/k/h.txt"
ln -s nowhere "$T/src/l/sym"
mkfifo "$T/src/fifo/p"
find "$T/src" "$T/empty" -exec touch -h -d 2011-01-01 {} +
# what --delete meets: a directory the source has empty, one it lacks,
# one whose only file the rules protect
MADE='mkdir -p dst/e dst/stale/sub dst/x/y dst/a/b/c; echo z > dst/x/y/old.o
echo q > dst/stale/sub/f; find dst -exec touch -d 2011-01-01 {} +'
AFTER='for d in dst/x dst/x/y dst/a dst/a/b; do [ ! -d $d ] || touch -d 2011-01-01 $d; done'
local_rsh
for via in here push pull; do
	src=src/ dst=DST rsh=
	[ $via = push ] && dst=localhost:DST rsh="-e $RSH"
	[ $via = pull ] && src=localhost:$T/src/ rsh="-e $RSH"
	# shellcheck disable=SC2086
	{
	for PREPARE in '' "$MADE"; do
		into=" into a new DEST"
		[ -n "$PREPARE" ] && into=
		both "$via: -m$into" -ai -m $rsh $src $dst
		both "$via: -m, no -l, no -D$into" -rti -m $rsh $src $dst
		both "$via: files excluded$into" -ai --prune-empty-dirs $rsh --exclude='*.o' \
			$src $dst
		both "$via: the include-only idiom$into" -ai -m $rsh --include='*/' \
			--include='*.txt' --exclude='*' $src $dst
		both "$via: -xx$into" -ai -m -xx $rsh $src $dst
	done
	both "$via: --delete" -ai -m --delete $rsh --exclude='*.o' $src $dst
	both "$via: --delete, protected" -ai -m --delete $rsh -f'protect e/' --exclude='*.o' \
		$src $dst
	both "$via: --delete-before" -ai -m --delete-before $rsh --exclude='*.o' $src $dst
	both "$via: --delete-after" -ai -m --delete-after $rsh --exclude='*.o' $src $dst
	both "$via: --no-prune-empty-dirs" -ai -m --no-prune-empty-dirs $rsh $src $dst
	both "$via: --delete-excluded" -ai -m --delete --delete-excluded --exclude='*.o' $rsh \
		$src $dst
	}
done
# -L: a link to an empty directory is one, pruned, and what DEST has of
# it deleted; a link to one with a file is kept
mkdir -p "$T/links/e" "$T/links/full"
echo f > "$T/links/full/f"
ln -s e "$T/links/to-empty"
ln -s full "$T/links/to-full"
find "$T/links" -exec touch -h -d 2011-01-01 {} +
PREPARE='mkdir -p dst/to-empty dst/to-full; echo o > dst/to-empty/o; find dst -exec touch -d 2011-01-01 {} +'
both "-L, --delete" -rtLi -m --delete links/ DST
both "-L, --delete, pushed" -rtLi -m --delete -e "$RSH" links/ localhost:DST
both "-L, --delete, pulled" -rtLi -m --delete -e "$RSH" "localhost:$T/links/" DST
# several SRC: a directory one of them has empty and another not is kept,
# and what DEST has of it too
mkdir -p "$T/one/p/x" "$T/two/p/x" "$T/two/q"
echo 1 > "$T/one/p/x/f"
echo 3 > "$T/two/p/h"
find "$T/one" "$T/two" -exec touch -h -d 2011-01-01 {} +
PREPARE='mkdir -p dst/p/x dst/q; echo old > dst/p/x/f; find dst -exec touch -d 2011-01-01 {} +'
both "two SRC, --delete" -ai -m --delete one/ two/ DST
both "two SRC, --delete-after" -ai -m --delete-after one/ two/ DST
both "two SRC, --delete, pushed" -ai -m --delete -e "$RSH" one/ two/ localhost:DST
# SRC named without its slash: pruned itself when it holds no file
PREPARE='mkdir -p dst/empty/sub dst/empty/junk; find dst -exec touch -d 2011-01-01 {} +'
both "SRC without its slash" -ai -m --delete empty DST
both "SRC/" -ai -m --delete empty/ DST
both "SRC without its slash, pushed" -ai -m --delete -e "$RSH" empty localhost:DST
both "SRC without its slash, pulled" -ai -m --delete -e "$RSH" "localhost:$T/empty" DST
both "without -r" -lptgoDi -m empty DST

# --files-from: refused, said, nothing copied
echo a > "$T/list"
(cd "$T" && sweep-sync -a -m --files-from=list src/ refused) > "$T/refused.out" 2>&1 && r=0 || r=$?
[ "$r" = 1 ] || fail "-m with --files-from: status $r, not 1"
grep -q "^sweep-sync: --files-from with --prune-empty-dirs is not supported" "$T/refused.out" ||
	fail "-m with --files-from: no message: $(cat "$T/refused.out")"
[ ! -e "$T/refused" ] || fail "-m with --files-from: copied all the same"
(cd "$T" && sweep-sync -a -m -R src/./a refused) > "$T/refused.out" 2>&1 && r=0 || r=$?
[ "$r" = 1 ] || fail "-m with -R: status $r, not 1"
grep -q "^sweep-sync: -R with --prune-empty-dirs is not supported" "$T/refused.out" ||
	fail "-m with -R: no message: $(cat "$T/refused.out")"
[ ! -e "$T/refused" ] || fail "-m with -R: copied all the same"
exit 0
