#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# delete.sh: --delete beside rsync: extraneous files, directories (with
# what they hold) and links in the destination directories the transfer
# goes through are removed, excluded names are not, and nothing outside
# the transfer is touched; -i's "*deleting" lines and -v's "deleting".
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a/b" "$T/src/keep"
echo x > "$T/src/a/b/x"
echo k > "$T/src/keep/k"
touch -d 2011-01-01 "$T/src/a/b/x" "$T/src/keep/k" "$T/src/a/b" "$T/src/a" "$T/src/keep" "$T/src"
PREPARE='rsync -a ../src/ dst/; mkdir -p dst/gone/deeper dst/a/b/old; echo 1 > dst/gone/deeper/f
echo 2 > dst/a/extra; ln -s /etc dst/a/b/link; echo 3 > dst/a/b/old/o; echo 4 > dst/kept.tmp
echo 5 > dst/a/b/x.tmp; find dst -exec touch -h -d 2011-01-01 {} +'
both "--delete -i" -a --delete -i src/ DST
both "--delete -v" -a --delete -v src/ DST
both "--delete --exclude" -a --delete -i --exclude='*.tmp' src/ DST
both "--delete, a directory below" -a --delete -i src/a DST
both "--delete -n" -a --delete -n -i src/ DST
both "--delete --stats" -a --delete --stats src/ DST
