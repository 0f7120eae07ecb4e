#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# extract-links.sh: symbolic links met by -x, beside GNU tar. A link that
# was there before (lib -> usr/lib on a merged-/usr system) is followed by
# the members below it, and replaced by a directory member of its name
# unless --keep-directory-symlink; a link the archive made is never gone
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
exit 0
