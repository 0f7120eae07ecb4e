#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# extract-deep.sh: -x of members deeper than PATH_MAX. GNU tar cannot
# make them ("File name too long", exit 2); sweep-tar does, and where it
# cannot restore an owner, mode or time there, it says so and exits 2:
# never messages with exit 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd python3

python3 - "$T/src" <<'EOF2'
import os, sys
os.makedirs(sys.argv[1])
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(30):
    name = 'd%02d_' % i + 'x' * 180
    os.mkdir(name, dir_fd=fd)
    sub = os.open(name, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = sub
    f = os.open('file', os.O_WRONLY | os.O_CREAT, 0o640, dir_fd=fd)
    os.write(f, b'data %d\n' % i)
    os.close(f)
EOF2
(cd "$T/src" && sweep_tar -cf "$T/deep.tar" .) || fail "cannot archive a deep tree"
mkdir "$T/out"
(cd "$T/out" && sweep_tar -xf "$T/deep.tar") 2> "$T/err"
status=$?
# every file is there with its bytes and mode, whatever was said (not the
# time: a directory whose time could not be restored has the extraction's,
# which may fall in another minute than the tree's)
notime() { sed 's/ [0-9-]\{10\} [0-9:]\{5\} / /'; }
(cd "$T/src" && sweep_tar -cf - . | sweep_tar -tvf - | notime | sort) > "$T/want"
(cd "$T/out" && sweep_tar -cf - . | sweep_tar -tvf - | notime | sort) > "$T/got"
check_same "$T/want" "$T/got"
if [ -s "$T/err" ]; then
	[ $status = 2 ] || fail "messages with exit $status: $(head -c 300 "$T/err")"
	[ "$(sort "$T/err" | uniq -d | wc -l)" = 0 ] || fail "a message said more than once"
else
	[ $status = 0 ] || fail "exit $status without a message"
fi
exit 0
