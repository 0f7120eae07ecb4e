#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# archive.sh: sweep-sync -a of a tree with every file type (odd names,
# hard links, symbolic links, devices and a fifo as root, odd modes and
# times) beside rsync -a: the same bytes, modes, owners, times to the
# nanosecond; -aH with the hard-link groups; -aAX with the ACLs and
# extended attributes; -aHAX's copy against the source itself; then -r
# alone, which skips links and specials; attributes that moved on a copy;
# a socket and a path longer than PATH_MAX, here and pushed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
local_rsh
both "-a" -a src/ DST
both "-ai" -ai src/ DST
both "-av" -av src/ DST
both "-aH" -aH src/ DST
both "-aAX" -aAX src/ DST
both "-aHAX --stats" -aHAX --stats src/ DST
# the copy against its source itself, not only rsync's copy: the same
# entries, modes, owners, sizes, times, link groups and attributes
smanifest "$T/src" > "$T/src.tree"
smanifest "$T/O/dst" > "$T/copy.tree"
check_same "$T/src.tree" "$T/copy.tree" || fail "-aHAX: the copy is not its source"
NO_TREE=1 both "-ri" -ri src/ DST
# a second -aAX onto a copy whose attributes moved: one changed, one the
# source lacks, an ACL the source lacks: rsync gives the copy the source's
# own set back (the extra ones removed), and says so with -i; a file's
# ACL that moved its mode (the group's bits are its mask, the others' set
# too): 'a' alone, as the ACL carries them; a set-user-ID bit with it:
# 'p' too (the mode was said to differ, 'p', where rsync says 'a' alone);
# and with the file's data changed too, 'a' beside the data's letters (it
# was left out of a file sent); -a --no-p into a directory with a default
# ACL, under umask 077: the files take the mode the ACL gives (they were
# made 0700, then given the umask's mode)
if getfattr -n user.test "$T/src/file" >/dev/null 2>&1 && command -v setfacl >/dev/null; then
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file &&
		setfattr -n user.test -v changed dst/file && setfattr -n user.more -v m dst/sub &&
		setfacl -m u:nobody:r dst/file' \
		both "-aiAX onto moved attributes" -aiAX src/ DST
	moved='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file &&
		setfattr -n user.test -v changed dst/file && setfattr -n user.more -v m dst/sub &&
		setfacl -m u:nobody:r dst/file'
	PREPARE=$moved both "-aiAX onto moved attributes, pushed" -aiAX -e "$RSH" src/ localhost:DST
	PREPARE=$moved both "-aiAX onto moved attributes, pulled" -aiAX -e "$RSH" localhost:src/ DST
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file' \
		both "-aiX, an extra attribute" -aiX src/ DST
	masked='rsync -aAX ../src/ dst/ && setfacl -m u:nobody:rwx dst/file && chmod o+w dst/file'
	PREPARE=$masked both "-aiA, an ACL that moved the mode" -aiA src/ DST
	PREPARE=$masked both "-aiA, an ACL that moved the mode, pushed" -aiA -e "$RSH" src/ localhost:DST
	PREPARE="$masked && chmod u+s dst/file" both "-aiA, an ACL and a set-user-ID bit" -aiA src/ DST
	PREPARE="$masked && echo more >> dst/file" both "-aiAX, an ACL and the data" -aiAX src/ DST
	PREPARE='mkdir dst && setfacl -d -m u:nobody:rwx,m::rwx dst' WRAP='umask 077;' \
		both "-a --no-p, a default ACL" -ai --no-p src/ DST
	# without -X the copy's own attributes are not looked at
	PREPARE='rsync -aAX ../src/ dst/ && setfattr -n user.extra -v e dst/file' \
		both "-ai, an extra attribute left" -ai src/ DST
else
	echo "attributes moved on a copy: not checked (no user xattrs here, or no setfacl)"
fi

# a socket, and a path longer than PATH_MAX (rsync stops at it, 23): the
# copy against its source, here and pushed
need_cmd python3
mkdir -p "$T/odd/d"
# (bound through its directory: a socket's path has room for 107 bytes)
(cd "$T/odd/d" && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")') ||
	fail "cannot make a socket"
# (a shell's cd stops short of it: made a directory descriptor at a time)
python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(25):
    os.mkdir("d" * 200, dir_fd=fd)
    fd = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
f = os.open("file", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(f, b"deep\n")' "$T/odd" || fail "cannot make a deep path"
find "$T/odd" -maxdepth 2 -exec touch -h -d '2010-05-06 07:08:09.25' {} +
for how in here pushed; do
	dst=$T/odd-$how
	[ $how = pushed ] && dst=localhost:$dst
	rm -rf "$T/odd-$how"
	(cd "$T" && sweep-sync -aHAX -e "$RSH" odd/ "$dst/") || fail "$how: a socket and a deep path: status $?"
	smanifest "$T/odd" > "$T/odd.tree"
	smanifest "$T/odd-$how" > "$T/odd-copy.tree"
	check_same "$T/odd.tree" "$T/odd-copy.tree" || fail "$how: a socket and a deep path: not the source"
done

# A tree made this very second, copied to a DEST the run makes: what the
# run makes gets its source's time to the nanosecond, DEST as what is in
# it (rsync leaves a time that is the same second; a copy is exact here).
mkdir -p "$T/fresh/sub"
echo x > "$T/fresh/sub/f"
touch -d "@$(date +%s).25" "$T/fresh/sub" "$T/fresh"
for how in here pushed; do
	dst=$T/fresh-$how
	[ $how = pushed ] && dst=localhost:$dst
	(cd "$T" && sweep-sync -a -e "$RSH" fresh/ "$dst/") || fail "$how: a fresh tree: status $?"
	for d in "" /sub; do
		[ "$(stat -c %y "$T/fresh$d")" = "$(stat -c %y "$T/fresh-$how$d")" ] ||
			fail "$how: fresh$d: $(stat -c %y "$T/fresh-$how$d"), not its source's $(stat -c %y "$T/fresh$d")"
	done
done
