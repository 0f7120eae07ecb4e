#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# temp-mode.sh: the temporary copy of a set-user-ID program of another
# user's is, while it is written, root's alone (0700), as rsync's is, and
# the whole copy gets the program's mode and owner; a directory that is
# not its owner's to write is made with its own mode as root (rsync's);
# both seen half way through, the copy stalled in its first write to the
# temporary file (stall-shim.c). Before: the temporary copy was made
# -rwsr-xr-x, root's, anyone's to run, and the directory 0755.
. "$top_srcdir/tests/lib.sh"
need_root
id nobody >/dev/null 2>&1 || skip "needs the user nobody"
build_shim tests/sync/stall-shim.c
mkdir -p "$T/src/ro"
head -c 300000 /dev/urandom > "$T/src/ro/prog"
chown nobody "$T/src/ro/prog"
chmod 4755 "$T/src/ro/prog"
chmod 0555 "$T/src/ro"
for prog in rsync sweep-sync; do
	rm -f "$T/mark"
	# (-b: a temporary file with a name, not the writer thread's unnamed one)
	(cd "$T" && STALL_NAME=/.prog. STALL_SECONDS=3 STALL_MARK="$T/mark" \
		LD_PRELOAD="$T/stall-shim.so" $prog -ab src/ "$prog.dst/") > "$T/$prog.out" 2>&1 &
	n=0
	while [ ! -e "$T/mark" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$T/mark" ] || fail "$prog never wrote prog"
	(cd "$T/$prog.dst" && find . -printf '%m %u %P\n' | sed 's/\.prog\.[^.]*$/.prog.X/' | sort) \
		> "$T/$prog.during"
	wait || fail "$prog: status $?"
	(cd "$T/$prog.dst" && find . -printf '%m %u %P\n' | sort) > "$T/$prog.after"
done
grep -q '^700 root ro/.prog.X$' "$T/rsync.during" ||
	fail "rsync's temporary file is not 0700 (this test's idea of rsync is wrong): $(cat "$T/rsync.during")"
check_same "$T/rsync.during" "$T/sweep-sync.during" || fail "half way"
check_same "$T/rsync.after" "$T/sweep-sync.after" || fail "after"
exit 0
