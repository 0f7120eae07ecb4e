#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# operands.sh: rsync's rules for SRC and DEST beside rsync: a trailing
# slash (or "/.") copies a directory's contents, none copies the directory
# itself; several sources; one file to a new name, into a directory, and
# to a name ending in '/'; a missing DEST made; a missing source reported
# as rsync reports it, exit 23, the others still copied; a DEST that
# cannot be made (11) or used (3) as rsync says it; usage errors,
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
# DEST with a SRC's contents and more after them: the first such SRC's
# time and mode, as rsync gives them (it had the time the last tree went
# in, or the last such SRC's mode)
chmod 700 "$T/two"
local_rsh
both "contents, then a file" -ai two/ src/a DST
both "two SRCs' contents" -ai two/ src/ DST
both "pushed: contents, then a file" -ai -e "$RSH" two/ src/a localhost:DST
chmod 755 "$T/two"
# a DEST that cannot be made (11) or used (3), in rsync's words, here and
# pushed through a remote shell: the run ends there (it went on, 23)
local_rsh
for via in here remote; do
	dst=DST rsh=
	[ $via = remote ] && dst=localhost:DST rsh="-e $RSH"
	# shellcheck disable=SC2086
	NO_TREE=1 both "$via: DEST below a missing directory" -a $rsh src/ $dst/none/x/
	# shellcheck disable=SC2086
	PREPARE='echo f > dst' NO_TREE=1 both "$via: DEST below a file" -a $rsh src/ $dst/x
	# shellcheck disable=SC2086
	PREPARE='echo f > dst' NO_TREE=1 both "$via: DEST a file, several sources" -a $rsh src/a src/d $dst
done
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
# DEST inside SRC is not compared with rsync: its sender lists SRC while its
# receiver makes DEST, and whether the list has DEST in it (copied into
# itself then) is a race (under a loaded machine it went the other way).
# The copy must hold what SRC held before the run, DEST not in it, and a
# second run find nothing to do; under timeouts, as a walk into the copy
# would never end.
rm -rf "$T/in2" && mkdir -p "$T/in2/dst/a" "$T/in2/dst/b" && echo f > "$T/in2/dst/f" &&
	echo g > "$T/in2/dst/b/g" || fail "cannot make the tree"
(cd "$T/in2/dst" && find . -printf '%p %y\n' | sort) > "$T/want.inside"
for run in made again; do
	(cd "$T/in2" && timeout 30 sweep-sync -ai dst/ dst/a/sub) > "$T/out.inside" 2>&1 ||
		fail "DEST inside SRC, $run: status $?: $(cat "$T/out.inside")"
	(cd "$T/in2/dst/a/sub" && find . -printf '%p %y\n' | sort) > "$T/got.inside"
	check_same "$T/want.inside" "$T/got.inside"
	[ "$(cat "$T/in2/dst/a/sub/b/g")" = g ] || fail "DEST inside SRC, $run: b/g"
done
[ ! -s "$T/out.inside" ] || fail "DEST inside SRC, again: $(cat "$T/out.inside")"
# rsync's list, made before it copies, has DEST itself in it (empty then):
# it makes DEST/DEST; sweep-sync leaves DEST out, nothing else differs
rm -rf "$T/in" && mkdir -p "$T/in/d" "$T/in/copy" && echo x > "$T/in/d/x"
(cd "$T/in" && timeout 30 sweep-sync -a . copy) || fail "sweep-sync -a . copy: status $?"
(cd "$T/in/copy" && find . | sort) > "$T/O.list"
printf '%s\n' . ./d ./d/x > "$T/R.list"
check_same "$T/R.list" "$T/O.list"
# one file to a new name in a directory not there: rsync's change_dir#3,
# the directory named whole, status 3 (sweep-sync named the file, 23)
NO_TREE=1 both "a file into a directory not there" -a src/a DST/nodir/x
NO_TREE=1 both "a directory's contents into one not there" -a src/d/ DST/nodir/x
