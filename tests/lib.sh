# SPDX-License-Identifier: BSD-2-Clause
# tests/lib.sh: shared by the shell tests. Source it first; it makes a
# scratch directory $T (removed on exit) and provides:
#   skip REASON      exit 77 with REASON on stderr (automake: SKIP)
#   fail MESSAGE     print MESSAGE and exit 1
#   need_root        skip unless running as root
#   need_cmd CMD...  skip unless every CMD is installed
#   check_same A B   fail with a diff unless files A and B are identical
#   unprivileged     set AS_USER to the command prefix (words without spaces,
#                    to be used unquoted) that runs without root's powers,
#                    empty when not root; or skip
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sweep-test.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
PATH="$top_builddir:$top_builddir/tests:$PATH"
export LC_ALL=C

skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { for c; do command -v "$c" >/dev/null 2>&1 || skip "needs $c"; done; }
check_same() {
	cmp -s "$1" "$2" && return 0
	diff -u "$1" "$2" | head -40 >&2
	fail "$1 and $2 differ"
}
unprivileged() { # POSIX sh: the tar tests run under dash
	AS_USER=
	[ "$(id -u)" = 0 ] || return 0
	need_cmd setpriv
	id nobody >/dev/null 2>&1 || skip "no user nobody to drop privileges to"
	_group=$(id -gn nobody 2>/dev/null)
	getent group nogroup >/dev/null && _group=nogroup
	AS_USER="setpriv --reuid=nobody --regid=$_group --clear-groups"
	$AS_USER true 2>/dev/null || skip "setpriv cannot drop privileges here"
}
