#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dest-aliases.sh: a destination where two names are one file (hard links,
# or a symbolic link to the other name), each overwritten by a different
# source file, beside GNU cp: the file ends as the last source written to
# it, whole. sweep-cp's write thread may still be writing the first name's
# copy when the walk opens the second: the second must not be cut to
# nothing and written before the first's bytes land on it (the file was
# the second source with the tail of the first, and the status 0).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
mkdir "$T/src"
i=0
while [ $i -lt 8 ]; do
	head -c 3000000 /dev/urandom > "$T/src/x$i" # read first: made first
	head -c 5000 /dev/urandom > "$T/src/y$i"
	i=$((i + 1))
done
PREPARE='mkdir dst; i=0; while [ $i -lt 8 ]; do echo old > dst/y$i
	if [ $((i % 2)) = 0 ]; then ln dst/y$i dst/x$i; else ln -s y$i dst/x$i; fi; i=$((i + 1)); done'
export PREPARE
for args in "-r" "-rT" "-a"; do
	# shellcheck disable=SC2086
	TIMES=no both "$args" $args src/. DST
done
OUR_ARGS=--no-write-thread TIMES=no both "-a, no write thread" -a src/. DST
exit 0
