#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/du/unreadable.sh: directories sweep-du cannot read or search. As
# GNU du does, it reports each one ("cannot read directory", "cannot
# access"), counts what it could see, and exits with status 1. Root reads
# everything, so as root both tools run as nobody (setpriv); without
# setpriv or the nobody user, the test is skipped.
. "$top_srcdir/tests/lib.sh"
need_cmd du
command -v sweep-du >/dev/null || fail "sweep-du not built"
unprivileged
# shellcheck disable=SC2206 # words without spaces, split on purpose
run=($AS_USER)
chmod 755 "$T"
cd "$T" || fail "no scratch directory"
mkdir -p t/ok t/noread/in t/noexec/in t/deep/a/noread2/x t/mixed/open
printf 'x\n' > t/ok/f
head -c 9000 /dev/zero > t/noread/in/f
printf 'z\n' > t/noexec/f
printf 'w\n' > t/deep/a/noread2/x/w
head -c 5000 /dev/zero > t/mixed/open/big
mkdir t/root-noread
[ "$(id -u)" = 0 ] && chown -R nobody t
chmod 000 t/noread t/deep/a/noread2 t/root-noread
chmod 600 t/noexec
[ "$(id -u)" = 0 ] && chown root t/mixed && chmod 711 t/mixed

failures=0 checks=0
check() {
	checks=$((checks + 1))
	"${run[@]}" du "$@" > gnu.out 2> gnu.err
	local g=$?
	"${run[@]}" "$(command -v sweep-du)" "$@" > our.out 2> our.err
	local o=$?
	sort gnu.out > gnu.sorted; sort our.out > our.sorted
	sort gnu.err > gnu.msgs; sed 's/^sweep-du:/du:/' our.err | sort > our.msgs
	if ! cmp -s gnu.sorted our.sorted || ! cmp -s gnu.msgs our.msgs || [ $g != $o ]; then
		failures=$((failures + 1))
		echo "FAIL: du $* (status $g, ours $o)" >&2
		diff gnu.sorted our.sorted >&2
		diff gnu.msgs our.msgs >&2
	fi
	[ $o = 1 ] || [ "$*" = "t/ok" ] || { failures=$((failures + 1)); echo "FAIL: du $*: status $o, not 1" >&2; }
}
check t
check -a t
check -s t
check -c t/noread t/ok t/noexec
check -aL t
check -a --inodes t
check -b t
check t/root-noread
check t/noread/in
check t/ok
echo "du unreadable: $checks checks, $failures failed"
[ $failures = 0 ] || fail "$failures of $checks checks differ from GNU du"
