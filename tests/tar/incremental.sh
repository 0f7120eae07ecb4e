#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# incremental.sh: -g/--listed-incremental beside GNU tar. A level-0 dump,
# then changes (data, mode, a file renamed, removed, replaced by a
# directory, a directory new, removed), then a level-1 dump, by each from
# its own snapshot file: both archives list the same members and dumpdirs
# (tar -tvv --incremental), both snapshot files name the same directories
# with the same entries, and GNU tar, extracting sweep-tar's dumps in order
# with -G or --listed-incremental=/dev/null, gives the tree as it is now,
# removals and renames included. Then each goes on from the other's
# snapshot file; a directory renamed (which sweep-tar stores whole, where
# GNU tar stores the rename) is restored; sweep-tar -G extracts GNU tar's
# dumps and its own as GNU tar does; --level=0 starts afresh. A snapshot
# file the user cannot open: said, a full dump made, exit 2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

t=$T/src/t
mkdir -p "$t/d/sub" "$t/empty" "$t/ren/in" "$t/gone-dir"
for f in a chm mvme gone becomes-dir d/b d/sub/c ren/r ren/in/s gone-dir/g; do
	printf '%s\n' "$f" > "$t/$f"
done
ln -s a "$t/link"
mkfifo "$t/fifo"
touch -d '2020-01-01' "$t/a" "$t/d/b" "$t/ren/r"

# the snapshot file's directories and entries, without numbers
snap_names() { tr '\0' '\n' < "$1" | sed 1,3d | grep -v '^[0-9]*$' | sort; }
listing() { tar -tvvf "$1" --incremental | sort; }
dump() { # SNAPSHOT-SUFFIX ARCHIVE ARGS...: GNU's dump and ours, compared
	s=$1 a=$2
	shift 2
	(cd "$T/src" && tar -cf "$T/gnu-$a" -g "$T/snap-gnu$s" "$@" t) || fail "GNU tar -g ($a)"
	(cd "$T/src" && sweep_tar -cf "$T/our-$a" -g "$T/snap-our$s" "$@" t) || fail "sweep-tar -g ($a)"
	listing "$T/gnu-$a" > "$T/want"
	listing "$T/our-$a" > "$T/got"
	check_same "$T/want" "$T/got"
	if [ -z "${NO_SNAP:-}" ]; then
		snap_names "$T/snap-gnu$s" > "$T/want"
		snap_names "$T/snap-our$s" > "$T/got"
		check_same "$T/want" "$T/got"
	fi
	# (the kernel's file times lag the clock: changes come a while after)
	sleep 1
}
restore() { # DIR ARCHIVE...: extracted by GNU tar -G in order into $T/DIR
	rm -rf "$T/$1"
	mkdir "$T/$1"
	d=$1
	shift
	for a; do
		tar -xGf "$T/$a" -C "$T/$d" 2> "$T/err" || { cat "$T/err" >&2; fail "tar -xG $a"; }
	done
	manifest "$t" > "$T/want"
	manifest "$T/$d/t" > "$T/got"
	check_same "$T/want" "$T/got"
}

dump "" l0.tar
restore r0 our-l0.tar

printf 'changed\n' > "$t/a"
chmod 600 "$t/chm"
mv "$t/mvme" "$t/moved"
rm "$t/gone" "$t/becomes-dir"
mkdir "$t/becomes-dir" "$t/new"
printf 'n\n' > "$t/new/n"
printf 'c2\n' > "$t/d/sub/c2"
rm -r "$t/gone-dir"
cp "$T/snap-our" "$T/snap-our-l0"
cp "$T/snap-gnu" "$T/snap-gnu-l0"
dump "" l1.tar
restore r1 our-l0.tar our-l1.tar
# and with --listed-incremental=/dev/null, GNU's other way to say -G
rm -rf "$T/r1n" && mkdir "$T/r1n"
for a in our-l0.tar our-l1.tar; do
	tar --listed-incremental=/dev/null -xf "$T/$a" -C "$T/r1n" || fail "GNU tar -x -g /dev/null $a"
done
manifest "$T/r1n/t" > "$T/got"
check_same "$T/want" "$T/got"

# each goes on from the other's snapshot file
cp "$T/snap-our" "$T/snap-cross-g"
cp "$T/snap-gnu" "$T/snap-cross-s"
printf 'again\n' > "$t/d/b"
rm "$t/moved"
(cd "$T/src" && tar -cf "$T/gnu-l2.tar" -g "$T/snap-cross-g" t) || fail "GNU tar -g from ours"
(cd "$T/src" && sweep_tar -cf "$T/our-l2.tar" -g "$T/snap-cross-s" t) || fail "sweep-tar -g from GNU's"
restore r2 our-l0.tar our-l1.tar gnu-l2.tar
restore r2g gnu-l0.tar gnu-l1.tar our-l2.tar
listing "$T/gnu-l2.tar" > "$T/want"
listing "$T/our-l2.tar" > "$T/got"
check_same "$T/want" "$T/got"

# a directory renamed, one replaced by a file, files in both
sleep 1
mv "$t/ren" "$t/renamed"
printf 'new in renamed\n' > "$t/renamed/in/s2"
rm -r "$t/becomes-dir"
printf 'a file again\n' > "$t/becomes-dir"
(cd "$T/src" && sweep_tar -cf "$T/our-l3.tar" -g "$T/snap-cross-s" t) || fail "sweep-tar -g, level 3"
restore r3 gnu-l0.tar gnu-l1.tar our-l2.tar our-l3.tar

# -v names directories new and renamed as GNU tar does (not those moved
# with a directory above them)
mkdir -p "$T/v/w/x/y" "$T/v/w/m/n"
(cd "$T/v" && sweep_tar -cf /dev/null -g "$T/snap-v" w) || fail "sweep-tar -g, for -v"
cp "$T/snap-v" "$T/snap-v-gnu"
mv "$T/v/w/x" "$T/v/w/z"
mv "$T/v/w/m/n" "$T/v/w/z/n"
mkdir "$T/v/w/new"
(cd "$T/v" && tar -cvf /dev/null -g "$T/snap-v-gnu" w 2>&1 >/dev/null) |
	sed 's/^tar:/sweep-tar:/' | sort > "$T/want"
(cd "$T/v" && sweep_tar -cvf /dev/null -g "$T/snap-v" w 2>&1 >/dev/null) | sort > "$T/got"
check_same "$T/want" "$T/got"

# sweep-tar -G extracts GNU tar's dumps and its own as GNU tar does: the
# files removed and renamed, said under -v ("Deleting"), the tree left
gnu_xg() { # (GNU tar's "Deleting" goes with the listing, its name first)
	within xg tar "$@" > "$T/xg.out"
	st=$?
	sed 's/^tar: Deleting/sweep-tar: Deleting/' "$T/xg.out"
	return $st
}
our_xg() { within xs sweep_tar "$@"; }
rm -rf "$T/xg" "$T/xs"
mkdir "$T/xg" "$T/xs"
for a in gnu-l0.tar gnu-l1.tar our-l2.tar our-l3.tar; do
	compare_run gnu_xg our_xg -xGvf "$T/$a" || fail "-xG $a"
done
manifest -R "$T/xg" > "$T/want"
manifest -R "$T/xs" > "$T/got"
check_same "$T/want" "$T/got"
manifest "$t" > "$T/want"
manifest "$T/xs/t" > "$T/got"
check_same "$T/want" "$T/got"
rm -rf "$T/xg" "$T/xs"
mkdir "$T/xg" "$T/xs"
for a in our-l0.tar our-l1.tar gnu-l2.tar; do
	compare_run gnu_xg our_xg --listed-incremental=/dev/null -xf "$T/$a" ||
		fail "-x --listed-incremental=/dev/null $a"
done
manifest -R "$T/xg" > "$T/want"
manifest -R "$T/xs" > "$T/got"
check_same "$T/want" "$T/got"

# what --exclude leaves out is listed 'N' (kept on extraction), changed or not
cp "$T/snap-cross-s" "$T/snap-gnu-ex"
cp "$T/snap-cross-s" "$T/snap-our-ex"
printf 'changed, excluded\n' > "$t/a"
mkdir "$t/excluded-dir"
dump "-ex" ex.tar --exclude=a --exclude=excluded-dir

# --level=0: everything again, whatever the snapshot file says
cp "$T/snap-our-l0" "$T/snap-our-lv"
cp "$T/snap-gnu-l0" "$T/snap-gnu-lv"
sleep 1
dump "-lv" lv.tar --level=0
restore rv our-lv.tar

# what a tag leaves out is not in the dumpdir (sweep-tar listed it 'Y',
# not dumped): once the tag is gone it is new to the next dump, which
# stores it (sweep-tar took it for unchanged and never stored it)
mkdir -p "$t/tagged" "$t/cache"
touch "$t/tagged/TAG"
printf 'tagged\n' > "$t/tagged/x"
printf 'Signature: 8a477f597d28d172789f06886806bc55' > "$t/cache/CACHEDIR.TAG"
printf 'cached\n' > "$t/cache/y"
touch -d 2020-01-01 "$t/tagged/x" "$t/cache/y"
dump "-tag" tag0.tar --exclude-tag=TAG --exclude-caches
rm "$t/tagged/TAG" "$t/cache/CACHEDIR.TAG"
dump "-tag" tag1.tar --exclude-tag=TAG --exclude-caches
restore rtag our-tag0.tar our-tag1.tar
mkdir -p "$t/under"
touch "$t/under/TAGU"
dump "-under" under.tar --exclude-tag-under=TAGU
rm -r "$t/under"
# --no-recursion: a named directory's files are dumped (sweep-tar stored
# none, its dumpdir saying 'Y'), its directories listed 'N', not entered
# (GNU's snapshot file names the directories not entered as well, with
# the entries it did not dump: the next dump takes their files for
# unchanged; sweep-tar's does not name them, and the next dump stores
# their files again: more than is needed, nothing lost)
NO_SNAP=1 dump "-nr" nr.tar --no-recursion

# GNU tar's dumps of moved directories, extracted by both with -G: two
# directories swapped (renamed through a temporary name, 'X': every file
# was lost, exit 2), one moved below another moved away (a rename GNU
# cannot make: the files stay where they were), one moved to a new parent
for case in swap nested newparent; do
	rm -rf "$T/mv" && mkdir -p "$T/mv/src/a/b" "$T/mv/src/e/sub"
	echo 1 > "$T/mv/src/a/f1" && echo 2 > "$T/mv/src/a/b/f2"
	echo 5 > "$T/mv/src/e/f5" && echo 6 > "$T/mv/src/e/sub/f6"
	(cd "$T/mv" && tar -g snap -cf "$T/mv-l0.tar" src) || fail "$case: level 0"
	sleep 1
	case $case in
	swap) (cd "$T/mv/src" && mv a tmp && mv e a && mv tmp e) ;;
	nested) (cd "$T/mv/src" && mv a/b bb && mv a bb/a) ;;
	newparent) (cd "$T/mv/src" && mv e e2 && mkdir e && echo n > e/n) ;;
	esac
	(cd "$T/mv" && tar -g snap -cf "$T/mv-l1.tar" src) || fail "$case: level 1"
	for side in g s; do
		rm -rf "$T/mv-$side" && mkdir "$T/mv-$side"
		prog=tar
		[ $side = s ] && prog=sweep_tar
		(cd "$T/mv-$side" && $prog -G -xf "$T/mv-l0.tar" && $prog -G -xf "$T/mv-l1.tar") \
			2> /dev/null
		echo "status $?" > "$T/mv-$side.out"
		(cd "$T/mv-$side" && find . | sort) >> "$T/mv-$side.out"
	done
	check_same "$T/mv-g.out" "$T/mv-s.out" || fail "$case: -G of moved directories"
done

# a snapshot file the user cannot open to read and write: said, and a
# full dump made all the same, the file left as it is, exit 2, as GNU
# tar's (the run ended, no archive: a backup script got none)
if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/us/src" && echo x > "$T/us/src/a" && chmod 777 "$T/us"
	for mode in 000 444; do
		for prog in tar sweep-tar; do
			rm -f "$T/us/snap" "$T/us/out.tar"
			echo kept > "$T/us/snap" && chown nobody "$T/us/snap" && chmod $mode "$T/us/snap"
			(cd "$T/us" && $AS_USER "$(command -v $prog)" -g snap -cf out.tar src) \
				> "$T/us/$prog.out" 2>&1
			echo "status $?" >> "$T/us/$prog.out"
			sed -i 's/^[^ ]*tar:/tar:/' "$T/us/$prog.out"
			tar -tf "$T/us/out.tar" >> "$T/us/$prog.out" 2>&1
			cat "$T/us/snap" >> "$T/us/$prog.out"
		done
		check_same "$T/us/tar.out" "$T/us/sweep-tar.out" || fail "a snapshot file of mode $mode"
	done
else
	echo "SKIP part: a snapshot file the user cannot open needs root to make" >&2
fi
exit 0
