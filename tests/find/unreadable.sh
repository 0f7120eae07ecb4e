#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/unreadable.sh: directories sweep-find cannot read. As GNU find
# does, it evaluates the directory itself, reports "Permission denied" for
# its contents, goes on, and exits with status 1; with -depth too, and for
# -empty, -readable and -delete. Root reads everything, so as root both
# tools run as nobody (setpriv), or the test is skipped. A directory that
# can be read but not searched (mode r--) lists names that cannot be
# examined: they are reported and still evaluated, tests on their status
# failing, as in GNU find.
. "$top_srcdir/tests/lib.sh"
need_cmd find
command -v sweep-find >/dev/null || fail "sweep-find not built"
unprivileged
# shellcheck disable=SC2206 # words without spaces, split on purpose
run=($AS_USER)
chmod 755 "$T"
cd "$T" || fail "no scratch directory"
ours=$(command -v sweep-find)

build() {
	rm -rf t && mkdir -p t/ok t/noread/in t/deep/a/noread2/x t/empty t/locked t/noexec/in
	printf 'x\n' > t/ok/f
	printf 'y\n' > t/noread/in/f
	printf 'w\n' > t/deep/a/noread2/x/w
	printf 'r\n' > t/ok/unreadable-file
	printf 'l\n' > t/locked/keep
	printf 'z\n' > t/noexec/f
	touch -d '-1 hour' t/ok/f # the reference of -newer, older than the rest
	[ "$(id -u)" = 0 ] && chown -R nobody t
	[ "$(id -u)" = 0 ] && chown root t/locked
	chmod 000 t/noread t/deep/a/noread2 t/ok/unreadable-file
	chmod 555 t/locked
	chmod 600 t/noexec
}

failures=0 checks=0
check() {
	checks=$((checks + 1))
	build
	"${run[@]}" find "$@" > gnu.out 2> gnu.err
	local g=$?
	# only -delete changes the tree; rebuilding it for nothing would give
	# its files other inode numbers, which -ls prints
	case " $* " in *" -delete "*) build ;; esac
	"${run[@]}" "$ours" "$@" > our.out 2> our.err
	local o=$?
	sort -o gnu.out gnu.out; sort -o our.out our.out
	sort gnu.err > gnu.msgs; sed 's/^sweep-find:/find:/' our.err | sort > our.msgs
	if ! cmp -s gnu.out our.out || ! cmp -s gnu.msgs our.msgs || [ $g != $o ]; then
		failures=$((failures + 1))
		echo "FAIL: find $* (status $g, ours $o)" >&2
		diff gnu.out our.out >&2
		diff gnu.msgs our.msgs >&2
	fi
}
check t
check t -depth
check t -type d
check t -empty
check t -readable
check t ! -readable
check t -name noread -prune -o -print
check t -maxdepth 1
check t/noread
check t/noread -depth
check t -ls
check t -printf '%p %y %m\n'
check -L t
check t -delete
check t -name '*f*' -delete
check t/noexec
check t -type f
check t -size 0
check t -name in
check t -printf '%p %y\n'
check t -printf '%p %s\n'
check t -user nobody
check t -newer t/ok/f
check t -samefile t/ok/f
# Again with libsweep's helper threads (they start by themselves only on a
# cold cache): a name they could not stat comes without its status, and is
# reported when a test asks for it, as GNU find reports it.
export SWEEP_WARM=on SWEEP_ORDER=inode
check t
check t -ls
check t -size 0
check t -printf '%p %s\n'
check t/noexec
check t -newer t/ok/f
check t -samefile t/ok/f
unset SWEEP_WARM SWEEP_ORDER
echo "find unreadable: $checks checks, $failures failed"
[ $failures = 0 ] || fail "$failures of $checks checks differ from GNU find"
