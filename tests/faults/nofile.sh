#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/faults/nofile.sh: under a low RLIMIT_NOFILE, sweep-tar, sweep-du and
# sweep-find do what GNU tar, du and find do at the same limit: the same
# members and lines, exit 0, no messages. The walk's directory cache, the
# files it opens ahead in the data phase and the helper threads' descriptors
# must fit in what the limit leaves; files opened ahead and hard links
# opened apart from them once made sweep-tar fail files with "Too many open
# files". The data phase needs file data out of the page cache: the tree's
# own pages are dropped (posix_fadvise) before each run, and SWEEP_ORDER=disk
# asks for the data phase whatever the file system.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/faults/tree.sh"
need_cmd prlimit python3 tar du find
tar --version 2>/dev/null | grep -q 'GNU tar' || skip "needs GNU tar"
du --version 2>/dev/null | grep -q 'GNU coreutils' || skip "needs GNU du"
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"

cd "$T" || fail "no scratch directory"
make_limit_tree tree
export SWEEP_ORDER=disk SWEEP_WARM=on

# run OUT N CMD...: CMD under a limit of N descriptors; stdout to OUT,
# stderr to OUT.err, the exit status to OUT.rc
run() {
	_out=$1 _n=$2
	shift 2
	prlimit --nofile="$_n" "$@" >"$_out" 2>"$_out.err"
	echo $? >"$_out.rc"
}

# sorted OUT: OUT's lines sorted in place (outside the limit, so that the
# exit status run recorded is the tool's own, not that of a pipe's end)
sorted() { sort "$1" -o "$1"; }

# same WHAT N GNU SWEEP: where GNU succeeded, sweep did the same
same() {
	if [ "$(cat "$3.rc")" != 0 ] || [ -s "$3.err" ]; then
		echo "GNU $1 fails at $2 descriptors: not compared" >&2
		return 0
	fi
	[ -s "$4.err" ] && { head -5 "$4.err" >&2; fail "$1 at $2 descriptors: messages"; }
	[ "$(cat "$4.rc")" = 0 ] || fail "$1 at $2 descriptors: exit $(cat "$4.rc")"
	check_same "$3" "$4"
}

for n in 12 16 20 32; do
	evict_tree tree
	run gnu.tar "$n" tar -cf gnu.archive tree
	tar -tf gnu.archive | sort > gnu.tar
	evict_tree tree
	run sweep.tar "$n" sweep-tar -cf sweep.archive tree
	tar -tf sweep.archive | sort > sweep.tar
	same "tar -c" "$n" gnu.tar sweep.tar

	run gnu.dus "$n" du -s tree
	run sweep.dus "$n" sweep-du -s tree
	same "du -s" "$n" gnu.dus sweep.dus

	run gnu.dua "$n" du -a tree && sorted gnu.dua
	run sweep.dua "$n" sweep-du -a tree && sorted sweep.dua
	same "du -a" "$n" gnu.dua sweep.dua

	run gnu.find "$n" find tree -size +0 && sorted gnu.find
	run sweep.find "$n" sweep-find tree -size +0 && sorted sweep.find
	same "find" "$n" gnu.find sweep.find

	# a copy keeps destination directories open too: within the limit
	rm -rf gnu.cp sweep.cp
	evict_tree tree
	run gnu.cpout "$n" cp -a tree gnu.cp
	evict_tree tree
	run sweep.cpout "$n" sweep-cp -a tree sweep.cp
	same "cp -a" "$n" gnu.cpout sweep.cpout
	if [ "$(cat gnu.cpout.rc)" = 0 ] && [ ! -s gnu.cpout.err ]; then
		diff -r tree sweep.cp > /dev/null || fail "cp -a at $n descriptors: the copy differs"
	fi
done

# many sources into one directory (as from xargs) at 32 descriptors
mkdir many many.gnu many.sweep
i=0
while [ $i -lt 200 ]; do
	echo $i > many/f$i
	i=$((i + 1))
done
prlimit --nofile=32 cp -a many/* many.gnu || fail "GNU cp -a of 200 operands at 32 descriptors"
prlimit --nofile=32 sweep-cp -a many/* many.sweep 2> many.err || fail "sweep-cp -a of 200 operands at 32 descriptors: $(head -3 many.err)"
diff -r many.gnu many.sweep > /dev/null || fail "200 operands at 32 descriptors: the copies differ"

# the members are whole: an archive made at the lowest limit extracts to
# the tree
evict_tree tree
mkdir out
prlimit --nofile=12 sweep-tar -cf tree.tar tree || fail "sweep-tar -c at 12 descriptors"
tar -xf tree.tar -C out || fail "GNU tar cannot extract the archive"
diff -r tree out/tree >/dev/null || fail "the archive made at 12 descriptors differs from the tree"
exit 0
