#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# chmod.sh: --chmod beside rsync, on files and directories of many modes
# (set-ID and sticky bits among them): D and F items, octal modes, who
# and op with r w x X s t, a class copied (g=u), several --chmod options
# in turn; with -p (the copy gets the changed mode), without it (only new
# files do), onto a copy already there (-i says 'p' where the changed
# mode differs), pushed and pulled over a remote shell (the sender
# changes what it reads); a list that does not parse is a usage error.
# And without -p, a DEST the run makes gets the source's mode less the
# umask, as rsync gives a new directory.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/d1/d2" "$T/src/sticky" "$T/src/setgid"
for m in 600 644 751 4755 2711 1777 000 700; do
	printf '%s\n' "$m" > "$T/src/f$m"
	chmod "$m" "$T/src/f$m"
done
printf 'x\n' > "$T/src/d1/d2/inner"
ln "$T/src/f644" "$T/src/d1/second-name" # (its status is taken afresh)
ln -s f644 "$T/src/link"
chmod 700 "$T/src/d1"
chmod 1777 "$T/src/sticky"
chmod 2750 "$T/src/setgid"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +

for c in 'Du=rwx,Dgo=rx,Fu=rw,Fgo=r' 'F644,D755' 'D2775,F664' 'Dg+s,ug+w,Fo-w,+X' \
	'u+w,go-w' '=r' 'a=rX' 'u=rwX,go=rX' '+s' 'ug+s' 'a=s' 'o+t' 'g=u' 'o=u' 'a=u' \
	'u-s,g-s' '=' 'go=' '1777' 'F0' 'a-X' 'g+X' 'a+x,a-X' 'og=rwx,Fg-xX,g-rw' '-ts' '=ts' \
	'+st' 'uF+x' 'gD=rx'; do
	both "-ai --chmod=$c" -ai --chmod="$c" src/ DST
done
both "two --chmod" -ai --chmod=F600 --chmod=Fg+r,Do-rx src/ DST
TIMES=no both "-ri (no -p): new files" -ri --chmod=F640,D750 src/ DST
PREPARE='rsync -a ../src/ dst/' both "-ai onto a copy" -ai --chmod=Fgo-r,Dgo-rx src/ DST
PREPARE='rsync -a ../src/ dst/' both "-rti onto a copy (no -p)" -rti --chmod=F600 src/ DST
PREPARE='rsync -a ../src/ dst/' both "push onto a copy" -ai --chmod=Fgo-r,Dgo-rx -e "$RSH" src/ localhost:DST
both "push" -ai --chmod='Dg+s,ug+w,Fo-w,+X' -e "$RSH" src/ localhost:DST
both "pull" -ai --chmod='Dg+s,ug+w,Fo-w,+X' -e "$RSH" localhost:src/ DST
# without -p a DEST the run makes is a new directory: the source's mode
# less the umask (it kept mkdir's)
mkdir "$T/private" && printf 'p\n' > "$T/private/p" && chmod 700 "$T/private"
TIMES=no both "-r, DEST made, its source 0700" -r private/ DST
TIMES=no both "-r --chmod, DEST made" -r --chmod=D750 src/ DST
chmod 3775 "$T/private"
TIMES=no both "-r, DEST made, its source 3775 (no special bits)" -r private/ DST
PREPARE='mkdir dst' TIMES=no both "-r, DEST there" -r private/ DST
for c in x DF+x u=gs u+r-w 8 17777 'u+x,' ',u+x' '' D; do
	NO_TREE=1 both "--chmod=$c" -a --chmod="$c" src/ DST
done
# new directories in a set-group-ID directory, without -p: the bit they
# take from their parent stays, DEST's own too, and a source's special
# bits are not theirs (sweep-sync kept a source's sticky bit and cleared
# DEST's set-group-ID bit); with -p, the source's mode exactly
mkdir -p "$T/sgid/s" "$T/sgid/p" && chmod 1777 "$T/sgid/s" && chmod 2755 "$T/sgid/p"
for opts in -r -rt "-r --chmod=+t" "-r --chmod=D700" -rp; do
	# shellcheck disable=SC2086
	PREPARE='mkdir dst && chmod 2775 dst' TIMES=no both "a set-group-ID DEST, $opts" $opts sgid/ DST/d
done
exit 0
