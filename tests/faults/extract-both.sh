# SPDX-License-Identifier: BSD-2-Clause
# tests/faults/extract-both.sh: sourced by the extraction fault tests (after
# tests/lib.sh).
#   make_archive FILE  an archive of a character device (/dev/null, as
#                      null), a directory d with d/f, a file, a symlink sl
#                      to it, a fifo and a hard link hard to file
#   extract_both WHAT DIR ARCHIVE [PREPARE]
#                      GNU tar and then sweep-tar extract ARCHIVE in DIR (as
#                      $AS_USER, when set), each after running PREPARE (a
#                      command that makes DIR afresh); their messages (GNU's
#                      program name replaced), exit status and the files
#                      left in DIR must be the same, else fail saying WHAT

make_archive() {
	[ -c /dev/null ] || skip "no /dev/null to archive as a device"
	mkdir "$T/arc"
	mkdir "$T/arc/d"
	printf 'f\n' > "$T/arc/d/f"
	printf 'file\n' > "$T/arc/file"
	ln -s file "$T/arc/sl"
	mkfifo "$T/arc/fifo"
	ln "$T/arc/file" "$T/arc/hard"
	tar -cf "$1" -C /dev null -C "$T/arc" d file sl fifo hard ||
		fail "GNU tar cannot make the archive"
	chmod 644 "$1"
}

# extract_one PROG OUT: PROG -x into DIR; stderr, status and the tree in OUT.
extract_one() {
	${prepare:-true}
	(cd "$dir" && ${AS_USER:-} $1 -xf "$archive") 2> "$2"
	echo "status $?" >> "$2"
	(cd "$dir" && find . | sort) >> "$2"
}

extract_both() {
	what=$1 dir=$2 archive=$3 prepare=${4:-}
	extract_one tar "$T/gnu.out"
	extract_one "$sweep_tools/sweep-tar" "$T/sweep.out"
	sed 's/^tar: /sweep-tar: /' "$T/gnu.out" > "$T/want"
	cmp -s "$T/want" "$T/sweep.out" && return 0
	diff -u "$T/want" "$T/sweep.out" >&2
	fail "$what"
}
