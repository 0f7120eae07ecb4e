# SPDX-License-Identifier: BSD-2-Clause
# tests/cp/tree.sh: shared by the tests of sweep-cp. Source after
# tests/lib.sh; everything happens in $T:
#   cp_tree DIR       a tree with every file type: regular, empty, large,
#                     sparse, hard links, symbolic links (relative,
#                     absolute, dangling), a fifo, devices (as root), odd
#                     names (newline, invalid UTF-8, spaces, leading dash),
#                     user xattrs and ACLs where the file system has them,
#                     a read-only directory, odd modes and times
#   manifest DIR      each path's type, mode, owner, size, blocks (not when
#                     BLOCKS=no), mtime to the nanosecond (not when TIMES=no:
#                     a copy made without -p has the time it was made), link
#                     target and link count, sorted;
#                     then the hard-link groups, by inode within the tree
#   both NAME ARGS... run "cp ARGS" and "sweep-cp ARGS" in $T, where the
#                     word DST is GNU/dst and OUR/dst; their stdout and
#                     stderr (sorted: sweep-cp copies in disk order, not
#                     GNU's; -i's questions one a line), exit status and
#                     resulting trees must match; $OUR_ARGS are more
#                     words for sweep-cp alone (its own options); PREPARE
#                     and AFTER, if set, run in each side's directory before
#                     and after
command -v sweep-cp >/dev/null || fail "sweep-cp not built"

cp_tree() {
	d=$1
	mkdir -p "$d/sub/deeper" "$d/ro" "$d/empty-dir"
	printf 'hello\n' > "$d/file"
	: > "$d/empty"
	head -c 3000000 /dev/urandom > "$d/large"
	truncate -s 8M "$d/sparse"
	printf 'middle' | dd of="$d/sparse" bs=1 seek=3000000 conv=notrunc 2>/dev/null
	truncate -s 1M "$d/holes-only"
	printf 'linked\n' > "$d/sub/linked"
	ln "$d/sub/linked" "$d/link2"
	ln "$d/sub/linked" "$d/sub/deeper/link3"
	ln -s file "$d/rel-link"
	ln -s /etc/hostname "$d/abs-link"
	ln -s nowhere "$d/dangling"
	ln -s ../file "$d/sub/up-link"
	mkfifo "$d/fifo"
	printf 'nl\n' > "$d/new
line"
	printf 'bad\n' > "$d/bad-$(printf '\377\376')"
	printf 'sp\n' > "$d/with space"
	printf 'dash\n' > "$d/-dash"
	printf 'ro\n' > "$d/ro/inside"
	chmod 0640 "$d/file"
	chmod 0755 "$d/sub"
	chmod 4755 "$d/sub/linked"
	chmod 0555 "$d/ro"
	chmod 0700 "$d/empty-dir"
	if [ "$(id -u)" = 0 ]; then
		mknod "$d/chr" c 1 3
		mknod "$d/blk" b 7 250
		chown 1234:5678 "$d/file" "$d/sub"
		chown -h 4321:8765 "$d/rel-link"
	fi
	if command -v setfattr >/dev/null && setfattr -n user.test -v value "$d/file" 2>/dev/null; then
		setfattr -n user.dir -v dv "$d/sub"
	fi
	if command -v setfacl >/dev/null && setfacl -m u:nobody:r "$d/large" 2>/dev/null; then
		setfacl -d -m u:nobody:rx "$d/sub/deeper"
	fi
	touch -h -d '2001-02-03 04:05:06.123456789' "$d/file" "$d/rel-link" "$d/sub/deeper"
	touch -d '1999-12-31 23:59:59.5' "$d/ro" "$d/sub"
}

# allocated: the 512-byte blocks of a manifest line in 256 KiB units, which
# tell a hole from data, not how the file system placed the data (a file
# of many extents has an index block more: 8 blocks, under load)
allocated() {
	awk '{ if (match($0, /^[a-z] [0-7]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ /)) {
		split(substr($0, 1, RLENGTH), f, " ")
		$0 = f[1] " " f[2] " " f[3] " " f[4] " " f[5] " " int((f[6] + 511) / 512) " " \
		     substr($0, RLENGTH + 1)
	} print }'
}

manifest() {
	_blocks='%b ' _times='%T@ '
	[ "${BLOCKS:-}" = no ] && _blocks=
	[ "${TIMES:-}" = no ] && _times=
	(cd "$1" && find . -mindepth 1 -printf "%y %m %U %G %s $_blocks$_times%l %n %p\0" |
		sort -z | tr '\0' '\n' | if [ -n "$_blocks" ]; then allocated; else cat; fi
	 echo "-- links"
	 find . ! -type d -links +1 -printf '%i %p\0' | sort -z | tr '\0' '\n' |
		awk '{ i = $1; sub(/^[0-9]+ /, ""); g[i] = g[i] " " $0 } END { for (i in g) print g[i] }' |
		sort
	 echo "-- xattrs"
	 if command -v getfattr >/dev/null; then
		getfattr -R -h -d -m - . 2>/dev/null | grep -v '^security\.' || :
	 fi)
}

both() {
	name=$1
	echo "== $name" >&2
	shift
	rm -rf "$T/GNU" "$T/OUR"
	mkdir "$T/GNU" "$T/OUR"
	[ -n "${PREPARE:-}" ] && { (cd "$T/GNU" && eval "$PREPARE"); (cd "$T/OUR" && eval "$PREPARE"); }
	for side in GNU OUR; do
		prog=cp
		[ $side = OUR ] && prog="sweep-cp ${OUR_ARGS:-}"
		args=
		for a; do
			[ "$a" = DST ] && a=$side/dst
			shell_quote "$a"
			args="$args $quoted"
		done
		(cd "$T" && eval "${WRAP:-} $prog $args" < "${STDIN:-/dev/null}") > "$T/$side.out" 2> "$T/$side.err"
		echo "status $?" >> "$T/$side.out"
		sed "s/sweep-cp/cp/g; s/$side/X/g; s/? /?\\n/g" "$T/$side.err" | sort > "$T/$side.msgs"
		sed "s/$side/X/g" "$T/$side.out" | sort > "$T/$side.sorted"
	done
	[ -n "${AFTER:-}" ] && { (cd "$T/GNU" && eval "$AFTER"); (cd "$T/OUR" && eval "$AFTER"); }
	check_same "$T/GNU.sorted" "$T/OUR.sorted" || fail "$name: output"
	check_same "$T/GNU.msgs" "$T/OUR.msgs" || fail "$name: messages"
	if [ -z "${NO_TREE:-}" ]; then
		manifest "$T/GNU" > "$T/GNU.tree"
		manifest "$T/OUR" > "$T/OUR.tree"
		check_same "$T/GNU.tree" "$T/OUR.tree" || fail "$name: trees"
		if ! diff -r --no-dereference "$T/GNU" "$T/OUR" > "$T/diff" 2>&1 &&
		   grep -v 'is a fifo while\|is a character special file while\|is a block special file while' "$T/diff" >&2; then
			fail "$name: contents"
		fi
	fi
	:
}
