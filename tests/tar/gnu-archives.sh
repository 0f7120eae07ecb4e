#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gnu-archives.sh: archives made by GNU tar are listed as GNU tar lists them
# (-t, -tv, byte for byte) and extracted to the same tree, in each format
# and compressed; member names, --wildcards, --strip-components, -O, -k,
# -C and --exclude select and place what GNU tar's do; a name not in the
# archive gives GNU's message. sweep-tar's own archives list the same way
# under both programs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

mopts=
[ "$(id -u)" = 0 ] || mopts=-o
mkdir -p "$T/src/tree" "$T/v7/tree"
make_tree "$T/src/tree" full
make_tree "$T/v7/tree" v7
touch -d '2001-02-03 04:05:06' "$T/src/tree" "$T/v7/tree"

# same_output NAME CMD...: "tar CMD" and "sweep-tar CMD" print the same
# (output, messages and status).
same_output() {
	name=$1
	shift
	compare_run -k tar sweep_tar "$@" || fail "$name"
}

future='s/ is [0-9.]* s in the future/ is N s in the future/'

# extract_both NAME ARGS...: both extract with ARGS into fresh directories,
# whose trees must be the same (and their messages and status).
extract_both() {
	name=$1
	shift
	rm -rf "$T/x-gnu" "$T/x-sweep"
	mkdir "$T/x-gnu" "$T/x-sweep"
	# (how far in the future a time is depends on when it is said)
	compare_run -k -e "$future" "within x-gnu tar -x" "within x-sweep sweep_tar -x" "$@" ||
		fail "$name"
	manifest -R ${dirtimes:-} $mopts "$T/x-gnu" > "$T/want"
	manifest -R ${dirtimes:-} $mopts "$T/x-sweep" > "$T/got"
	cmp -s "$T/want" "$T/got" || echo "in: $name" >&2
	check_same "$T/want" "$T/got"
}

for fmt in gnu oldgnu posix ustar v7 ; do
	case $fmt in ustar|v7) src=$T/v7 ;; *) src=$T/src ;; esac
	tar -cf "$T/$fmt.tar" --format=$fmt -C "$src" tree
	same_output "-t $fmt" -tf "$T/$fmt.tar"
	same_output "-tv $fmt" -tvf "$T/$fmt.tar"
	# (-p: modes exactly, also when not run as root)
	extract_both "-x $fmt" -p -f "$T/$fmt.tar"
	manifest $mopts "$src/tree" > "$T/want"
	manifest $mopts "$T/x-sweep/tree" > "$T/got"
	check_same "$T/want" "$T/got"
done

# compressed, named or detected
tar -czf "$T/gnu.tgz" -C "$T/src" tree
tar -cJf "$T/gnu.txz" -C "$T/src" tree
extract_both "-xz" -zf "$T/gnu.tgz"
extract_both "-x of .txz, detected" -f "$T/gnu.txz"

# members and patterns (the directories on the way to a member are made
# when it is extracted, with that time: their times are not compared)
dirtimes=-D
extract_both "one member" -f "$T/gnu.tar" tree/sub
extract_both "two members" -f "$T/gnu.tar" tree/regular tree/sub/inner/
extract_both "wildcards" -f "$T/gnu.tar" --wildcards 'tree/s*'
extract_both "strip" -f "$T/gnu.tar" --strip-components=2
extract_both "exclude" -f "$T/gnu.tar" --exclude=inner --exclude='*.c'
extract_both "missing member" -f "$T/gnu.tar" tree/regular tree/nonexistent
dirtimes=
same_output "-t missing member" -tf "$T/gnu.tar" tree/nonexistent tree/sub
same_output "-O" -xOf "$T/gnu.tar" tree/regular tree/sub/large

# -C
mkdir -p "$T/x-c"
sweep_tar -xf "$T/gnu.tar" -C "$T/x-c" tree/regular
cmp "$T/x-c/tree/regular" "$T/src/tree/regular" || fail "-C: not extracted there"

# -k keeps what is there, with GNU's message and status
mkdir -p "$T/k-gnu/tree" "$T/k-sweep/tree"
printf 'mine\n' > "$T/k-gnu/tree/regular"
printf 'mine\n' > "$T/k-sweep/tree/regular"
compare_run -k "within k-gnu tar" "within k-sweep sweep_tar" -xkf "$T/gnu.tar" tree/regular ||
	fail "-k"
[ "$(cat "$T/k-sweep/tree/regular")" = mine ] || fail "-k replaced the file"

# sweep-tar's archives list the same under both programs
for fmt in gnu posix ustar; do
	case $fmt in ustar) src=$T/v7 ;; *) src=$T/src ;; esac
	sweep_tar -cf "$T/s-$fmt.tar" --format=$fmt -C "$src" tree
	same_output "-tv of sweep-tar's $fmt" --warning=no-unknown-keyword -tvf "$T/s-$fmt.tar"
done

# with --xattrs and --acls: the marks after the mode and the "x:" and "a:"
# lines (and no warning from GNU tar about libarchive's own records)
mkdir -p "$T/attrs/t"
add_xattrs "$T/attrs/t" || skip "extended attributes not supported on $T"
if command -v setfacl > /dev/null 2>&1; then
	printf 'acl\n' > "$T/attrs/t/acl-file"
	setfacl -m u:nobody:rw "$T/attrs/t/acl-file" 2> /dev/null
	mkdir "$T/attrs/t/acl-dir"
	setfacl -d -m u:nobody:rwx "$T/attrs/t/acl-dir" 2> /dev/null
fi
sweep_tar --xattrs --acls -cf "$T/attrs.tar" -C "$T/attrs" t
for v in -tvf -tvvf; do
	same_output "attributes $v" --xattrs --acls $v "$T/attrs.tar"
done

# a file that is not an archive
printf 'not an archive at all\n' > "$T/junk"
same_output "junk" -tf "$T/junk"
exit 0
