#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# safe-links.sh: --safe-links beside rsync, with SRC/: symbolic links that
# point out of the tree (absolute, climbing above its top from where they
# are, or with a ".." after another component, as rsync 3.4 judges them:
# "d/../.." climbs out unseen where d is itself a link) are left out, said under
# -v ("ignoring unsafe symlink"), the others copied; the same under -i,
# pushed and pulled; --delete keeps a copy's link of that name.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/d/e"
(cd "$T/src" && ln -s /etc/hostname abs && ln -s ../x up && ln -s d/e ok && ln -s ../e d/ok2 &&
	ln -s ../../x d/up2 && ln -s ./../../y d/up3 && ln -s e/../../.. d/up4 &&
	ln -s ../d/../../z up5 && ln -s d/e/../../.. up6 && ln -s ../.. d/e/top &&
	ln -s ../../. d/e/top2 && ln -s ../../d d/e/tod && ln -s .. d/e/up1 && ln -s . self &&
	ln -s d/.. dd && ln -s ../../ d/e/top3 && ln -s .. d/up1 && ln -s e/.. d/x3 &&
	ln -s .. up0 && ln -s a/b/../.. z1 &&
	ln -s d/../ok n1 && ln -s ./d/../ok n2 && ln -s d/e/../../ok n3 && ln -s d//../ok n4 &&
	ln -s e/../e d/n5 && ln -s ./../ok d/n6 && ln -s ./ok n7 && ln -s d/./e n8 &&
	ln -s ../../../../../. d/e/f-up && ln -s d/e/f-up/../../../etc n9) || fail "cannot make the links"
printf 'f\n' > "$T/src/d/e/f"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
for opts in --safe-links "-v --safe-links" "-i --safe-links" "-a --safe-links --stats"; do
	both "$opts" -a $opts src/ DST
done
PREPARE='mkdir -p dst && ln -s /etc/hostname dst/abs && touch -h -d 2001-01-01 dst/abs dst' \
	both "--delete keeps it" -ai --safe-links --delete src/ DST
both "push" -ai --safe-links -e "$RSH" src/ localhost:DST
both "pull" -av --safe-links -e "$RSH" localhost:src/ DST
exit 0
