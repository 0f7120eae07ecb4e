#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/tar/empty-files.sh: sweep-tar does not open empty files (libsweep's
# SWEEP_EMPTY_UNOPENED), as GNU tar opens none: on a tree of a million
# files, nine in ten empty, three system calls saved on each made it as
# fast as GNU tar warm, from twice as slow. Checked: the members are GNU
# tar's (an empty file with two names stored as a file and a hard link to
# it, either way round), strace sees no empty file opened, an empty file's extended
# attributes are stored (--xattrs), and --atime-preserve leaves its access
# time alone.
. "$top_srcdir/tests/lib.sh"
need_cmd tar
tar --version 2>/dev/null | grep -q 'GNU tar' || skip "needs GNU tar"

cd "$T" || fail "no scratch directory"
mkdir -p tree/sub
i=0
while [ $i -lt 40 ]; do
	: > "tree/empty$i"
	: > "tree/sub/empty$i"
	i=$((i + 1))
done
printf 'data\n' > tree/full
printf 'more data\n' > tree/sub/full
ln tree/empty0 tree/sub/second-name
touch -a -d '2001-02-03 04:05:06' tree/empty1

tar -cf gnu.tar tree || fail "GNU tar -c"
sweep-tar -cf sweep.tar tree 2> sweep.err || fail "sweep-tar -c: $(head -3 sweep.err)"
[ ! -s sweep.err ] || fail "sweep-tar -c: messages: $(head -3 sweep.err)"
# which name of the linked file comes first is each walk's order: the
# names are compared, and that one of the two links to the other
tar -tvf gnu.tar | sed 's/ link to .*//; s/^h/-/' | sort > gnu.list
tar -tvf sweep.tar | sed 's/ link to .*//; s/^h/-/' | sort > sweep.list
check_same gnu.list sweep.list
[ "$(tar -tvf sweep.tar | grep -c ' link to tree/')" = 1 ] ||
	fail "the empty file's second name is not one hard link"

if command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace: off for the traced run)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=openat -o trace sweep-tar -cf traced.tar tree 2>/dev/null ||
		fail "sweep-tar under strace"
	grep -q '"full"' trace || fail "strace saw no file opened"
	if grep -q '"empty[0-9]*"' trace; then
		grep '"empty[0-9]*"' trace | head -3 >&2
		fail "an empty file was opened"
	fi
else
	echo "not checked (needs strace): that no empty file is opened"
fi

if command -v setfattr >/dev/null && setfattr -n user.test -v kept tree/empty2 2>/dev/null; then
	sweep-tar --xattrs -cf x.tar tree || fail "sweep-tar --xattrs"
	mkdir out
	tar --xattrs --xattrs-include='user.*' -xf x.tar -C out || fail "GNU tar --xattrs -x"
	[ "$(getfattr --only-values -n user.test out/tree/empty2 2>/dev/null)" = kept ] ||
		fail "an empty file's extended attribute was not stored"
else
	echo "not checked (no user xattrs here): an empty file's extended attributes"
fi

before=$(stat -c %X tree/empty1)
sweep-tar --atime-preserve -cf a.tar tree || fail "sweep-tar --atime-preserve"
[ "$(stat -c %X tree/empty1)" = "$before" ] || fail "--atime-preserve: an empty file's access time moved"
exit 0
