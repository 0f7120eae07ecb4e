#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# append.sh: --append and --append-verify beside rsync: a copy that is
# shorter gets the source's bytes past its end, in place (a copy not
# shorter is left as it is, whatever it holds; a new file is copied
# whole); under --append-verify what the copy holds is compared first, and
# one that differs is said ("failed verification") and written whole
# again. Files of several MiB, differing near the start, in the middle and
# not at all; -n; pushed and pulled over a remote shell.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
make='mkdir -p src dst && printf "hello world\n" > src/grow && printf hello > dst/grow'
make="$make && printf 'same\n' > src/same && printf 'SAME\n' > dst/same"
make="$make && printf 'short\n' > src/shorter && printf 'longer one\n' > dst/shorter"
make="$make && echo new > src/new && printf XXXXX > dst/bad && printf 'hello world\n' > src/bad"
make="$make && head -c 5000000 ../big > src/big && head -c 3000000 ../big > dst/big"
make="$make && cp src/big src/bigbad && head -c 3000000 ../big > dst/bigbad"
make="$make && printf Z | dd of=dst/bigbad bs=1 seek=1500000 conv=notrunc 2>/dev/null"
make="$make && touch -d 2020-01-01 src/* src && touch -d 2021-01-01 dst/* dst"
head -c 5000000 /dev/urandom > "$T/big"
PREPARE=$make
for o in --append --append-verify; do
	both "$o" -ai $o SRC/ DST/
	both "$o, -n" -ain $o SRC/ DST/
	both "$o, pushed" -ai $o -e "$RSH" SRC/ localhost:DST/
	both "$o, pulled" -ai $o -e "$RSH" localhost:SRC/ DST/
done
# (--append-verify's redo is rsync's delta transfer: its figures differ)
both "--append, --stats" -a --stats --append SRC/ DST/
exit 0
