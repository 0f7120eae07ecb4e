#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# names.sh: names in -i, -v and deletion lines as rsync writes them: in a
# UTF-8 locale every valid character as it is (two- to six-byte forms, as
# glibc's iconv takes them), in the C locale only ASCII; a byte that is no
# character (overlong forms, surrogates, a cut sequence), a control
# character but the tab, and the backslash of what reads as an escape as
# "\#ooo"; -8 every byte from 0x80 as it is. Here and pushed over a remote
# shell.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/dir"
n=0
for b in 'caf\303\251' 'emoji\360\237\230\200' 'c1\302\205' 'top\364\217\277\277' \
	'past\364\220\200\200' 'five\370\210\200\200\200' 'six\374\204\200\200\200\200' \
	'ovl\300\257' 'ovl3\340\200\200' 'sur\355\240\200' 'cut\303' 'ff\377' 'tab\tx' \
	'ctl\001x' 'del\177x' 'esc\\#123' 'esc2\\#12' 'bs\\x' 'dir/\303\244'; do
	n=$((n + 1))
	printf "$n\\n" > "$T/src/$(printf "$b")"
done
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
old='rsync -a ../src/ dst/ && for f in dst/*; do cp -p "$f" "$f.old"; done'
for loc in C C.UTF-8; do
	if [ $loc != C ] && ! locale -a 2>/dev/null | grep -qix 'c.utf-\{0,1\}8'; then
		echo "SKIP part: no C.UTF-8 locale here" >&2
		continue
	fi
	for eight in "" -8; do
		WRAP="env LC_ALL=$loc" both "$loc $eight -ai" -ai $eight src/ DST
		WRAP="env LC_ALL=$loc" both "$loc $eight -av" -av $eight src/ DST
		PREPARE=$old WRAP="env LC_ALL=$loc" both "$loc $eight --delete" -ai --delete $eight src/ DST
		WRAP="env LC_ALL=$loc" both "$loc $eight push" -ai $eight -e "$RSH" src/ localhost:DST
	done
done
exit 0
