#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare-dest.sh: --compare-dest and --copy-dest beside rsync, on the
# tree of link-dest.sh against an older copy of it (prev). --compare-dest:
# what prev holds as the source has it is left out of DEST (and removed
# from DEST when it is there), the rest is copied, -i's letters against
# prev's entry; --copy-dest: the same entries are copied all the same, in
# silence; here, in a dry run, with --stats, into an existing DEST,
# pushed and pulled over a remote shell. A missing DIR is said, and the
# kinds cannot be mixed (a usage error, as rsync's).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
rsync -a "$T/src/" "$T/old/" || fail "rsync -a"
printf 'other, longer\n' > "$T/old/with space"
touch -d '2010-05-06 07:08:09.25' "$T/old/with space"
chmod 0600 "$T/old/-dash"
rm "$T/old/empty"
touch -h -d 2009-01-01 "$T/old"

PREPARE='rsync -a ../old/ prev/'
for kind in compare copy; do
	both "--$kind-dest" -ai --$kind-dest=../prev src/ DST
	both "--$kind-dest, -n" -ain --$kind-dest=../prev src/ DST
	both "--$kind-dest, --stats" -a --stats --$kind-dest=../prev src/ DST
	both "--$kind-dest, a missing DIR, then one" -ai --$kind-dest=../none --$kind-dest=../prev src/ DST
	both "--$kind-dest, pushed" -ai --$kind-dest=../prev -e "$RSH" src/ localhost:DST
	both "--$kind-dest, pulled" -ai --$kind-dest=../prev -e "$RSH" localhost:src/ DST
	# DEST there: a file as prev has it (compare: removed), one changed
	PREPARE='rsync -a ../old/ prev/; mkdir dst; cp -p ../src/file dst/; echo x > dst/large; touch -d 2001-01-01 dst/large dst'
	both "--$kind-dest, an existing DEST" -ai --$kind-dest=../prev src/ DST
	PREPARE='rsync -a ../old/ prev/'
done
# as a user, a copy DIR makes needless that cannot be removed (its
# directory is root's): said, 23, as rsync's failure there is (it was left
# as it was, exit 0)
if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/nb/src/d" "$T/nb/cmp/d"
	echo new > "$T/nb/src/d/c" && cp -a "$T/nb/src/d/c" "$T/nb/cmp/d/c"
	chmod 755 "$T" "$T/nb"
	for prog in rsync sweep-sync; do
		rm -rf "$T/nb/dst" && mkdir -p "$T/nb/dst/d" && echo stale > "$T/nb/dst/d/c"
		touch -d 2020-01-01 "$T/nb/src/d/c" "$T/nb/cmp/d/c" "$T/nb/dst/d/c"
		chown -R nobody "$T/nb/dst" && chown root "$T/nb/dst/d"
		(cd "$T/nb" && $AS_USER "$(command -v $prog)" -a --compare-dest=../cmp src/ dst/) 2> /dev/null
		st=$?
		[ $st = 23 ] || fail "$prog: a needless copy that cannot be removed: status $st"
	done
else
	echo "SKIP part: a directory of root's in DEST needs root to make it" >&2
fi
for mix in "--link-dest=prev --compare-dest=prev" "--copy-dest=prev --link-dest=prev" \
           "--compare-dest=prev --copy-dest=prev"; do
	# shellcheck disable=SC2086 # the options are words
	NO_TREE=1 both "$mix" -a $mix src/ DST
done
exit 0
