#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# progress.sh: --progress, -P and --info=progress2. Away from a terminal
# sweep-sync says what rsync says but its progress lines (--progress names
# what it sends, as rsync; --info=progress2 says nothing), and copies the
# same tree; on a terminal (script(1)) the progress line of sweep-cp's
# --progress appears on standard error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
for opts in --progress -P "--info=progress2" "-v --info=progress2"; do
	for side in R O; do
		prog=rsync
		[ $side = O ] && prog=sweep-sync
		rm -rf "$T/$side"
		mkdir "$T/$side"
		(cd "$T" && $prog -a $opts src/ $side/dst) < /dev/null > "$T/$side.out" 2> "$T/$side.err"
		echo "status $?" >> "$T/$side.out"
		tr '\r' '\n' < "$T/$side.out" | grep -v '^ *[0-9,]* *[0-9]*% ' | grep -v '^$' |
			sed "s|$side/|X/|g; /^sent .* bytes  received .* bytes/d; s/  speedup is .*//" |
			sort > "$T/$side.sorted"
	done
	check_same "$T/R.sorted" "$T/O.sorted"
	[ -s "$T/O.err" ] && fail "$opts: wrote to a non-terminal: $(cat "$T/O.err")"
	smanifest "$T/R" > "$T/R.tree"
	smanifest "$T/O" > "$T/O.tree"
	check_same "$T/R.tree" "$T/O.tree"
done
if command -v script >/dev/null; then
	for opts in --progress --info=progress2; do
		rm -rf "$T/tty"
		(cd "$T" && script -qec "sweep-sync -a $opts src/ tty" /dev/null) > "$T/tty.out" 2>&1 ||
			fail "$opts on a terminal: $(cat "$T/tty.out")"
		grep -q 'files, .*/s' "$T/tty.out" || fail "$opts: no progress line on a terminal"
	done
fi
exit 0
