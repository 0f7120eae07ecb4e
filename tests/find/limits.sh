#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/limits.sh: arguments at the edges of what a number can hold,
# found by fuzzing: -printf flags repeated past the end of a directive's
# spec, widths and precisions beyond INT_MAX (GNU find: EOVERFLOW on that
# directive, the rest printed) or merely large (printed in full), times
# beyond time_t, and name order over an empty directory. Each must give GNU
# find's output, messages (program name aside) and exit status.
. "$top_srcdir/tests/lib.sh"
need_cmd find cksum
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"
cd "$T" || fail "no scratch directory"
mkdir -p t/d empty && printf 'x\n' > t/f
gnu=$(command -v find) ours=$(command -v sweep-find)

failures=0 checks=0
# check [env NAME=VALUE] ARGS...: run both; outputs are compared by checksum
# (a wide field is large) after sorting (disk order is not GNU's order)
check() {
	local envs=()
	if [ "${1:-}" = env ]; then
		envs=("$2")
		shift 2
	fi
	checks=$((checks + 1))
	rm -f o.txt
	([ ${#envs[@]} = 0 ] || export "${envs[@]}"; exec -a find "$gnu" "$@") 2> gnu.err < /dev/null |
		sort | cksum > gnu.out
	local g=${PIPESTATUS[0]}
	[ -f o.txt ] && sort o.txt | cksum >> gnu.out
	rm -f o.txt
	([ ${#envs[@]} = 0 ] || export "${envs[@]}"; exec "$ours" "$@") 2> our.err < /dev/null |
		sort | cksum > our.out
	local o=${PIPESTATUS[0]}
	[ -f o.txt ] && sort o.txt | cksum >> our.out
	sed 's/^sweep-find:/find:/' our.err | sort > our.msgs
	sort gnu.err > gnu.msgs
	if ! cmp -s gnu.msgs our.msgs || ! cmp -s gnu.out our.out || [ "$g" != "$o" ]; then
		failures=$((failures + 1))
		echo "FAIL: find $* (status $g, ours $o)" >&2
		diff gnu.msgs our.msgs | head -5 >&2
		diff gnu.out our.out >&2
	fi
}

# flags: GNU find takes "-+ #" in any number, then digits (a '0' leads the
# width), so a '-' after the '0' is an unknown directive
check t -printf '%-+ #0-+ #0-+ #2147483647.2147483647d\n'
check t -printf '%-+ #-+ #-+ #-+ # 5d|\n'
check t -printf '%0-5p|%0+d|%-+ #0-d|%05d|%-05d|%00d|% 5d|%#m|%# 8m|%--5p|\n'
# beyond INT_MAX: that directive fails, the rest is printed
check t -printf 'A%2147483648pB\n'
check t -printf 'A%.2147483648pB\n'
check t -printf '%99999999999999999999d\n'
check t -fprintf o.txt '%4294967297s|\n'
# large but valid: all of it, and quickly
check t -printf '%9999999p|%-9999999f|\n'
# times beyond time_t
check t -ctime 99999999999999999999
check t -ctime -99999999999999999999
check t -mtime +99999999999999999999
check t -mmin -1e300
check t -amin 1e300
# name order meets a directory with nothing in it
check env SWEEP_ORDER=name empty
check env SWEEP_ORDER=name t empty -empty

echo "find limits: $checks checks, $failures failed"
[ $failures = 0 ] || fail "$failures of $checks checks differ from GNU find"
