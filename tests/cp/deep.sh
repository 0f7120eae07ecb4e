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
