#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# backup.sh: --backup[=CONTROL] and --suffix beside GNU tar, each run into
# its own copy of the same destination: -x renames each file a member
# replaces (not a directory) to NAME~ or NAME.~N~ as CONTROL, then
# VERSION_CONTROL, then "existing" choose, with --suffix or
# SIMPLE_BACKUP_SUFFIX for the simple ones; -v lists each rename; -k's
# file is put aside too; a member that cannot be made (a hard link to a
# member not extracted) gives the name back ("Renaming ... back");
# a rename that fails (a directory closed to the user) skips the member
# with GNU's two messages and status 2; -t and -O rename nothing; -c puts
# the archive aside before writing over it; a CONTROL naming no kind is
# refused with GNU's list.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d/sub" "$T/dest/d/sub/dir"
printf 'member a\n' > "$T/src/d/a"
printf 'member b\n' > "$T/src/d/b"
ln "$T/src/d/b" "$T/src/d/hard"
printf 'member c\n' > "$T/src/d/sub/c"
printf 'member l\n' > "$T/src/d/link"
mkdir "$T/src/d/sub/dir"
touch -d '2021-01-01' "$T/src/d/a" "$T/src/d/b" "$T/src/d/sub/c" "$T/src/d/link"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c"
printf 'old a\n' > "$T/dest/d/a"
printf 'old a, one\n' > "$T/dest/d/a.~1~"
printf 'old a, other\n' > "$T/dest/d/a.~x~"
printf 'old b\n' > "$T/dest/d/b"
printf 'old hard\n' > "$T/dest/d/hard"
printf 'old c\n' > "$T/dest/d/sub/c"
ln -s elsewhere "$T/dest/d/link"
touch -d '2020-01-01' "$T/dest/d/a" "$T/dest/d/b" "$T/dest/d/sub/c"

tree_state() { (cd "$1" && find . -printf '%p %y %m\n' | sort && find . -type f | sort |
	while read -r f; do printf '%s %s ' "$f" "$(stat -c %Y "$f")"; cat "$f"; done) }

dest=dest
extract_over "--backup" --backup -x
extract_over "--backup -v" --backup -xv
extract_over "--backup=numbered -v" --backup=numbered -xv
extract_over "--backup=t" --backup=t -x
extract_over "--backup=simple -v" --backup=simple -xv
extract_over "--backup=never --suffix=.orig" --backup=never --suffix=.orig -xv
extract_over "--suffix=.bak alone" --suffix=.bak -xv
extract_over "--backup=nil" --backup=nil -x
extract_over "--backup=off" --backup=off -xv
extract_over "--backup=none" --backup=none -x
extract_over "--backup=nu (abbreviated)" --backup=nu -x
extract_over "--backup=s then --backup" --backup=s --backup -x
extract_over "-k --backup" -k --backup -xv
extract_over "--skip-old-files --backup" --skip-old-files --backup -x
extract_over "--overwrite --backup" --overwrite --backup=t -xv
# (whichever of d/b and d/hard GNU stored second is the link)
link=$(tar -tvf "$T/in.tar" | sed -n 's/^h.* \(d\/[a-z]*\) link to .*/\1/p')
[ -n "$link" ] || fail "no hard link member in the archive"
cp -a "$T/dest" "$T/nolink" && rm -f "$T/nolink/d/b" "$T/nolink/d/hard"
printf 'old link\n' > "$T/nolink/$link"
dest=nolink
extract_over "a link to a member left out" --backup=t -xv "$link"
dest=dest
extract_over "-t --backup" --backup -tv
extract_over "-O --backup" --backup -xO
extract_over "--backup=foo" --backup=foo -x
export VERSION_CONTROL=numbered
extract_over "VERSION_CONTROL=numbered --backup" --backup -xv
extract_over "VERSION_CONTROL=numbered --backup=simple" --backup=simple -xv
VERSION_CONTROL=bar
extract_over "VERSION_CONTROL=bar --backup" --backup -x
extract_over "VERSION_CONTROL=bar --backup=t" --backup=t -x
VERSION_CONTROL=
extract_over "VERSION_CONTROL empty" --backup -x
unset VERSION_CONTROL
export SIMPLE_BACKUP_SUFFIX=.sav
extract_over "SIMPLE_BACKUP_SUFFIX=.sav" --backup=simple -xv
extract_over "SIMPLE_BACKUP_SUFFIX=.sav, --suffix=.s2" --backup=simple --suffix=.s2 -xv
unset SIMPLE_BACKUP_SUFFIX
# (not beside GNU tar 1.34, whose older gnulib takes any suffix: a '/' in
# SIMPLE_BACKUP_SUFFIX leaves it unused, as in GNU cp; an empty --suffix
# is "~", where GNU tar renames the file to itself and loses it)
for how in env empty; do
	rm -rf "$T/s" && cp -a "$T/dest" "$T/s"
	if [ $how = env ]; then
		(cd "$T/s" && SIMPLE_BACKUP_SUFFIX=a/b sweep_tar -xf "$T/in.tar" --backup=simple) ||
			fail "SIMPLE_BACKUP_SUFFIX with a slash"
	else
		(cd "$T/s" && sweep_tar -xf "$T/in.tar" --backup=simple --suffix=) || fail "--suffix="
	fi
	[ "$(cat "$T/s/d/a~")" = "old a" ] && [ "$(cat "$T/s/d/a")" = "member a" ] ||
		fail "$how: d/a~ is not the file that was there"
done

# the rename fails: a directory the user may not write in
unprivileged
if [ -n "$AS_USER" ]; then
	chmod 555 "$T/dest/d/sub"
	chmod -R a+rX "$T/dest" "$T/in.tar"
	extract_gnu() { within g $AS_USER tar -f "$T/in.tar" "$@"; }
	extract_our() { within s $AS_USER "$sweep_tools/sweep-tar" -f "$T/in.tar" "$@"; }
	extract_over "a rename refused" --backup -xv
	chmod 755 "$T/dest/d/sub"
	extract_gnu() { within g tar -f "$T/in.tar" "$@"; }
	extract_our() { within s sweep_tar -f "$T/in.tar" "$@"; }
else
	echo "SKIP part: a directory closed to the user needs root to make it" >&2
fi

# nothing is renamed through a link the archive made: a member d/f after
# a link d to a directory outside ("Cannot extract through symlink"; the
# rename through it destroyed outside/f~); a directory member d/ over a
# file d puts the file aside ("Cannot stat: Not a directory", exit 2)
mkdir -p "$T/evil/real" "$T/evil/outside"
echo member > "$T/evil/real/f"
ln -s "$T/evil/outside" "$T/evil/d"
(cd "$T/evil" && tar -cf "$T/evil.tar" d && tar -rf "$T/evil.tar" --transform='s,^real,d,' real/f) ||
	fail "GNU tar: the archive through a link"
for side in g s; do
	rm -rf "${T:?}/evil/$side" "$T/evil/outside" && mkdir "$T/evil/$side" "$T/evil/outside"
	echo old > "$T/evil/outside/f" && echo older > "$T/evil/outside/f~"
	prog=tar
	[ $side = s ] && prog=sweep_tar
	(cd "$T/evil/$side" && $prog -xvf "$T/evil.tar" --backup) > "$T/evil/$side.out" 2>&1
	echo "status $?" >> "$T/evil/$side.out"
	(cd "$T/evil/outside" && for f in *; do echo "$f $(cat "$f")"; done) >> "$T/evil/$side.out"
done
# (the messages differ: GNU tar's link is a placeholder file until the
# end, "Not a directory"; sweep-tar says the link)
sed -i '/^tar:/d; /^sweep-tar:/d' "$T/evil/g.out" "$T/evil/s.out"
check_same "$T/evil/g.out" "$T/evil/s.out" || fail "--backup through a link the archive made"
grep -q '^f~ older$' "$T/evil/s.out" || fail "--backup through a link: outside/f~ changed"
mkdir -p "$T/dm/d" && echo in > "$T/dm/d/in" && (cd "$T/dm" && tar -cf "$T/in.tar" d) ||
	fail "GNU tar: a directory"
mkdir -p "$T/dfile" && echo precious > "$T/dfile/d"
dest=dfile
extract_over "a directory member over a file" --backup -xv

# -c: the archive it writes over is put aside first
mkdir -p "$T/cdest"
printf 'old archive\n' > "$T/cdest/out.tar"
printf 'old archive one\n' > "$T/cdest/out.tar.~1~"
names_state() { (cd "$1" && find . -printf '%p %y\n' | sort && for f in out.tar?*; do
	printf '%s ' "$f"; cat "$f"; done) }
create_over() {
	_what=$1
	shift
	rm -rf "$T/cg" "$T/cs"
	cp -a "$T/cdest" "$T/cg" && cp -a "$T/cdest" "$T/cs"
	compare_run create_gnu create_our "$@" || fail "$_what" # (sorted: members in disk order)
	names_state "$T/cg" > "$T/want"
	names_state "$T/cs" > "$T/got"
	check_same "$T/want" "$T/got" || fail "$_what: files"
}
create_gnu() { (cd "$T/cg" && tar -C "$T/src" "$@" d); }
create_our() { (cd "$T/cs" && sweep_tar -C "$T/src" "$@" d); }
create_over "-c --backup" -cf out.tar --backup
create_over "-c --backup=simple -v" -cvf out.tar --backup=simple
create_over "-c --suffix=.prev" -cf out.tar --suffix=.prev
create_over "-c --backup=off" -cf out.tar --backup=off
create_over "-c --backup, a new archive" -cf new.tar --backup
