#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sparse.sh: -S (--sparse) beside rsync: runs of zeros, written out in the
# source or holes there, become holes in the copy, which takes as many
# blocks as rsync's; the bytes are the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src"
head -c 1048576 /dev/zero > "$T/src/zeros"
{ head -c 1048576 /dev/zero; printf 'middle'; head -c 1048576 /dev/zero; } > "$T/src/written"
truncate -s 4M "$T/src/holes"
printf 'end' >> "$T/src/holes"
head -c 100000 /dev/urandom > "$T/src/dense"
find "$T/src" -exec touch -d 2011-01-01 {} +
both "-aS" -aiS src/ DST
both "--sparse" -a --sparse src/ DST
blocks() { (cd "$T/$1/dst" && stat -c '%n %b' zeros written holes dense); }
blocks R > "$T/R.blocks"
blocks O > "$T/O.blocks"
check_same "$T/R.blocks" "$T/O.blocks"
[ "$(stat -c %b "$T/O/dst/written")" -lt 100 ] || fail "written zeros are not holes"
exit 0
