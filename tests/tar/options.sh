#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# options.sh: create's options give the members, names, owners and
# messages GNU tar gives (found by running it on the same tree; member
# order aside, which is the point of sweep-tar): old-style options, -C
# between names, -T with and without --null, --exclude, -X, --exclude-vcs,
# -v and -vv, --numeric-owner, --owner, --group, -h, --one-file-system,
# --no-recursion, --mtime, --clamp-mtime,
# --totals, sockets, the archive inside the tree, what ustar and v7 cannot
# hold, usage errors; and
# -l, --force-local, --sort=name gives the same bytes on every run, --memory-bound keeps
# everything, --progress draws only on a terminal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
mkdir -p "$src/tree/sub/deeper" "$src/tree/.git/objects" "$src/tree/CVS" "$src/tree/sub/.svn" \
	"$src/other"
for f in a.c b.o sub/c.c sub/d.txt sub/deeper/e.o .git/HEAD .git/objects/x CVS/Root \
	.gitignore sub/.svn/entries; do
	printf '%s\n' "$f" > "$src/tree/$f"
done
printf 'other\n' > "$src/other/file"
ln -s a.c "$src/tree/link-to-file"
ln -s sub "$src/tree/link-to-dir"

# same NAME ARGS...: "tar ARGS" and "sweep-tar ARGS" from $src write the same
# output and messages (sorted: the order is where they differ), exit with
# the same status, and make archives with the same members (listed with
# LIST_OPTS, if set). The archive is
# $T/sweep.tar.
same() {
	name=$1
	shift
	rm -f "$T/sweep.tar"
	compare_run gnu_tar our_tar "$@" || fail "$name"
	# (after a fatal error GNU tar may leave an empty archive behind)
	[ -s "$T/gnu.tar" ] && [ -z "${NOMEMBERS:-}" ] || { rm -f "$T/gnu.tar"; return 0; }
	# (GNU's listing widens its columns as it goes: spaces squeezed, the
	# members' order being another)
	tar ${LIST_OPTS:-} -tvf "$T/gnu.tar" | tr -s ' ' | sort > "$T/want"
	tar ${LIST_OPTS:-} -tvf "$T/sweep.tar" | tr -s ' ' | sort > "$T/got"
	cmp -s "$T/want" "$T/got" || echo "in: $name (members)" >&2
	check_same "$T/want" "$T/got"
	rm -f "$T/gnu.tar"
}

same "plain" -c tree other
same "-C between names" -c -C tree a.c sub -C "$src/other" file
same "excludes" -c --exclude='*.o' --exclude=deeper tree
printf '*.c\nsub/d.txt\n' > "$T/patterns"
same "-X" -c -X "$T/patterns" tree
same "--exclude-vcs" -c --exclude-vcs tree
# a file named twice is stored once, then as a hard link to itself
same "a name twice" -c tree/a.c tree/a.c
same "a file and its directory" -c tree/sub tree/sub/c.c
# trailing slashes left out, as GNU tar: a file, a link to a directory
# (the link itself), a directory (was "Not a directory", the link
# followed, "sub//c.c")
same "names with trailing slashes" -c tree/a.c/ tree/link-to-dir/ tree/sub//
# names that give the same members: the later name's come later, and an
# extraction ends with them, as with GNU tar's archive (they were read in
# one sweep, interleaved: the earlier one's file won)
# (through a "..", which GNU tar strips, or --transform too)
mkdir -p "$T/ov/A/x" "$T/ov/B/x" "$T/ov/A/y"
echo fromA > "$T/ov/A/x/f" && echo fromBBBB > "$T/ov/B/x/f" && echo A2 > "$T/ov/A/x/g"
for names in "-C A x -C ../B x" "-C A x -C ../B x/f" "-C A ./x -C ../B x//f" "-C B x -C ../A x" \
	"-C B x -C ../A y/../x" "--transform=s,^A,B, B/x A/x"; do
	for prog in tar sweep-tar; do
		rm -rf "$T/ov/out" && mkdir "$T/ov/out"
		# shellcheck disable=SC2086 # the names are words
		(cd "$T/ov" && $prog -cf "$T/ov.archive" $names && tar -xf "$T/ov.archive" -C out) ||
			fail "$prog -c $names"
		(cd "$T/ov/out" && find . -type f -exec sh -c 'printf "%s " "$1"; cat "$1"' sh {} \; | sort) \
			> "$T/ov.$prog"
	done
	check_same "$T/ov.tar" "$T/ov.sweep-tar" || fail "the same members from two names: $names"
done
same "a file under two names" -c tree/a.c ./tree/a.c
# -C lines in -T lists (positional, and in force after the list), unless
# --null or --verbatim-files-from; any other option there is an error
printf 'tree/a.c\n-C tree/sub\nc.c\n--directory=deeper\n' > "$T/list-chdir"
same "-T with -C lines" -c -T "$T/list-chdir" e.o
printf 'tree/a.c\n-bogus\n-Ctree/sub\nc.c\n' > "$T/list-bad"
same "-T with an unknown option" -c -T "$T/list-bad"
printf 'tree/a.c\n-C tree/sub\n' > "$T/list-verbatim"
same "--verbatim-files-from" -c --verbatim-files-from -T "$T/list-verbatim"
printf 'tree/a.c\0-C tree/sub\0' > "$T/list-null"
same "--null: no options in the list" -c --null -T "$T/list-null"
# and when extracting. Both tars skip the VCS directories' own members but
# make them anyway for the files inside, so those get the time of the
# extraction, which can fall in different seconds for the two: the archive's
# directories are dated 2001 and any other directory time reads as "now".
find "$src/tree" -type d -exec touch -d '2001-01-01 00:00:00 UTC' {} +
(cd "$src" && tar -cf "$T/all.tar" tree)
mkdir "$T/vcs-gnu" "$T/vcs-sweep"
tar -xf "$T/all.tar" --exclude-vcs -C "$T/vcs-gnu"
sweep_tar -xf "$T/all.tar" --exclude-vcs -C "$T/vcs-sweep"
dir_times_from_archive() {
	manifest -R "$1" | awk '$2 == "d" && $6 != 978307200 { $6 = "now" } { print }'
}
dir_times_from_archive "$T/vcs-gnu" > "$T/want"
dir_times_from_archive "$T/vcs-sweep" > "$T/got"
check_same "$T/want" "$T/got"
same "-v" -cv tree other
same "-vv" -cvv tree other
same "--numeric-owner" -c --numeric-owner tree
same "--owner --group" -c --owner=someone:4321 --group=things:8765 tree
same "--owner by number" -c --owner=0 --group=0 tree
# a name this system lacks: stored with each file's own id (it was
# refused, exit 2; then stored with id 0); an empty one likewise
same "--owner and --group unknown" -c --owner=nosuchuser --group=nosuchgroup tree
if [ "$(id -u)" = 0 ]; then
	mkdir "$src/owned" && echo o > "$src/owned/f" && chown -R 1234:5678 "$src/owned"
	LIST_OPTS=--numeric-owner same "--owner unknown: the file's id" -c --owner=nosuchuser \
		--group=nosuchgroup owned
	LIST_OPTS=--numeric-owner same "--owner= --group=: the file's id" -c --owner= --group= owned
	LIST_OPTS=--numeric-owner same "--owner=+HUGE: a name" -c --owner=+4294967296 owned
	rm -r "$src/owned"
else
	echo "SKIP part: --owner with files of other owners needs root to make them" >&2
fi
same "--owner, a name starting with a digit" -c --owner=12abc tree
# ":ID": the ID's own name (it stored none); a bad ID ends the run
same "--owner=:ID --group=:ID" -c --owner=:5 --group=:7 tree
same "--owner=:ID unknown" -c --owner=:4242 --group=:4343 tree
same "--owner=NAME:HUGE" -c --owner=x:99999999999 tree
same "--owner=HUGE" -c --owner=4294967296 tree
same "--group=HUGE" -c --group=99999999999 tree
# --numeric-owner when listing: the ids, not the names
(cd "$src" && tar -cf "$T/named.tar" --owner=daemon --group=bin tree/a.c) || fail "GNU tar --owner"
list_gnu() { tar -tvf "$T/named.tar" "$@"; }
list_our() { sweep_tar -tvf "$T/named.tar" "$@"; }
compare_run -k list_gnu list_our --numeric-owner || fail "-tv --numeric-owner"
# -h: which of two paths to one file comes first (and holds the data) is a
# matter of order, so the trees extracted are compared, link structure
# included, rather than the listings.
(cd "$src" && tar -chf "$T/gnu-h.tar" tree && sweep_tar -chf "$T/h.tar" tree) || fail "-h"
mkdir "$T/h-gnu" "$T/h-sweep"
tar -xf "$T/gnu-h.tar" -C "$T/h-gnu"
tar -xf "$T/h.tar" -C "$T/h-sweep"
manifest -R "$T/h-gnu" > "$T/want"
manifest -R "$T/h-sweep" > "$T/got"
check_same "$T/want" "$T/got"
printf 'tree/a.c\ntree/sub\nother\n' > "$T/list"
same "-T" -c -T "$T/list"
printf 'tree/a.c\0tree/sub/deeper\0' > "$T/list0"
same "-T --null" -c --null -T "$T/list0"
same "missing -T file" -c -T "$T/no-such-list"
# (GNU tar leaves this archive unfinished: its last records are not written)
NOMEMBERS=1 same "-C missing" -c tree -C "$T/no-such-dir" other

# --mtime and --clamp-mtime (the reproducible-build recipe), in each form
for m in @0 @1234567890.5 '2020-01-02 03:04:05 UTC' 2001-02-03 "$src/other/file" \
         'Jan 2, 2020 3:04 pm' '2020-01-02T03:04:05+02:00' 20200102 '00:00 2 years ago' \
         'TZ="Europe/Paris" 2020-07-01 12:00'; do
	# (a date relative to today: the day must not turn meanwhile)
	day=$(date +%F)
	(same "--mtime=$m" -c --mtime="$m" --owner=0 --group=0 --numeric-owner tree) || {
		[ "$(date +%F)" = "$day" ] || skip "the date changed during the test"
		exit 1
	}
done
touch -d '2001-01-01' "$src/tree/a.c"
same "--clamp-mtime" -c --mtime=2010-01-01 --clamp-mtime tree

# --no-recursion, --mtime, --clamp-mtime, as with a list from find(1)
(cd "$src" && find tree \( -name '*.c' -o -name sub \) -print0) > "$T/found"
same "--no-recursion -T" -c --no-recursion --null -T "$T/found"
same "--no-recursion" -c --no-recursion tree tree/sub/d.txt
# -h and a link to nothing: not stored (it was, as a link), "File removed
# before we read it", 1; named, "Cannot stat", 2
mkdir "$src/dangle" && ln -s nowhere "$src/dangle/d" && echo x > "$src/dangle/f"
same "-h, a link to nothing" -ch dangle
same "-h, a link to nothing named" -ch dangle/d dangle/f
# GNU's options that change nothing here, accepted as GNU accepts them (a
# script stopped at the first one: "unrecognized option", 64), and --utc,
# --add-file
same "accepted options" -c --delay-directory-restore --no-delay-directory-restore --seek \
	--no-seek --hole-detection=raw --sparse-version=1.0 --check-device --no-check-device tree
same "-s with -c" -c -s tree
same "a bad --hole-detection" -c --hole-detection=bogus tree
same "a bad --sparse-version" -c --sparse-version=x tree
same "--add-file" -c --add-file=tree
(cd "$src" && tar -cf "$T/plain.tar" tree) || fail "GNU tar -c"
for opts in "-tv --utc" "-tv --utc --full-time"; do
	# shellcheck disable=SC2086
	TZ=Asia/Tokyo tar $opts -f "$T/plain.tar" | tr -s ' ' | sort > "$T/want"
	# shellcheck disable=SC2086
	TZ=Asia/Tokyo sweep_tar $opts -f "$T/plain.tar" | tr -s ' ' | sort > "$T/got"
	check_same "$T/want" "$T/got"
done
# --full-time lists the fraction a posix archive has, trailing zeros
# dropped, as GNU tar (it was cut to the second)
mkdir "$T/frac"
for ts in 03:04:05.123456789 03:04:06.5 03:04:07.000001 03:04:08; do
	touch -d "2020-01-02 $ts" "$T/frac/f$ts"
done
(cd "$T/frac" && tar --format=posix -cf "$T/frac.tar" .) || fail "GNU tar --format=posix"
tar -tv --full-time -f "$T/frac.tar" | tr -s ' ' | sort > "$T/want"
sweep_tar -tv --full-time -f "$T/frac.tar" | tr -s ' ' | sort > "$T/got"
check_same "$T/want" "$T/got" || fail "--full-time fractions"
# -B from a pipe, the old "tar cf - . | (cd dst && tar xBf -)"
mkdir "$T/piped"
(cd "$src" && tar -cf - tree) | (cd "$T/piped" && sweep_tar -xBpf -) || fail "-xBf - from a pipe"
diff -r "$src/tree" "$T/piped/tree" > /dev/null || fail "-xBf - from a pipe: not the same tree"
(cd "$src" && tar -cf "$T/all.tar" tree)
for prog in tar sweep_tar; do
	$prog -tf "$T/all.tar" --no-recursion tree/sub tree/a.c > "$T/$prog.list"
done
check_same "$T/tar.list" "$T/sweep_tar.list"

# the archive inside the tree it archives
(cd "$src" && tar -cf tree/self.tar tree) 2> "$T/gnu.err"
echo "status $?" >> "$T/gnu.err"
rm "$src/tree/self.tar"
(cd "$src" && sweep_tar -cf tree/self.tar tree) 2> "$T/got"
echo "status $?" >> "$T/got"
sed 's/^tar: /sweep-tar: /' "$T/gnu.err" > "$T/want"
check_same "$T/want" "$T/got"
sweep_tar -tf "$src/tree/self.tar" | grep -q self.tar && fail "the archive holds itself"
rm -f "$src/tree/self.tar"

# a socket is left out with a note
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => $ARGV[0], Listen => 1) or die' \
	"$src/tree/socket" || skip "cannot make a socket"
same "socket" -c tree
rm -f "$src/tree/socket"

# --one-file-system: another file system's directory is stored, not its contents
if [ "$(id -u)" = 0 ] && mkdir "$src/tree/mnt" && mount -t tmpfs tmpfs "$src/tree/mnt" 2> /dev/null; then
	trap 'umount "$src/tree/mnt"; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	printf 'elsewhere\n' > "$src/tree/mnt/file"
	same "--one-file-system" -c --one-file-system tree
	same "--one-file-system -v" -cv --one-file-system tree
	# and under -g: its dumpdir is empty, and GNU's warning said
	for side in gnu our; do
		prog=tar
		[ $side = our ] && prog=sweep_tar
		(cd "$src" && $prog -cf "$T/ofs-$side.tar" -g "$T/ofs-$side.snar" --one-file-system tree) \
			2> "$T/ofs-$side.err" || fail "-g --one-file-system: $prog failed"
		tar -tvvf "$T/ofs-$side.tar" --incremental | tr -s ' ' | sort > "$T/ofs-$side.list"
		sed 's/^sweep-tar:/tar:/' "$T/ofs-$side.err" > "$T/ofs-$side.msgs"
	done
	check_same "$T/ofs-gnu.list" "$T/ofs-our.list"
	check_same "$T/ofs-gnu.msgs" "$T/ofs-our.msgs"
	umount "$src/tree/mnt"
	trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
	rmdir "$src/tree/mnt"
fi

# what ustar and v7 cannot hold: GNU's messages, and an unsplittable
# directory is left out with its contents (a 100-byte link target is left
# out: GNU tar's v7 takes it, libarchive's does not)
lim=$T/lim
mkdir -p "$lim/t/$(repeat 160 p)" "$lim/t/a"
printf 'x\n' > "$lim/t/$(repeat 160 p)/inside"
printf 'x\n' > "$lim/t/a/$(repeat 101 n)"
ln -s "$(repeat 99 l)" "$lim/t/target99"
ln -s "$(repeat 101 l)" "$lim/t/target101"
mkfifo "$lim/t/fifo"
for fmt in ustar v7; do
	(cd "$lim" && tar --format=$fmt -cf "$T/lim-gnu.tar" t) 2> "$T/gnu.err"
	echo "status $?" >> "$T/gnu.err"
	(cd "$lim" && sweep_tar --format=$fmt -cf "$T/lim.tar" t) 2> "$T/got"
	echo "status $?" >> "$T/got"
	sed 's/^tar: /sweep-tar: /' "$T/gnu.err" | sort > "$T/want"
	sort "$T/got" -o "$T/got"
	check_same "$T/want" "$T/got"
	# (GNU tar says "link name is too long; not dumped" but stores the
	# link with its target cut to 100 bytes: sweep-tar does not store it)
	tar -tf "$T/lim-gnu.tar" | grep -v target101 | sort > "$T/want"
	tar -tf "$T/lim.tar" | sort > "$T/got"
	check_same "$T/want" "$T/got"
done

# usage errors, word for word
usage() {
	name=$1
	shift
	compare_run -k "within src tar" "within src sweep_tar" "$@" || fail "$name"
}
usage "no mode" -f "$T/x.tar" tree
usage "two modes" -c -t -f "$T/x.tar" tree
usage "empty archive" -c -f "$T/x.tar"
usage "unknown option" -c --no-such-option -f "$T/x.tar" tree
# --record-size takes GNU tar's size letters; its words when it is wrong,
# and a record that cannot be held in memory ends the run before any is
# written
# (a record of 1 PiB is an allocation that fails, as it should: under
# AddressSanitizer too, rather than its abort, its warning left out)
_asan=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${_asan:+$_asan:}allocator_may_return_null=1"
for size in 1M 1m 2k 10K 512b 1536 1.5k 1MB 0x400 -512 1000 2w 1c 0 1P; do
	rm -f "$T/x.tar" "$T/y.tar"
	compare_run -k -e '/AddressSanitizer failed to allocate/d' \
		"within src tar -f $T/x.tar" "within src sweep_tar -f $T/y.tar" \
		-c --record-size="$size" other || fail "--record-size=$size"
	if [ -e "$T/x.tar" ]; then
		[ "$(stat -c %s "$T/x.tar")" = "$(stat -c %s "$T/y.tar")" ] ||
			fail "--record-size=$size: the archives' lengths differ"
	elif [ -e "$T/y.tar" ]; then
		fail "--record-size=$size: sweep-tar wrote an archive, GNU tar none"
	fi
done
ASAN_OPTIONS=$_asan
# "--" ends the options: every word after it is a name, "-C" too (a file
# named so: none here); names before it count as well
same "names after --" -c -- tree other
same "names either side of --" -c tree/a.c -- tree/sub other
same "-C after --" -c -- tree -C other
(cd "$src" && tar -cf "$T/two.tar" tree other) || fail "GNU tar -c"
compare_run "within src tar -f $T/two.tar" "within src sweep_tar -f $T/two.tar" \
	-t -- tree/a.c other/file || fail "-t, names after --"
mkdir "$T/xg" "$T/xs"
compare_run "within src tar -f $T/two.tar -C $T/xg" "within src sweep_tar -f $T/two.tar -C $T/xs" \
	-x -- tree/sub || fail "-x, names after --"
(cd "$T/xg" && find . | sort) > "$T/want"
(cd "$T/xs" && find . | sort) > "$T/got"
check_same "$T/want" "$T/got"

# old-style options, and --sort=name: the same bytes every time
(cd "$src" && sweep_tar cf "$T/old.tar" --sort=name tree) || fail "old-style cf"
(cd "$src" && sweep_tar --sort=name -cf "$T/new.tar" tree) || fail "-cf"
cmp "$T/old.tar" "$T/new.tar" || fail "old-style options or --sort=name: archives differ"
(cd "$src" && sweep_tar czf "$T/old.tgz" tree) || fail "old-style czf"
[ "$(sweep_tar tzf "$T/old.tgz" | sort)" = "$(tar -tf "$T/old.tar" | sort)" ] ||
	fail "old-style tzf lists other members"
# name order lists non-directories as GNU tar --sort=name does
(cd "$src" && tar --sort=name -cf "$T/gnu-name.tar" tree)
tar -tf "$T/gnu-name.tar" | grep -v '/$' > "$T/want"
tar -tf "$T/new.tar" | grep -v '/$' > "$T/got"
check_same "$T/want" "$T/got"

# --totals: GNU's line, with the archive's size
(cd "$src" && sweep_tar --totals -cf "$T/t.tar" tree) 2> "$T/got"
size=$(stat -c %s "$T/t.tar")
grep -Eq "^Total bytes written: $size \\([0-9.]+[KMG]?i?B, [0-9.]+[KMG]?i?B/s\\)\$" "$T/got" ||
	{ cat "$T/got" >&2; fail "--totals"; }

# a tight memory bound (several flushes) still archives everything
mkdir "$T/many"
for i in $(seq 1 300); do printf '%s\n' "$i" > "$T/many/f$i"; done
sweep_tar -cf "$T/m.tar" --memory-bound=64K --memory-entries=16 -C "$T" many ||
	fail "--memory-bound"
mkdir "$T/m"
tar -xf "$T/m.tar" -C "$T/m"
manifest "$T/many" > "$T/want"
manifest "$T/m/many" > "$T/got"
check_same "$T/want" "$T/got"

# --progress draws on a terminal only
sweep_tar --progress -cf "$T/p.tar" -C "$T" many 2> "$T/err"
[ -s "$T/err" ] && fail "--progress wrote to a non-terminal"
if command -v script > /dev/null 2>&1; then
	script -qec "$sweep_tools/sweep-tar --progress -cf $T/p.tar -C $T many" /dev/null \
		> "$T/tty" 2>&1 < /dev/null
	grep -q '300 files' "$T/tty" || { cat "$T/tty" >&2; fail "--progress on a terminal"; }
fi
# -l (--check-links): a file of two names, one of them archived, is said
# (a warning: status 0); with both, nothing
mkdir "$src/links"
echo x > "$src/links/one"
echo y > "$src/links/single"
ln "$src/links/one" "$src/other/one-again"
same "-l: a name missing" -c -l links
# (both names: which one holds the data is the disk's order, so no same)
(cd "$src" && sweep_tar -c --check-links -f "$T/both.tar" links other) > "$T/both.out" 2>&1 ||
	fail "--check-links, both names: status $?"
[ ! -s "$T/both.out" ] || fail "--check-links, both names: $(cat "$T/both.out")"
same "-l: the other name alone" -c -l other/one-again
# named as a hard link target names it (transformed, no leading /);
# fifos and --hard-dereference not counted
same "-l: as a link names it" -c -l --transform='s/one/ONE/' ./links/one
mkfifo "$src/links/fifo"
ln "$src/links/fifo" "$src/links/fifo2"
same "-l: fifos" -c -l links/fifo
same "-l, --hard-dereference" -c -l --hard-dereference links
# a first name the format cannot hold: the later one is stored with the
# data, not as a link to a member the archive lacks
long=$(printf 'n%.0s' $(seq 120))
echo x > "$src/links/$long"
ln "$src/links/$long" "$src/links/b"
same "-l, a first name too long for v7" -c -l --format=v7 "links/$long" links/b
# and a second: the third holds the data, the fourth links to it
long2=$(printf 'm%.0s' $(seq 120))
ln "$src/links/b" "$src/links/$long2"
ln "$src/links/b" "$src/links/c"
same "-l, two names too long for v7" -c -l --format=v7 "links/$long" "links/$long2" links/b \
	links/c
rm -r "$src/links" "$src/other/one-again"
# --force-local: a name with a colon is the local file it says
# (no '/' before the colon: GNU tar takes such a name for HOST:FILE unless
# told, sweep-tar refuses it: errors.sh)
(cd "$T" && tar --force-local -cf gnu:x.tar -C "$src" tree) || fail "GNU tar --force-local"
(cd "$T" && sweep_tar --force-local -cf sweep:x.tar -C "$src" tree) ||
	fail "sweep-tar --force-local"
(cd "$T" && tar --force-local -tf gnu:x.tar) | sort > "$T/want"
(cd "$T" && tar --force-local -tf sweep:x.tar) | sort > "$T/got"
check_same "$T/want" "$T/got"
# what only gnu or posix can hold, asked of ustar or v7: GNU's usage error
same "--sparse --format=ustar" -c --sparse --format=ustar tree
same "--sparse --format=v7" -c --sparse --format=v7 tree
same "-g --format=ustar" -c -g "$T/no-snapshot" --format=ustar tree
# standard input wanted twice: GNU's usage error, exit 2
for args in "-cf $T/x.tar -T - -T -" "-xf - -T -" "-tf - -T -"; do
	for prog in tar sweep_tar; do
		# shellcheck disable=SC2086 # the arguments are words
		echo tree/a.c | (cd "$src" && $prog $args) > /dev/null 2> "$T/$prog.stdin"
		echo "status $?" >> "$T/$prog.stdin"
		sed -i 's/^sweep-tar:/tar:/; s/sweep-tar --/tar --/g' "$T/$prog.stdin"
	done
	check_same "$T/tar.stdin" "$T/sweep_tar.stdin" || fail "standard input twice: $args"
done
# --restrict: taken, as GNU's, whatever it does there (no volumes here)
same "--restrict" -c --restrict tree
# names are unquoted as GNU tar unquotes them (--unquote, the default):
# \\, \t, \NNN and C's other escapes, on the command line and in -T lists
# (not --null ones, not -C's), an unknown escape kept; --no-unquote takes
# them as they are, from where it stands ("has no effect" after the
# names); so a listing GNU tar prints, fed back with -T, selects the same
mkdir -p "$src/uq" "$src/uq/d\\x"
echo x > "$src/uq/back\\slash" && echo y > "$src/uq/$(printf 'tab\there')"
echo z > "$src/uq/$(printf 'oct\001')" && echo w > "$src/uq/d\\x/in"
printf 'uq/tab\\there\nuq/back\\\\slash\n' > "$T/uq-list"
printf 'uq/tab\\there\0' > "$T/uq-null"
same "unquoted operands" -c 'uq/back\\slash' 'uq/tab\there' 'uq/oct\001' 'uq/back\q'
same "an unquoted -T list" -c -T "$T/uq-list"
same "a --null list, as it is" -c --null -T "$T/uq-null"
same "-C, as it is" -c -C 'uq/d\\x' in
same "--no-unquote" -c --no-unquote 'uq/tab\there' --unquote 'uq/tab\there'
same "--no-unquote after the names" -c 'uq/tab\there' --no-unquote
(cd "$src" && tar -cf "$T/uq.tar" uq && tar -tf "$T/uq.tar" > "$T/uq-names") || fail "GNU tar uq"
uq_gnu() { (cd "$src" && tar -tf "$T/uq.tar" "$@"); }
uq_our() { (cd "$src" && sweep_tar -tf "$T/uq.tar" "$@"); }
compare_run uq_gnu uq_our 'uq/tab\there' 'uq/oct\001' 'uq/nowhere/' || fail "-t of unquoted names"
compare_run uq_gnu uq_our -T "$T/uq-list" || fail "-t of an unquoted -T list"
# --no-wildcards-match-slash: the patterns after it match within a
# component ("a/*.o" is not a/b/x.o), --wildcards-match-slash undoes it
mkdir -p "$src/ws/a/b" "$src/ws/a/c" && touch "$src/ws/a/b/x.o" "$src/ws/a/x.o" "$src/ws/a/c/y"
for opts in "--exclude=a/*.o" "--no-wildcards-match-slash --exclude=a/*.o" \
	"--no-wildcards-match-slash --exclude=ws/*/y" "--no-wildcards-match-slash --anchored --exclude=ws/*.o" \
	"--no-wildcards-match-slash --wildcards-match-slash --exclude=ws/*.o"; do
	# shellcheck disable=SC2086
	same "$opts" -c $opts ws
done
exit 0
