#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# extract-links.sh: symbolic links met by -x, beside GNU tar. A link that
# was there before (lib -> usr/lib on a merged-/usr system) is followed by
# the members below it, and replaced by a directory member of its name
# unless --keep-directory-symlink, or followed under -h (the directory it
# leads to gets the member's attributes); a link the archive made is never gone
# through (hostile.sh), and a directory member of its name replaces it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar python3

# both NAME ARCHIVE ARGS...: GNU tar and sweep-tar extract ARCHIVE into a
# copy each of $T/before; messages, exit status and the trees must match.
both() {
	name=$1 archive=$2
	shift 2
	rm -rf "$T/gnu" "$T/sweep"
	cp -a "$T/before" "$T/gnu"
	cp -a "$T/before" "$T/sweep"
	(cd "$T/gnu" && tar -xf "$archive" "$@") > "$T/gnu.out" 2>&1
	echo "status $?" >> "$T/gnu.out"
	(cd "$T/sweep" && sweep_tar -xf "$archive" "$@") > "$T/sweep.out" 2>&1
	echo "status $?" >> "$T/sweep.out"
	sed 's/^sweep-tar: /tar: /' "$T/sweep.out" > "$T/got"
	# GNU tar says it cannot unlink a directory put where it made a
	# placeholder for a link to outside, and exits 2, only when the
	# directory happens to get the placeholder's inode number
	if grep -q '^tar: d: Cannot unlink: Is a directory$' "$T/gnu.out"; then
		grep -v '^tar: d: Cannot unlink\|^tar: Exiting with failure' "$T/gnu.out" |
			sed 's/^status 2$/status 0/' > "$T/gnu.fixed"
		mv "$T/gnu.fixed" "$T/gnu.out"
	fi
	check_same "$T/gnu.out" "$T/got" || fail "$name"
	(cd "$T/gnu" && find . -printf '%y %p %l\n' | sort) > "$T/gnu.tree"
	(cd "$T/sweep" && find . -printf '%y %p %l\n' | sort) > "$T/sweep.tree"
	check_same "$T/gnu.tree" "$T/sweep.tree" || fail "$name: trees differ"
}

# A merged-/usr target, and a package that ships lib/ and lib/libx.
mkdir -p "$T/before/usr/lib" "$T/pkg/lib"
ln -s usr/lib "$T/before/lib"
printf 'x\n' > "$T/pkg/lib/libx"
tar -cf "$T/files.tar" -C "$T/pkg" lib/libx
tar -cf "$T/dir.tar" -C "$T/pkg" lib
both "a file below a link from before" "$T/files.tar"
[ -f "$T/sweep/usr/lib/libx" ] || fail "lib/libx did not land in usr/lib"
both "a directory member over a link from before" "$T/dir.tar"
both "--keep-directory-symlink" "$T/dir.tar" --keep-directory-symlink
[ -L "$T/sweep/lib" ] && [ -f "$T/sweep/usr/lib/libx" ] || fail "--keep-directory-symlink"
# -h: the link from before is followed, and the directory it leads to
# gets the member's mode and time, as GNU tar's (it was replaced by a
# directory); a link to a file is replaced all the same
chmod 700 "$T/before/usr/lib"
touch -d 2001-01-01 "$T/before/usr/lib"
printf 't\n' > "$T/before/usr/target" && ln -s usr/target "$T/before/plain"
printf 'p\n' > "$T/pkg/plain"
chmod 750 "$T/pkg/lib"
touch -d 2011-01-01 "$T/pkg/lib" "$T/pkg/lib/libx"
tar -cf "$T/dir-plain.tar" -C "$T/pkg" lib plain
for opts in -h "-h --keep-directory-symlink" "-h -p" "-h --no-overwrite-dir"; do
	# shellcheck disable=SC2086
	start=$(date +%s)
	both "$opts" "$T/dir-plain.tar" $opts
	[ -L "$T/sweep/lib" ] || fail "$opts: the link is gone"
	# (a time the extraction gave, as --no-overwrite-dir leaves usr/lib's
	# when libx is made in it, is "now" on both sides: the two runs may
	# fall in two seconds)
	for side in gnu sweep; do
		stat -c '%a %Y %n' "$T/$side/usr/lib" "$T/$side/usr/target" |
			awk -v s="$start" '{ $2 = ($2 >= s ? "now" : $2); print }' | sed "s|$T/$side||"
		cat "$T/$side/usr/target"
	done > "$T/attrs"
	sed -n 1,3p "$T/attrs" > "$T/gnu.attrs"
	sed -n 4,6p "$T/attrs" > "$T/sweep.attrs"
	check_same "$T/gnu.attrs" "$T/sweep.attrs" || fail "$opts: the linked directory's attributes"
done

# The archive makes d as a link, then d/ as a directory holding q.
rm -rf "$T/before" && mkdir -p "$T/before/realdir" "$T/real"
for target in "$T/real" ../real realdir; do
	python3 - "$T/linkdir.tar" "$target" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], 'w') as t:
    l = tarfile.TarInfo('d'); l.type = tarfile.SYMTYPE; l.linkname = sys.argv[2]
    t.addfile(l)
    d = tarfile.TarInfo('d'); d.type = tarfile.DIRTYPE; d.mode = 0o755
    t.addfile(d)
    q = tarfile.TarInfo('d/q'); q.size = 2
    t.addfile(q, io.BytesIO(b'q\n'))
PY
	both "a link to $target, then a directory of its name" "$T/linkdir.tar"
	[ -z "$(ls -A "$T/real")" ] || fail "wrote through a link to $target"
done

# A hard link member whose name is its target: "find . | tar -T -" gives
# "./f" twice, the second a link to the first. It is done already: the file
# must stay (libarchive alone removes the name, then cannot link it), also
# where it was there before (./d twice) and under -k and --skip-old-files.
rm -rf "$T/before" "$T/src" && mkdir -p "$T/before" "$T/src/d"
printf 'data\n' > "$T/src/f"
printf 'old\n' > "$T/src/d/g"
(cd "$T/src" && find . | LC_ALL=C sort | tar -cf "$T/self.tar" -T -)
tar -tvf "$T/self.tar" | grep -q '^h.* \./f link to \./f$' || fail "GNU tar made no link ./f -> ./f"
both "a hard link to itself (find . | tar -T -)" "$T/self.tar"
[ "$(cat "$T/sweep/f")" = data ] || fail "./f lost by its link to itself"
(cd "$T/src" && tar -cf "$T/twice.tar" ./d ./d)
mkdir -p "$T/before/d" && printf 'on disk\n' > "$T/before/d/g"
for opt in "" -k --skip-old-files "--skip-old-files -v" --overwrite; do
	# shellcheck disable=SC2086 # the options are words
	both "./d twice over d/g on disk, $opt" "$T/twice.tar" $opt
	[ -s "$T/sweep/d/g" ] || fail "d/g lost by its link to itself ($opt)"
done
# -U too (GNU tar removes ./f, then cannot link it: not compared), where
# the member "./" is the working directory, left alone in silence, and ./d
# met again cannot be removed (said, as by GNU tar)
rm -rf "$T/sweep" && mkdir "$T/sweep"
(cd "$T/sweep" && sweep_tar -xUf "$T/self.tar") > "$T/sweep.out" 2>&1
printf '%s\n' "sweep-tar: ./d: Cannot unlink: Directory not empty" \
	"sweep-tar: Exiting with failure status due to previous errors" > "$T/want"
check_same "$T/want" "$T/sweep.out"
[ "$(cat "$T/sweep/f")" = data ] && [ "$(cat "$T/sweep/d/g")" = old ] || fail "-U on ./f twice"
ln "$T/before/d/g" "$T/before/d/h"
(cd "$T/before" && tar -cf "$T/linked.tar" d/g d/h)
for opt in -k --skip-old-files "--skip-old-files -v"; do
	# shellcheck disable=SC2086
	both "a link already linked, $opt" "$T/linked.tar" d/h $opt
done
exit 0
