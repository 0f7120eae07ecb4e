#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# vanished.sh: a source file removed while the run goes over it, made
# deterministic by an LD_PRELOAD shim (tests/find/vanish-shim.c) that
# removes d/victim at the first look at its status (after its directory
# was read), or at its first opening for reading (after its status was
# taken), or an empty directory at its opening: rsync's "file has
# vanished" ("directory has vanished") and status 24, everything else
# copied, the same as rsync's run, here, pushed and pulled (the shim goes
# into both ends: only the sender's side has the file).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
build_shim tests/find/vanish-shim.c
local_rsh
# (removing the victim gives its directory the time of the run)
export TIMES=no
export PREPARE='mkdir -p src/d && echo a > src/a && echo v > src/d/victim &&
	echo b > src/d/b && echo c > src/c && touch -d 2011-01-01 src/a src/d/b src/c'
for at in stat open; do
	export WRAP="env VANISH_NAME=victim VANISH_AT=$at LD_PRELOAD=$T/vanish-shim.so"
	both "$at" -a SRC/ DST/
	grep -q 'file has vanished: "/.*/d/victim"$' "$T/O.err" ||
		fail "$at: no 'file has vanished' said, with the whole path: $(cat "$T/O.err")"
	grep -qx 'status 24' "$T/O.out" || fail "$at: not status 24: $(tail -1 "$T/O.out")"
	[ -f "$T/O/dst/d/b" ] && [ -f "$T/O/dst/c" ] || fail "$at: the rest not copied"
	both "$at, pushed" -a -e "$RSH" SRC/ localhost:DST/
	both "$at, pulled" -a -e "$RSH" localhost:SRC/ DST/
done
# an empty directory gone before it is read (only the source's: the copy
# has one of that name too): "directory has vanished", 24
export PREPARE='mkdir -p src/d/victim src/e && echo a > src/a && echo f > src/e/f &&
	touch -d 2011-01-01 src/a src/e/f'
export WRAP="env VANISH_NAME=victim VANISH_AT=opendir VANISH_UNDER=/src/ LD_PRELOAD=$T/vanish-shim.so"
both "opendir" -ai SRC/ DST/
grep -q 'directory has vanished: "/.*/d/victim"$' "$T/O.err" ||
	fail "opendir: no 'directory has vanished' said: $(cat "$T/O.err")"
grep -qx 'status 24' "$T/O.out" || fail "opendir: not status 24: $(tail -1 "$T/O.out")"
both "opendir, pushed" -ai -e "$RSH" SRC/ localhost:DST/
both "opendir, pulled" -ai -e "$RSH" localhost:SRC/ DST/
export PREPARE='mkdir -p src/d && echo a > src/a && echo v > src/d/victim &&
	echo b > src/d/b && echo c > src/c && touch -d 2011-01-01 src/a src/d/b src/c'
# -v and --stats beside it: the file is neither listed nor counted (gone at
# its first look; one that goes between its look and its opening was
# listed by then, a race whose lines each program prints in its own time)
export WRAP="env VANISH_NAME=victim VANISH_AT=stat LD_PRELOAD=$T/vanish-shim.so"
NO_DELTA=1 both "stat, -v --stats" -av --stats SRC/ DST/
exit 0
