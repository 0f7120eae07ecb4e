#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare-dest.sh: --compare-dest and --copy-dest beside rsync, on the
# tree of link-dest.sh against an older copy of it (prev). --compare-dest:
# what prev holds as the source has it is left out of DEST (and removed
# from DEST when it is there), the rest is copied, -i's letters against
# prev's entry; --copy-dest: the same entries are copied all the same, in
# silence; here, in a dry run, with --stats, into an existing DEST,
# pushed and pulled over a remote shell. A missing DIR is said, and the
# kinds cannot be mixed (a usage error, as rsync's). Under -H, a file
# whose first name prev holds and whose other it does not, with the three
# kinds of DIR, here and over a remote shell (pushed, the sender sent the
# other no bytes and the receiver said it "was not sent", 23): under
# --compare-dest the other is copied of its own; rsync -H hangs there, so
# its run without -H, where the names are apart, is the peer.
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

H=$T/hl
mkdir -p "$H/src" && echo data > "$H/src/a" && ln "$H/src/a" "$H/src/b" && echo other > "$H/src/c"
touch -d 2001-01-01 "$H/src/a" "$H/src/c" "$H/src"
for kind in compare link copy; do
	for via in here push pull; do
		for prog in rsync sweep-sync; do
			rm -rf "$H/dst" "$H/prev" && mkdir "$H/prev" && cp -p "$H/src/b" "$H/prev/"
			src=src/ dst=dst/ rsh= h=-H
			[ $via = push ] && dst=localhost:$H/dst/ rsh="-e $RSH"
			[ $via = pull ] && src=localhost:$H/src/ rsh="-e $RSH"
			[ $prog = rsync ] && [ $kind = compare ] && h=
			# shellcheck disable=SC2086 # the options are words
			(cd "$H" && $prog -ai $h --$kind-dest=../prev $rsh $src $dst) > "$H/$prog.out" 2>&1
			echo "status $?" >> "$H/$prog.out"
			sort "$H/$prog.out" > "$H/$prog.sorted"
			smanifest "$H/dst" > "$H/$prog.tree"
		done
		check_same "$H/rsync.sorted" "$H/sweep-sync.sorted" || fail "-H, --$kind-dest, $via: output"
		check_same "$H/rsync.tree" "$H/sweep-sync.tree" || fail "-H, --$kind-dest, $via: trees"
	done
done
exit 0
