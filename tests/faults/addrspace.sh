#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/faults/addrspace.sh: under a low RLIMIT_AS, with the helper threads
# forced on (SWEEP_WARM=on), sweep-find and sweep-du give what GNU find and
# du give at the same limit: the same lines, exit 0, no messages. The
# helpers' stacks and queues once took the address space the walk needed
# (8 MiB a thread by default), and entries were lost with "Cannot allocate
# memory"; below 16 MiB left no helper starts (their malloc arenas made
# the walk's allocations fail now and then). Sanitizer builds reserve
# terabytes of address space: skipped.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/faults/tree.sh"
need_cmd prlimit python3 du find ldd
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
sanitized sweep-find &&
	skip "a sanitizer build reserves terabytes of address space: RLIMIT_AS not testable"

cd "$T" || fail "no scratch directory"
make_limit_tree tree
export SWEEP_WARM=on

# run OUT MIB CMD...: CMD under an address space of MIB MiB; stdout to OUT,
# stderr to OUT.err, the exit status to OUT.rc (prlimit takes bytes only)
run() {
	_out=$1 _bytes=$(($2 * 1048576))
	shift 2
	prlimit --as="$_bytes" "$@" >"$_out" 2>"$_out.err"
	echo $? >"$_out.rc"
}

# same WHAT MIB GNU SWEEP: where GNU succeeded, sweep did the same
compared=0
same() {
	if [ "$(cat "$3.rc")" != 0 ] || [ -s "$3.err" ]; then
		echo "GNU $1 fails in $2 MiB: not compared" >&2
		return 0
	fi
	compared=$((compared + 1))
	[ -s "$4.err" ] && { head -5 "$4.err" >&2; fail "$1 in $2 MiB: messages"; }
	[ "$(cat "$4.rc")" = 0 ] || fail "$1 in $2 MiB: exit $(cat "$4.rc")"
	check_same "$3" "$4"
}

for mib in 8 12 16 24 32 48 64; do
	run gnu.find "$mib" find tree -size +1k
	run sweep.find "$mib" sweep-find tree -size +1k
	sort gnu.find >gnu.find.sorted
	sort sweep.find >sweep.find.sorted
	mv gnu.find.sorted gnu.find
	mv sweep.find.sorted sweep.find
	same "find -size +1k" "$mib" gnu.find sweep.find

	run gnu.du "$mib" du -s tree
	run sweep.du "$mib" sweep-du -s tree
	same "du -s" "$mib" gnu.du sweep.du
done
[ "$compared" -gt 0 ] || skip "GNU find and du fail at every limit tried"
exit 0
