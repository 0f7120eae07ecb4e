#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# overwrite.sh: -x over files already there, beside GNU tar, each into its
# own copy of the same destination: --overwrite (a regular file written in
# place: the same inode, so a second hard link to it sees the new contents
# and mode; a symbolic link in the way replaced by the file; a directory in
# the way left, "Cannot open: Is a directory"), --overwrite-dir and
# --no-overwrite-dir (an existing directory's mode, and as root its owner,
# kept), --recursive-unlink (-U with directories in the way removed whole,
# whatever -k, --overwrite or the like said), and the options refused
# together as GNU tar refuses them. What is compared: the files left (names,
# types, modes, owners, contents, times, directories' too, hard link
# groups), messages and status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d/sub" "$T/src/d/newdir"
printf 'new contents\n' > "$T/src/d/f"
printf 'new\n' > "$T/src/d/viasym"
printf 'new\n' > "$T/src/d/dirinway"
printf 'sub\n' > "$T/src/d/sub/s"
printf 'empty now\n' > "$T/src/d/was-empty"
: > "$T/src/d/was-full"
chmod 640 "$T/src/d/f"
chmod 700 "$T/src/d/sub"
touch -d '2021-01-01' "$T/src/d/f" "$T/src/d/viasym" "$T/src/d/sub/s"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c"

make_dest() { # DIR: what the archive is extracted over
	mkdir -p "$1/d/sub" "$1/d/newdir"
	printf 'old, longer contents\n' > "$1/d/f"
	chmod 600 "$1/d/f"
	ln "$1/d/f" "$1/held"
	printf 'target\n' > "$1/target"
	ln -s ../target "$1/d/viasym"
	printf 'other\n' > "$1/d/sub/other"
	chmod 755 "$1/d/sub"
	: > "$1/d/was-empty"
	printf 'full\n' > "$1/d/was-full"
	if [ "$(id -u)" = 0 ]; then
		chown nobody "$1/d/sub"
	fi
	# older than any run, so that -m's "written now" shows
	find "$1" -exec touch -h -d '2020-06-01' {} +
}
make_dest "$T/dest"
# and a directory where the archive has a file
cp -a "$T/dest" "$T/dirs"
mkdir -p "$T/dirs/d/dirinway/deep"
printf 'z\n' > "$T/dirs/d/dirinway/deep/z"


dest=dest
extract_over "by default" -x
extract_over "--overwrite" --overwrite -x
extract_over "--overwrite -v" --overwrite -xv
# -m: what is written takes the time of extraction, and the two runs may
# fall in different seconds
tree_state() { manifest -R -t "$extract_start" "$1"; }
extract_over "--overwrite -m" --overwrite -m -x
tree_state() { manifest -R "$1"; }
extract_over "--overwrite -p" --overwrite -p -x
extract_over "--overwrite-dir" --overwrite-dir -x
extract_over "--no-overwrite-dir" --no-overwrite-dir -x
extract_over "--overwrite-dir twice" --overwrite-dir --overwrite-dir -x
extract_over "--recursive-unlink" --recursive-unlink -x
extract_over "-U --recursive-unlink" -U --recursive-unlink -x
extract_over "--recursive-unlink -k" --recursive-unlink -k -x
extract_over "--overwrite --recursive-unlink" --overwrite --recursive-unlink -x
extract_over "--recursive-unlink --no-overwrite-dir" --recursive-unlink --no-overwrite-dir -x
# refused together
extract_over "--overwrite -k" --overwrite -k -x
extract_over "-U --overwrite" -U --overwrite -x
extract_over "--overwrite --skip-old-files" --overwrite --skip-old-files -x
extract_over "--overwrite-dir --no-overwrite-dir" --overwrite-dir --no-overwrite-dir -x
extract_over "--no-overwrite-dir --overwrite" --no-overwrite-dir --overwrite -x
extract_over "--keep-newer-files --overwrite-dir" --keep-newer-files --overwrite-dir -x

dest=dirs
extract_over "--overwrite, a directory in the way" --overwrite -x
extract_over "--recursive-unlink, a directory in the way" --recursive-unlink -x

# the file written in place is the one a hard link elsewhere names
rm -rf "$T/s"
cp -a "$T/dest" "$T/s"
extract_our --overwrite -x || fail "--overwrite: status $?"
[ "$(stat -c %i "$T/s/d/f")" = "$(stat -c %i "$T/s/held")" ] ||
	fail "--overwrite: d/f is a new file"
check_same "$T/src/d/f" "$T/s/held"
exit 0
