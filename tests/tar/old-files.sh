#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# old-files.sh: what -x does with files already there, beside GNU tar, each
# into its own copy of the same destination: --skip-old-files (kept in
# silence; with -v "skipping existing file", directories too) and
# --keep-newer-files (kept when not older than the member: "Current 'NAME'
# is newer or same age"; replaced when older), -U/--unlink-first (each name
# removed first, directories only when empty: "Cannot unlink"), each refused
# beside the others or -k as GNU tar refuses it; a file or a link where a
# directory member goes; the files left, their types, contents and times,
# messages and status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d/sub" "$T/dest/d/sub"
printf 'member a\n' > "$T/src/d/a"
printf 'member b\n' > "$T/src/d/b"
printf 'member c\n' > "$T/src/d/sub/c"
printf 'member new\n' > "$T/src/d/new"
touch -d '2021-01-01' "$T/src/d/a" "$T/src/d/b" "$T/src/d/sub/c"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c"
printf 'older\n' > "$T/dest/d/a"
printf 'newer\n' > "$T/dest/d/b"
printf 'same\n' > "$T/dest/d/sub/c"
touch -d '2020-01-01' "$T/dest/d/a"
touch -d '2022-01-01' "$T/dest/d/b"
touch -d '2021-01-01' "$T/dest/d/sub/c"

tree_state() { (cd "$1" && find . -printf '%p %y %m\n' | sort && find . -type f | sort |
	while read -r f; do printf '%s %s ' "$f" "$(stat -c %Y "$f")"; cat "$f"; done) }

dest=dest
extract_over "--skip-old-files" --skip-old-files -x
extract_over "--skip-old-files -v" --skip-old-files -xv
extract_over "--keep-newer-files" --keep-newer-files -x
extract_over "--keep-newer-files -v" --keep-newer-files -xv
extract_over "-k then --skip-old-files" -k --skip-old-files -x
extract_over "--skip-old-files then -k" --skip-old-files -k -x
extract_over "--keep-newer-files then --skip-old-files" --keep-newer-files --skip-old-files -x
extract_over "-k then --keep-newer-files" -k --keep-newer-files -x
extract_over "-k twice" -k -k -x
extract_over "-U" -U -x
extract_over "--unlink-first -v" --unlink-first -xv
extract_over "-U then -k" -U -k -x
extract_over "--keep-newer-files then -U" --keep-newer-files -U -x
# directories in the way: empty ones removed, others said so and left as
# they are (GNU tar leaves out the member: d/sub keeps its mode)
mkdir -p "$T/dirs/d/a/sub" "$T/dirs/d/b" "$T/dirs/d/sub/x"
chmod 700 "$T/dirs/d/sub"
printf 'old\n' > "$T/dirs/d/sub/old"
ln -s b "$T/dirs/d/new"
dest=dirs
extract_over "-U, directories in the way" -U -x
# -k over each kind, and a file over a directory: GNU's words for each
# ("Cannot hard link to", "Cannot mkfifo"...; they were all "Cannot open")
mkdir -p "$T/kinds/src" && echo f > "$T/kinds/src/f" && ln "$T/kinds/src/f" "$T/kinds/src/h"
ln -s f "$T/kinds/src/l" && mkfifo "$T/kinds/src/p"
[ "$(id -u)" = 0 ] && mknod "$T/kinds/src/c" c 1 3
(cd "$T/kinds/src" && tar -cf "$T/kinds.tar" *) || fail "GNU tar -c of kinds"
mkdir -p "$T/kinds/there/fd/sub"
for f in f h l p c; do echo old > "$T/kinds/there/$f"; done
echo fd > "$T/kinds/fd" && (cd "$T/kinds" && tar -cf "$T/kinds2.tar" fd) || fail "GNU tar -c fd"
kinds_gnu() { rm -rf "$T/kg" && cp -a "$T/kinds/there" "$T/kg" && (cd "$T/kg" && tar "$@"); }
kinds_our() { rm -rf "$T/ks" && cp -a "$T/kinds/there" "$T/ks" && (cd "$T/ks" && sweep_tar "$@"); }
compare_run -k kinds_gnu kinds_our -k -xf "$T/kinds.tar" || fail "-k over each kind"
compare_run -k kinds_gnu kinds_our -xf "$T/kinds2.tar" || fail "a file over a directory"
# a file, a link to nothing, or a link to a directory where a directory
# member goes: kept under -k, --skip-old-files and --keep-newer-files
# (the file was replaced by the directory, its data lost; the links
# replaced), what comes below failing as GNU tar says it, or going through
# the link; -U removes the link (it was followed: written outside)
for kind in file dangling linkdir; do
	rm -rf "$T/way" && mkdir -p "$T/way/outside"
	case $kind in
	file) printf 'precious\n' > "$T/way/d" && touch -d 2030-01-01 "$T/way/d" ;;
	dangling) ln -s nowhere "$T/way/d" ;;
	linkdir) ln -s outside "$T/way/d" ;;
	esac
	dest=way
	for opt in -k --skip-old-files --keep-newer-files -U; do
		extract_over "$opt over a $kind" $opt -x
	done
done
# the same where the archive holds no member for the directory: whatever
# the options, a file in its place is kept and what goes below fails
# (libarchive removed the file, unnamed by the archive, exit 0)
mkdir -p "$T/nodir/dir" && echo in > "$T/nodir/dir/x"
(cd "$T/nodir" && tar -cf "$T/nodir.tar" dir/x) || fail "GNU tar -c dir/x"
for kind in file dangling; do
	rm -rf "$T/nd-there" && mkdir "$T/nd-there"
	case $kind in
	file) printf 'precious\n' > "$T/nd-there/dir" ;;
	dangling) ln -s nowhere "$T/nd-there/dir" ;;
	esac
	nd_gnu() { rm -rf "$T/ng" && cp -a "$T/nd-there" "$T/ng" && (cd "$T/ng" && tar "$@"); }
	nd_our() { rm -rf "$T/no" && cp -a "$T/nd-there" "$T/no" && (cd "$T/no" && sweep_tar "$@"); }
	for opt in -x --overwrite -U -p --no-overwrite-dir; do
		compare_run -k nd_gnu nd_our $opt -xf "$T/nodir.tar" ||
			fail "$opt, no member for the directory, a $kind in its place"
		check_same "$(tree_state "$T/ng" > "$T/ng.state"; echo "$T/ng.state")" \
			"$(tree_state "$T/no" > "$T/no.state"; echo "$T/no.state")"
	done
done
# --keep-newer-files: a directory is never newer; a member of another kind
# goes on and fails there (a link) or replaces it (empty), as in GNU tar
mkdir -p "$T/kn/s" && ln -s tgt "$T/kn/s/l" && echo a > "$T/kn/s/f" && ln "$T/kn/s/f" "$T/kn/s/h"
echo b > "$T/kn/s/g" && touch -h -d 2000-01-01 "$T/kn/s/l" "$T/kn/s/f" "$T/kn/s/g"
(cd "$T/kn/s" && tar -cf "$T/kn.tar" l f h g) || fail "GNU tar -c kn"
mkdir -p "$T/kn/there/l" "$T/kn/there/h" "$T/kn/there/g" && touch "$T/kn/there/l/p" "$T/kn/there/h/p"
kn_gnu() { rm -rf "$T/kg" && cp -a "$T/kn/there" "$T/kg" && (cd "$T/kg" && tar "$@"); }
kn_our() { rm -rf "$T/ko" && cp -a "$T/kn/there" "$T/ko" && (cd "$T/ko" && sweep_tar "$@"); }
compare_run -k kn_gnu kn_our --keep-newer-files -xf "$T/kn.tar" ||
	fail "--keep-newer-files over directories"
tree_state "$T/kg" > "$T/kg.state" && tree_state "$T/ko" > "$T/ko.state"
check_same "$T/kg.state" "$T/ko.state"
# -k (and --keep-newer-files) over an existing directory: its mode and
# time stay, in silence, as GNU tar leaves them (sweep-tar gave it the
# member's); what is below is extracted as ever
mkdir -p "$T/kd/src/d/sub" "$T/kd/there/d/sub"
echo new > "$T/kd/src/d/sub/f"
chmod 700 "$T/kd/src/d" && touch -d 2001-01-01 "$T/kd/src/d"
(cd "$T/kd/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c kd"
chmod 755 "$T/kd/there/d" && touch -d 2030-01-01 "$T/kd/there/d"
# (the time of d only: d/sub's moves when f is made in it; a time of the
# extraction's is "now" on both sides, which may cross a second's turn)
tree_state() {
	(cd "$1" && find . -printf '%p %y %m\n' | sort &&
		stat -c %Y d | awk -v s="$extract_start" '{ print "d", ($1 >= s ? "now" : $1) }')
}
dest=kd/there
for opts in -k "-k --no-overwrite-dir" --skip-old-files --keep-newer-files; do
	# shellcheck disable=SC2086
	extract_over "$opts over a directory" $opts -x
done
exit 0
