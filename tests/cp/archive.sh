#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# archive.sh: sweep-cp -a of a tree with every file type beside GNU cp -a:
# the same bytes, metadata to the nanosecond, hard-link groups, holes,
# xattrs and ACLs; then -r, -p, -d and --preserve=all on the same tree.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
cp_tree "$T/src"
both "-a" -a src DST
both "-a, -v" -av src DST
TIMES=no both "-r" -r src DST
TIMES=no both "-R" -R src DST
TIMES=no both "--recursive" --recursive src DST
both "-rp" -rp src DST
TIMES=no both "-rd" -rd src DST
both "-r --preserve=all" -r --preserve=all src DST
