#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mode.sh: --mode=CHANGES beside GNU tar: octal and symbolic changes (who,
# several operators and clauses, X, s, t, copies like g=u) applied to the
# members' modes as they are stored (the listing's mode column), the umask
# for clauses without who, a directory's set-group-id kept by short octal
# modes, and GNU's error for what is not a mode.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d/sub" "$T/src/d/sgid"
for m in 644 755 600 4755 640 711; do
	printf '%s\n' $m > "$T/src/d/f$m"
	chmod $m "$T/src/d/f$m"
done
chmod 2775 "$T/src/d/sgid"
chmod 700 "$T/src/d/sub"
ln -s f644 "$T/src/d/link"

c() { # CHANGES: the listing of the archive made with --mode=CHANGES
	compare_run gnu_tar our_tar --format=gnu "--mode=$1" -c d || fail "--mode=$1"
	tar -tvf "$T/gnu.tar" | sort -u > "$T/want"
	tar -tvf "$T/sweep.tar" | sort -u > "$T/got"
	check_same "$T/want" "$T/got" || fail "--mode=$1: listing"
}

umask 022
for m in u+w go-w a+rX u=rwx,g=rx,o= =r +w -x 644 0755 00644 g=u o+t u+s g-s \
         a-x,u+x u=rw,go=r ug+rw-x a=rwx,o-w +X u=,g=,o= 7777 g+s,o=u; do
	c "$m"
done
umask 077
c "+w"
c "=rx"
umask 022
for bad in abc u+z 999 'u+w,' x; do
	compare_run gnu_tar our_tar "--mode=$bad" -c d || fail "--mode=$bad"
done
exit 0
