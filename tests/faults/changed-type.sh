#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# changed-type.sh: a regular file replaced between the walk's stat and its
# open (by a symlink, a directory with a file in it, or a fifo) or removed
# there gives GNU tar's messages, exit status and members, inside a
# directory and as a name given on the command line, in every order
# sweep-tar walks. The race is made deterministic by an LD_PRELOAD shim
# (swap-on-open.c) that swaps the file at the first open that would read
# it, in GNU tar and sweep-tar alike.
. "$top_srcdir/tests/lib.sh"
need_cmd tar "${CC:-cc}"

build_shim tests/faults/swap-on-open.c

# make_src: dir/victim, dir/other and a top-level victim and other.
make_src() {
	rm -rf "$T/src"
	mkdir -p "$T/src/dir"
	printf 'victim\n' > "$T/src/dir/victim"
	printf 'other\n' > "$T/src/dir/other"
	printf 'victim\n' > "$T/src/victim"
	printf 'other\n' > "$T/src/other"
}

# run PROG TO OUT NAMES...: PROG -cf OUT NAMES in a fresh $T/src, the first
# read of a file named victim meeting TO; its stderr and status into OUT.err.
run() {
	prog=$1 to=$2 out=$3
	shift 3
	make_src
	(cd "$T/src" && env SWAP_NAME=victim SWAP_TO="$to" LD_PRELOAD="$T/swap-on-open.so" \
		"$prog" -cf "$out.tar" "$@") 2> "$out.err"
	echo "status $?" >> "$out.err"
}

# same WANT GOT WHAT: fail saying WHAT unless the files are the same.
same() { cmp -s "$1" "$2" || { diff -u "$1" "$2" >&2; fail "$3"; }; }

# members ARCHIVE: type, mode and name of each member, sorted (sweep-tar
# stores in disk order, GNU tar in directory order).
members() { tar -tvf "$1" | awk '{print $1, $NF}' | sort; }

# The shim must have made the race, or the comparison says nothing.
run tar fifo "$T/probe" dir
members "$T/probe.tar" | grep -q '^p.* dir/victim$' || fail "the shim did not swap the file"

for to in symlink dir fifo gone; do
	for names in "dir" "victim other"; do
		for sort in disk none; do
			what="$to, tar -c $names, --sort=$sort"
			# shellcheck disable=SC2086 # names: several operands
			run tar $to "$T/gnu" $names
			# shellcheck disable=SC2086
			run "$sweep_tools/sweep-tar" $to "$T/sweep" --sort=$sort $names
			sed 's/^tar: /sweep-tar: /' "$T/gnu.err" > "$T/want"
			same "$T/want" "$T/sweep.err" "$what: messages"
			members "$T/gnu.tar" > "$T/want"
			members "$T/sweep.tar" > "$T/got"
			same "$T/want" "$T/got" "$what: members"
		done
	done
done
exit 0
