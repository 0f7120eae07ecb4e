#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# deep.sh: a tree deeper than PATH_MAX (about 6,000 bytes of path), copied
# with -a: the copy's metadata is the source's, to the nanosecond, and the
# file at the bottom is whole. Only *at() calls from open directories can
# reach there. GNU cp 9.1 cannot ("cannot stat ...: File name too long",
# status 1), so the copy is compared with its source instead.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
long=$(printf 'd%.0s' $(seq 200))
mkdir "$T/src"
(cd "$T/src" && for _ in $(seq 30); do mkdir "$long" && cd "$long" || exit 1; done
 printf 'at the bottom\n' > bottom && ln bottom bottom2 && ln -s bottom bottom-link
 chmod 0500 .) || fail "cannot build the deep tree"
(cd "$T" && sweep-cp -a src dst) || fail "sweep-cp -a failed on a deep tree"
manifest "$T/src" > "$T/src.tree"
manifest "$T/dst" > "$T/dst.tree"
check_same "$T/src.tree" "$T/dst.tree"
bottom() {
	cd "$1" || return 1
	for _ in $(seq 30); do cd "$long" || return 1; done
	cat bottom
}
[ "$(bottom "$T/dst")" = "at the bottom" ] || fail "the bottom file is not whole"
chmod -R u+w "$T/src" "$T/dst"

# -n and -u keep a copy there without opening its source (unreadable:
# nothing said), and -v names a copy before its source is found
# unreadable: sweep-cp in a tree deeper than PATH_MAX as GNU cp in a
# shallow one (the copy was looked at by its path: "cannot open" for all)
unprivileged
chmod 755 "$T"
# closed PROG DEPTH: counts of what PROG says, per option set, where the
# copy of kept is there and its source closed, and new is unreadable
closed() {
	rm -rf "$T/u" && mkdir "$T/u"
	[ -z "$AS_USER" ] || chown nobody "$T/u"
	# shellcheck disable=SC2016 # expanded by the inner shell
	(cd "$T/u" && $AS_USER bash -c 'mkdir src && cd src && for _ in $(seq "$2"); do
		mkdir "$1" && cd "$1" || exit 1; done; echo k > kept' sh "$long" "$2") ||
		fail "cannot build the tree of depth $2"
	(cd "$T/u" && $AS_USER "$1" -r src dst) || fail "$1 -r, depth $2"
	(cd "$T/u/src" && for _ in $(seq "$2"); do cd "$long" || exit 1; done
	 chmod 000 kept && $AS_USER bash -c 'echo n > new && chmod 000 new') ||
		fail "cannot close the files"
	for opts in -rn -ru -ruv -rnv; do
		(cd "$T/u" && $AS_USER "$1" $opts -T src dst) > "$T/out" 2> "$T/err"
		printf '%s: status %s, %s lines naming kept, %s errors for new, %s -v lines for new\n' \
			"$opts" $? "$(cat "$T/out" "$T/err" | grep -c /kept)" \
			"$(grep -c "/new' for reading: Permission denied" "$T/err")" \
			"$(grep -c "/new' -> 'dst/" "$T/out")"
	done
	chmod -R u+rwx "$T/u"
}
closed cp 1 > "$T/gnu"
closed sweep-cp 30 > "$T/sweep"
check_same "$T/gnu" "$T/sweep"
