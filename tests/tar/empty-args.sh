#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# empty-args.sh: an empty string wherever an argument goes, found by
# fuzzing (each read past a buffer once): option arguments (-b -f -X -T -C
# --format --owner --group --mtime) and member names, on create and list.
# Messages, exit status and the archive's headers must be GNU tar's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

# run_both NAME CMD...: as in errors.sh, stderr and status must match; the
# listing of -t too, and with run_both_list the verbose listing of what -c wrote.
# (GNU tar leaves an empty archive after a bad -X, sweep-tar none: not
# what these tests are about.)
# fresh CMD...: CMD run in $T/src without an $T/out.tar from before, which
# with LIST=1 is listed after CMD's output; CMD's status.
fresh() {
	rm -f "$T/out.tar"
	within src "$@"
	st=$?
	[ "${LIST:-0}" = 1 ] && tar -tvf "$T/out.tar" 2>&1
	return $st
}
run_both() {
	name=$1
	shift
	compare_run -k "fresh tar" "fresh sweep_tar" "$@" || fail "$name"
}

run_both_list() {
	LIST=1
	run_both "$@"
	LIST=0
}

mkdir -p "$T/src/d/e"
printf 'a\n' > "$T/src/a"
printf 'b\n' > "$T/src/b"
printf 'f\n' > "$T/src/d/e/f"
(cd "$T/src" && tar -cf ../m.tar a d b) || fail "GNU tar cannot make the archive"

run_both "-b ''" -b '' -cf "$T/out.tar" a
run_both "-f ''" -f '' -c a
run_both "-X ''" -X '' -cf "$T/out.tar" a
run_both "-X missing" -X missing -cf "$T/out.tar" a
# an empty -X or -T file (found by tests/fuzz/tar-lists; clang's UBSan, not
# gcc's, sees its NULL buffer offset by zero)
: > "$T/empty"
run_both_list "-X empty" -X "$T/empty" -cf "$T/out.tar" a
run_both "-T empty" -T "$T/empty" -cf "$T/out.tar"
run_both "-T ''" -T '' -cf "$T/out.tar"
run_both "--format=" --format= -cf "$T/out.tar" a
run_both "-H ''" -H '' -cf "$T/out.tar" a
run_both "-C '' on create" -C '' -cf "$T/out.tar" a
run_both "-C '' on list" -tf ../m.tar -C '' a
run_both_list "--owner=" --owner= -cf "$T/out.tar" a
run_both_list "--group=" --group= -cf "$T/out.tar" a
run_both "--exclude=" --exclude= -cf "$T/out.tar" a
# an empty DATE is today's midnight: the day must not turn meanwhile
day=$(date +%F)
(run_both_list "--mtime=" --mtime= -cf "$T/out.tar" a) || {
	[ "$(date +%F)" = "$day" ] || skip "the date changed during the test"
	exit 1
}

# an empty member name: "." is said to be used, and "" cannot be stat'ed
run_both_list "'' on create" -cf "$T/out.tar" a '' b
# on list, GNU's rule: first, it selects everything and silences the other
# names; elsewhere it selects nothing and is not reported missing
run_both "''" -tf ../m.tar ''
run_both "'' then a missing name" -tf ../m.tar '' missing
run_both "a name then ''" -tf ../m.tar a ''
run_both "a missing name then ''" -tf ../m.tar missing ''
run_both "a directory then ''" -tf ../m.tar d/e ''
run_both "'' --wildcards" -tf ../m.tar --wildcards ''
run_both "'' --no-recursion" -tf ../m.tar --no-recursion b ''
exit 0
