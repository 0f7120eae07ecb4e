#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# changed.sh: rsync's quick check beside rsync: a file of the same size
# with a new modification time is sent again; one with the same size and
# time but other bytes only under -c; --size-only, -u, --ignore-existing
# and --existing as rsync's; -I sends a file of the same size and time
# again (not past -c, --size-only, -u or --append); without -p a file sent again keeps its mode;
# -i's lines for each; on one machine and over a
# remote shell (where -c compares sums, each end summing its own file);
# --inplace onto two names of one file, each sent.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/d"
for f in same newtime samesize grown older newer perms; do echo "$f data" > "$T/src/$f"; done
echo new > "$T/src/d/new"
touch -d '2011-01-01 00:00:01' "$T/src"/* "$T/src/d/new" "$T/src/d" "$T/src"
PREPARE='mkdir dst dst/d
for f in same newtime samesize grown older newer perms; do echo "$f data" > dst/$f; done
echo "SAMESIZE data" > dst/samesize; echo small > dst/grown
touch -d "2011-01-01 00:00:01" dst/* dst/d
touch -d "2012-02-02" dst/newtime dst/newer; touch -d 2009-01-01 dst/older
chmod 600 dst/perms dst/newtime'
local_rsh
for via in here remote; do
	dst=DST rsh=
	[ $via = remote ] && dst=localhost:DST rsh="-e $RSH"
	NO_TREE=
	# (-rt: a file sent again keeps the mode it had, without -p: it was
	# given the source's, less the umask, a 600 file made 644)
	for opts in -a -ac "-a --size-only" -au "-a --ignore-existing" "-a --existing" "-a --inplace" \
		-rt -r -aI -aIc "-aI --size-only" -aIu "-aI --inplace" "-aI --append"; do
		# without -t the files' times are those of the run: not compared
		[ "$opts" = -r ] && NO_TREE=1
		# shellcheck disable=SC2086
		both "$via: $opts -i" $opts $rsh -i src/ $dst
		# shellcheck disable=SC2086
		NO_DELTA=$rsh both "$via: $opts --stats" $opts $rsh --stats src/ $dst
	done
done

# --ignore-existing leaves what is there whatever its kind: a link where
# the source has a file, a directory where it has a file (sweep-sync
# replaced both), and a file where it has a directory (rsync then fails on
# its contents, "Not a directory", 23; sweep-sync leaves its subtree with
# it: the trees compared, not the status)
mkdir -p "$T/src2/e" "$T/src2/d"
echo x > "$T/src2/x"
echo y > "$T/src2/y"
echo z > "$T/src2/e/z"
echo g > "$T/src2/d/g"
touch -d '2011-01-01 00:00:01' "$T/src2"/* "$T/src2/e/z" "$T/src2/d/g" "$T/src2"
PREPARE='mkdir -p dst/e dst/y; ln -s nowhere dst/x; touch -h -d "2011-01-01 00:00:01" dst/x dst/y dst/e dst'
for via in here remote; do
	dst=DST rsh=
	[ $via = remote ] && dst=localhost:DST rsh="-e $RSH"
	# shellcheck disable=SC2086
	both "$via: --ignore-existing over other kinds" -a --ignore-existing $rsh -i src2/e src2/x src2/y $dst
	# (a new directory left by --existing: over a remote shell the
	# receiver could not parse what came after it, exit 12)
	# shellcheck disable=SC2086
	both "$via: --existing, a new directory" -a --existing --delete $rsh -i src2/d src2/e $dst
	for side in R O; do
		prog=rsync
		[ $side = O ] && prog=sweep-sync
		rm -rf "${T:?}/$side" && mkdir "$T/$side"
		(cd "$T/$side" && eval "$PREPARE" && echo o > dst/d && touch -d '2011-01-01 00:00:01' dst/d dst)
		# shellcheck disable=SC2086
		(cd "$T" && $prog -a --ignore-existing $rsh src2/ "$(echo "$dst" | sed "s|DST|$side/dst|")") \
			> /dev/null 2>&1
		smanifest "$T/$side" > "$T/$side.tree"
	done
	check_same "$T/R.tree" "$T/O.tree"
done

# --inplace onto two names of one file in DEST (hard links), each with a
# source of its own of the same size and time: rsync decides both before
# it writes, so both are sent and the file ends as the last one; the
# second's quick check must not take the first's fresh copy for its own.
mkdir -p "$T/src3"
printf AAAA > "$T/src3/a"
printf BBBB > "$T/src3/b"
touch -d '2011-01-01 00:00:01' "$T/src3/a" "$T/src3/b" "$T/src3"
PREPARE='mkdir dst && echo old > dst/a && ln dst/a dst/b && touch -d "2011-01-01 00:00:01" dst'
for via in here remote; do
	dst=DST rsh=
	[ $via = remote ] && dst=localhost:DST rsh="-e $RSH"
	# shellcheck disable=SC2086
	both "$via: --inplace onto two names of one file" -rti --inplace $rsh src3/ $dst
done

# -H --inplace (--append, --append-verify) onto a file with another name
# in DEST that the source does not give: written in place, as rsync
# writes it, so the other name sees the new data (sweep-sync made a new
# file, the other name kept the old)
mkdir -p "$T/src4"
printf 'new and longer\n' > "$T/src4/q"
touch -d '2011-01-01 00:00:01' "$T/src4/q" "$T/src4"
PREPARE='mkdir dst && echo old > dst/q && ln dst/q dst/q2 && touch -d "2011-01-01 00:00:01" dst'
for opts in --inplace --append --append-verify; do
	both "-aH $opts onto a file of two names" -aiH $opts src4/ DST
done
