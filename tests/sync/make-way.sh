#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make-way.sh: a directory in DEST where the source has a file, a link or
# a fifo, beside rsync: an empty one is removed; one that holds something
# goes with what it holds under --delete or --force (said as deletions),
# else it stays, said ("cannot delete non-empty directory", "could not
# make way for new regular file"), 23; a dry run says the same and keeps
# it; pushed and pulled over a remote
# shell the receiver makes way. (It failed: "rename ...: Is a directory",
# 23, every run: a mirror never caught up.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/d"
printf 'f\n' > "$T/src/f"
printf 'g\n' > "$T/src/d/g"
ln -s f "$T/src/l"
mkfifo "$T/src/p" 2>/dev/null || true
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
empty='mkdir -p dst/f dst/l dst/d/g && [ ! -p ../src/p ] || mkdir dst/p'
full='mkdir -p dst/f/x/y dst/l/z dst/d/g/w && echo 1 > dst/f/x/y/z && echo 2 > dst/f/top &&
	[ ! -p ../src/p ] || mkdir -p dst/p/q'
# (directories deleted in have the run's time)
TIMES=no
for setup in empty full; do
	eval prep=\$$setup
	for opts in "" --force --delete --delete-after "-n --delete" -n \
		"--delete -v" "--inplace --force" "-H --delete"; do
		PREPARE=$prep both "$setup $opts" -ai $opts src/ DST
	done
	PREPARE=$prep both "push $setup --delete" -ai --delete -e "$RSH" src/ localhost:DST
	PREPARE=$prep both "push $setup --force" -ai --force -e "$RSH" src/ localhost:DST
	PREPARE=$prep both "pull $setup" -ai -e "$RSH" localhost:src/ DST
done
exit 0
