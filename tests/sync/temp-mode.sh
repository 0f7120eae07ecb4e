#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# temp-mode.sh: under -p the temporary copy of a file is its owner's alone
# (0700 at most, no set-id bit) while it is written, as rsync's is, and
# the whole copy gets the file's mode (and owner); a directory is made
# with its own mode, as rsync makes it; both seen half way through, the
# copy stalled in its first write to the temporary file (stall-shim.c).
# As root, a set-user-ID program of another user's in a directory not its
# owner's to write (before: the temporary copy was made -rwsr-xr-x, root's
# and anyone's to run, and the directory 0755); as a user, such a program
# of the user's, with --no-o --no-g (before: the temporary copy was 0755).
. "$top_srcdir/tests/lib.sh"
build_shim tests/sync/stall-shim.c
chmod 755 "$T"

# run WHO [OPTION]: each of rsync and sweep-sync copies $T/WHO/src half way,
# then whole, as WHO (root, or the user of $AS_USER); the two compared
run() {
	for prog in rsync sweep-sync; do
		rm -f "$T/mark"
		# (-b: a temporary file with a name, not the writer thread's unnamed one)
		(cd "$T/$1" && $AS env STALL_NAME=/.prog. STALL_SECONDS=3 STALL_MARK="$T/$1/mark" \
			LD_PRELOAD="$T/stall-shim.so" $prog -ab ${2:-} src/ "$prog.dst/") > "$T/$1/$prog.out" 2>&1 &
		n=0
		while [ ! -e "$T/$1/mark" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		[ -e "$T/$1/mark" ] || fail "$1: $prog never wrote prog"
		(cd "$T/$1/$prog.dst" && find . -printf '%m %u %P\n' | sed 's/\.prog\.[^.]*$/.prog.X/' |
			sort) > "$T/$1/$prog.during"
		wait || fail "$1: $prog: status $?"
		(cd "$T/$1/$prog.dst" && find . -printf '%m %u %P\n' | sort) > "$T/$1/$prog.after"
		rm -f "$T/$1/mark"
	done
	grep -q '^700 [a-z]* ro/.prog.X$' "$T/$1/rsync.during" ||
		fail "$1: rsync's temporary file is not 0700 (this test's idea of rsync is wrong): $(cat "$T/$1/rsync.during")"
	check_same "$T/$1/rsync.during" "$T/$1/sweep-sync.during" || fail "$1: half way"
	check_same "$T/$1/rsync.after" "$T/$1/sweep-sync.after" || fail "$1: after"
}

# prog in ro/ of WHO's tree, mode 4755, then ro made MODE
tree() {
	mkdir -p "$T/$1/src/ro"
	head -c 300000 /dev/urandom > "$T/$1/src/ro/prog"
	chmod 4755 "$T/$1/src/ro/prog"
}

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	tree root
	chown nobody "$T/root/src/ro/prog"
	chmod 4755 "$T/root/src/ro/prog"
	chmod 0555 "$T/root/src/ro"
	AS= run root
else
	echo "SKIP part: a program of another user's copied as root needs root and nobody" >&2
fi
unprivileged
tree user
chmod 0775 "$T/user/src/ro"
[ -n "$AS_USER" ] && chown -R nobody "$T/user" && chmod 4755 "$T/user/src/ro/prog"
AS=$AS_USER run user --no-o\ --no-g
exit 0
