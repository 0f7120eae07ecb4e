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
# without -v or -i, the warning of a copy that failed its check is unsaid
both "--append-verify, quiet" -a --append-verify SRC/ DST/
# (--append-verify's redo is rsync's delta transfer: its figures differ)
both "--append, --stats" -a --stats --append SRC/ DST/

# -S: zeros below a copy's old end are written, not left out (the copy's
# bytes there would stay: rsync 3.5's own -S varies here, so the copies
# are checked against their sources), here and pushed
for how in here push; do
	rm -rf "$T/S" && mkdir -p "$T/S/src" "$T/S/dst"
	head -c 8192 /dev/zero > "$T/S/src/f" && head -c 8192 "$T/big" >> "$T/S/src/f"
	head -c 4096 /dev/zero | tr '\0' X > "$T/S/dst/f"
	head -c 10000 "$T/big" > "$T/S/src/z" && head -c 40000 /dev/zero >> "$T/S/src/z"
	head -c 5000 "$T/S/src/z" > "$T/S/dst/z"
	dst=dst/
	[ $how = push ] && dst=localhost:dst/
	(cd "$T/S" && sweep-sync -a --append-verify -S -e "$RSH" src/ "$dst") 2> "$T/S.err" ||
		fail "-S, $how: $(cat "$T/S.err")"
	cmp "$T/S/src/f" "$T/S/dst/f" && cmp "$T/S/src/z" "$T/S/dst/z" || fail "-S, $how: another copy"
done
PREPARE='mkdir src && echo hello > src/f && touch -d 2020-01-01 src/f src && cp -a src dst && chmod 600 dst/f'
both "up to date, a mode" -ai --append SRC/ DST/
PREPARE='mkdir src dst && printf "hello world\n" > src/f && printf XXXXX > dst/f && touch -d 2020-01-01 src/f src && touch -d 2021-01-01 dst/f dst'
both "--no-inplace" -ai --append --no-inplace SRC/ DST/
NO_TREE=1 both "-W" -a --append -W SRC/ DST/
exit 0
