#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# operands.sh: rsync's rules for SRC and DEST beside rsync: a trailing
# slash (or "/.") copies a directory's contents, none copies the directory
# itself; several sources; one file to a new name, into a directory, and
# to a name ending in '/'; a missing DEST made; a missing source reported
# as rsync reports it, exit 23, the others still copied; usage errors,
# exit 1; DEST inside SRC, copied once (the walk left out of where the
# copy goes, which it would otherwise copy into without end).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/d" "$T/two"
echo a > "$T/src/a"
echo b > "$T/src/d/b"
echo c > "$T/two/c"
find "$T/src" "$T/two" -exec touch -d 2011-01-01 {} +
both "SRC/" -ai src/ DST
both "SRC/." -ai src/. DST
PREPARE='mkdir dst; touch -d 2011-01-01 dst'
NO_TREE=1 both "SRC" -ai src DST
NO_TREE=1 both "SRC without a DEST" -ai src DST
NO_TREE=1 both "several" -ai two/ src src/a DST
PREPARE=
both "a file to a new name" -ai src/a DST
# (the harness quotes each operand for eval: a quote in one must survive)
mkdir "$T/q" && echo q > "$T/q/it's" && touch -d 2011-01-01 "$T/q/it's" "$T/q"
both "an operand with a quote in its name" -ai "q/it's" DST
[ "$(cat "$T/O/dst")" = q ] || fail "an operand with a quote in its name: not copied"
NO_TREE=1 both "a file to DEST/" -ai src/a DST/
PREPARE='mkdir dst; touch -d 2011-01-01 dst' NO_TREE=1 both "a file into a directory" -ai src/a DST
NO_TREE=1 both "a missing source" -ai nothing src/d DST
NO_TREE=1 both "only missing sources" -a nothing DST
# usage errors: rsync's status and last line (its help text is its own)
for args in "-a" "-a --no-such-option src dst"; do
	# shellcheck disable=SC2086
	(cd "$T" && rsync $args) > /dev/null 2> "$T/R.err"; r=$?
	# shellcheck disable=SC2086
	(cd "$T" && sweep-sync $args) > /dev/null 2> "$T/O.err"; o=$?
	[ $r = $o ] || fail "$args: status $o, rsync's $r"
	tail -1 "$T/R.err" | sed 's/ at .*//' > "$T/R.last"
	tail -1 "$T/O.err" | sed 's/^sweep-sync/rsync/' > "$T/O.last"
	check_same "$T/R.last" "$T/O.last"
done
PREPARE='mkdir -p dst/a dst/b && echo f > dst/f && echo g > dst/b/g && touch -d 2011-01-01 dst/f dst/b/g'
# (the directories' times are the runs' own: names and contents compared)
inside_same() {
	for side in R O; do
		(cd "$T/$side" && find . -printf '%p %y %s\n' | sort && cat dst/a/sub/f dst/a/sub/b/g) > "$T/$side.names"
	done
	check_same "$T/R.names" "$T/O.names"
}
# (under a timeout: a walk into the copy would never end)
WRAP="timeout 30" NO_TREE=1 both "DEST inside SRC, made" -ai DST/ DST/a/sub
inside_same
# again: rsync copies what the first run made into itself (a/sub/a/sub:
# one level deeper at every run); sweep-sync finds nothing to do
(cd "$T" && timeout 30 sweep-sync -ai O/dst/ O/dst/a/sub) > "$T/O.again" 2>&1 || fail "DEST inside SRC, again: status $?"
[ ! -s "$T/O.again" ] || fail "DEST inside SRC, again: $(cat "$T/O.again")"
(cd "$T/O" && find . -printf '%p %y %s\n' | sort && cat dst/a/sub/f dst/a/sub/b/g) > "$T/O.again"
check_same "$T/O.names" "$T/O.again"
# rsync's list, made before it copies, has DEST itself in it (empty then):
# it makes DEST/DEST; sweep-sync leaves DEST out, nothing else differs
rm -rf "$T/in" && mkdir -p "$T/in/d" "$T/in/copy" && echo x > "$T/in/d/x"
(cd "$T/in" && timeout 30 sweep-sync -a . copy) || fail "sweep-sync -a . copy: status $?"
(cd "$T/in/copy" && find . | sort) > "$T/O.list"
printf '%s\n' . ./d ./d/x > "$T/R.list"
check_same "$T/R.list" "$T/O.list"
