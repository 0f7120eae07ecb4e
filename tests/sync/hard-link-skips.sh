#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# hard-link-skips.sh: under -H, a later name of a file is left alone by
# what would leave it alone had it no other (--ignore-existing, -u with a
# newer copy, --existing, --max-size), as rsync leaves it: before, it was
# linked to the first name's copy over what DEST held there (its data
# lost). Here and pushed over a remote shell, against rsync.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
make='mkdir -p src/zz dst/zz && echo data > src/a && ln src/a src/zz/b && echo IMPORTANT > dst/zz/b'
make="$make && touch -d 2001-01-01 src/a src/zz src && touch -d 2002-01-01 dst/zz/b dst/zz dst"
PREPARE=$make
for opts in --ignore-existing -u --existing --max-size=3; do
	both "$opts" -aHi $opts SRC/ DST/
	both "$opts, pushed" -aHi $opts -e "$RSH" SRC/ localhost:DST/
done
# (with the first name's copy there already)
PREPARE="$make && echo old > dst/a && touch -d 2030-01-01 dst/a"
both "both there, -u" -aHi -u SRC/ DST/
both "both there, --ignore-existing" -aHi --ignore-existing SRC/ DST/
exit 0
