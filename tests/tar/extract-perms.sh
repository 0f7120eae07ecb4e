#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# extract-perms.sh: -p as a user who is not root. The files become the
# user's, and GNU tar keeps their set-user-id and set-group-id bits (they
# give nothing the user lacks); libarchive alone drops them when the
# archive names another owner. Modes must match GNU tar's. Without -p, a
# directory there already gets the member's mode less the umask.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar
need_root
unprivileged

mkdir "$T/src"
for m in 4755 2755 6755 0755 4700; do
	printf 'x\n' > "$T/src/m$m"
	chmod "$m" "$T/src/m$m"
done
tar -cf "$T/perms.tar" -C "$T/src" .
chmod 0755 "$T"
chmod 0644 "$T/perms.tar"
mkdir "$T/gnu" "$T/sweep"
chown nobody "$T/gnu" "$T/sweep"
(cd "$T/gnu" && $AS_USER tar -xpf "$T/perms.tar") || fail "GNU tar -xp failed"
(cd "$T/sweep" && $AS_USER "$sweep_tools/sweep-tar" -xpf "$T/perms.tar") || fail "sweep-tar -xp failed"
(cd "$T/gnu" && stat -c '%A %U %n' m*) > "$T/want"
(cd "$T/sweep" && stat -c '%A %U %n' m*) > "$T/got"
check_same "$T/want" "$T/got"
# --same-owner as a user: GNU's words for an owner it cannot give (they
# were libarchive's "Can't set user=0/group=0")
rm -rf "$T/gnu" "$T/sweep" && mkdir "$T/gnu" "$T/sweep" && chown nobody "$T/gnu" "$T/sweep"
for side in gnu sweep; do
	prog=tar
	[ $side = sweep ] && prog="$sweep_tools/sweep-tar"
	(cd "$T/$side" && $AS_USER $prog --same-owner -xf "$T/perms.tar") 2>&1 |
		sed 's/^[^:]*tar: //' | sort > "$T/$side.msgs"
done
check_same "$T/gnu.msgs" "$T/sweep.msgs" || fail "--same-owner as a user: messages"
# without -p, a directory of the user's that is there already gets the
# member's mode less the umask at the end, as GNU tar gives it (it kept
# its own; a read-only one stayed so after the failure to write in it)
mkdir -p "$T/dsrc/d" && printf 's\n' > "$T/dsrc/d/s"
tar -cf "$T/dirs.tar" -C "$T/dsrc" d && chmod 0644 "$T/dirs.tar"
for m in 700 555 750; do
	for side in gnu sweep; do
		rm -rf "$T/$side" && mkdir -p "$T/$side/d" && chmod $m "$T/$side/d"
		chown -R nobody "$T/$side"
		prog=tar
		[ $side = sweep ] && prog="$sweep_tools/sweep-tar"
		(cd "$T/$side" && $AS_USER $prog -xf "$T/dirs.tar") > /dev/null 2>&1
		echo "status $?" > "$T/$side.out"
		(cd "$T/$side" && stat -c '%a %n' d && ls d) >> "$T/$side.out"
	done
	check_same "$T/gnu.out" "$T/sweep.out" || fail "an existing directory $m"
done
# one that is not the user's (root's, writable by all): its mode and time
# cannot be given, said once each in GNU tar's words, exit 2 (with -m the
# mode's failure was not said, exit 0; without it, libarchive's words too)
mkdir -p "$T/esrc/d"
tar -cf "$T/empty.tar" -C "$T/esrc" d && chmod 0644 "$T/empty.tar"
for opt in -m -p ""; do
	for side in gnu sweep; do
		rm -rf "$T/$side" && mkdir -p "$T/$side/d" && chmod 777 "$T/$side" "$T/$side/d"
		prog=tar
		[ $side = sweep ] && prog="$sweep_tools/sweep-tar"
		# shellcheck disable=SC2086 # no option is none
		(cd "$T/$side" && $AS_USER $prog $opt -xf "$T/empty.tar") 2>&1 |
			sed 's/^[^:]*tar: //' > "$T/$side.out"
		(cd "$T/$side" && stat -c '%a %U %n' d) >> "$T/$side.out"
	done
	check_same "$T/gnu.out" "$T/sweep.out" || fail "another's directory there, $opt"
done
exit 0
