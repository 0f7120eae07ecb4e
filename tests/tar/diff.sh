#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# diff.sh: -d (--diff, --compare) beside GNU tar, on the same archive and
# tree: nothing changed (status 0), then each kind of difference GNU tar
# reports ("Mod time differs", "Size differs", "Contents differ", "Mode
# differs", "Uid differs", "Gid differs", "File type differs", "Symlink
# differs", "Not linked to", "Warning: Cannot stat" for a file gone, status
# 1), with -v and -vv, names selected, names not in the archive, -C, -h,
# --one-top-level, a pax archive's nanoseconds: the same output, messages
# and status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

src=$T/src
mkdir -p "$src/d/sub" "$src/d/dir"
printf 'alpha\n' > "$src/d/a"
printf 'bravo\n' > "$src/d/sub/b"
printf 'same size\n' > "$src/d/contents"
printf 'mode\n' > "$src/d/mode"
printf 'gone\n' > "$src/d/gone"
printf 'type\n' > "$src/d/type"
printf 'linked\n' > "$src/d/h1"
ln "$src/d/h1" "$src/d/h2"
ln -s a "$src/d/link"
mkfifo "$src/d/fifo"
[ "$(id -u)" = 0 ] && printf 'owned\n' > "$src/d/owner"
find "$src" -exec touch -h -d '2020-01-01 00:00:00.5 UTC' {} +
(cd "$src" && tar -cf "$T/d.tar" d && tar --posix -cf "$T/pax.tar" d) || fail "GNU tar -c"

gnu_diff() { within src tar "$@"; }
our_diff() { within src sweep_tar "$@"; }
same() {
	_what=$1
	shift
	compare_run -k gnu_diff our_diff "$@" || fail "$_what"
}

same "nothing changed" -df "$T/d.tar"
same "nothing changed, -v" -dvf "$T/d.tar"
same "nothing changed, pax" -df "$T/pax.tar"
same "--compare" --compare -f "$T/d.tar"
touch -d '2020-01-01 00:00:00.7 UTC' "$src/d/a"
same "nanoseconds only: gnu" -df "$T/d.tar"
same "nanoseconds only: pax" -df "$T/pax.tar"
touch -d '2021-01-01 UTC' "$src/d/a"
printf 'bravo and more\n' > "$src/d/sub/b"
printf 'same SIZE\n' > "$src/d/contents"
touch -d '2020-01-01 00:00:00.5 UTC' "$src/d/contents"
chmod 600 "$src/d/mode"
rm "$src/d/gone" "$src/d/type" "$src/d/h2" "$src/d/link" "$src/d/fifo"
mkdir "$src/d/type"
printf 'linked\n' > "$src/d/h2"
ln -s elsewhere "$src/d/link"
printf 'not a fifo\n' > "$src/d/fifo"
rmdir "$src/d/dir" && printf 'was a directory\n' > "$src/d/dir"
[ "$(id -u)" = 0 ] && chown 1234:5678 "$src/d/owner"
same "differences" -df "$T/d.tar"
same "differences, -v" -dvf "$T/d.tar"
same "differences, -vv" -dvvf "$T/d.tar"
same "differences, pax" -df "$T/pax.tar"
same "names" -df "$T/d.tar" d/a d/sub nothere
same "-C" -C "$T" -df "$T/d.tar" d/a
same "-C, then names" -df "$T/d.tar" -C d a
same "-h" -dhf "$T/d.tar" d/link
same "--one-top-level" -df "$T/d.tar" --one-top-level=top
mkdir "$src/top" && cp -a "$src/d" "$src/top/"
same "--one-top-level, there" -df "$T/d.tar" --one-top-level=top
same "--diff --atime-preserve" --diff --atime-preserve -f "$T/d.tar" d/sub
# the differences go to the index file, as -v does
within src tar -df "$T/d.tar" --index-file="$T/index-gnu" 2> /dev/null
within src sweep_tar -df "$T/d.tar" --index-file="$T/index" 2> /dev/null && fail "-d --index-file: status 0"
[ -s "$T/index" ] || fail "-d --index-file: nothing listed"
check_same "$T/index-gnu" "$T/index"
exit 0
