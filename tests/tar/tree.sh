# SPDX-License-Identifier: BSD-2-Clause
# tests/tar/tree.sh: sourced by the tar tests (after tests/lib.sh).
#   make_tree DIR LEVEL  a tree of everything a tar archive can hold, as far
#                        as LEVEL allows: v7 (short names, no special
#                        files), ustar (names up to 255 bytes split at a
#                        '/'), full (long and deep names, fifos, devices
#                        as root)
#   add_xattrs DIR       user.* attributes on DIR/xattr-file and DIR/xattr-dir
#   add_sparse DIR       DIR/sparse: 2 MiB with two small data regions,
#                        DIR/holes-only: 1 MiB of hole
#   manifest ARGS DIR    tests/tar/manifest.pl
#   sweep_tar ARGS       the sweep-tar under test
#   within DIR CMD...    CMD run in $T/DIR
#   gnu_tar ARGS, our_tar ARGS  tar and sweep-tar in $T/src, writing or
#                        reading the archive $T/gnu.tar and $T/sweep.tar
#   extract_over WHAT ARGS...  $T/in.tar read by tar and sweep-tar with ARGS
#                        in copies ($T/g, $T/s) of the tree $T/$dest: the
#                        same messages and status (compare_run -k), and the
#                        same trees after, as tree_state DIR prints them
#                        (manifest -R unless the test defines it);
#                        $extract_start holds the second they began
# and it has compare_run (tests/lib.sh) read GNU tar's messages as naming
# sweep-tar.

sweep_tar() { "$sweep_tools/sweep-tar" "$@"; }
manifest() { perl "$top_srcdir/tests/tar/manifest.pl" "$@"; }
tree_state() { manifest -R "$1"; }
extract_over() {
	_what=$1
	shift
	rm -rf "$T/g" "$T/s"
	cp -a "$T/$dest" "$T/g"
	cp -a "$T/$dest" "$T/s"
	extract_start=$(date +%s)
	compare_run -k extract_gnu extract_our "$@" || fail "$_what"
	tree_state "$T/g" > "$T/want"
	tree_state "$T/s" > "$T/got"
	check_same "$T/want" "$T/got" || fail "$_what: files"
}
extract_gnu() { within g tar -f "$T/in.tar" "$@"; }
extract_our() { within s sweep_tar -f "$T/in.tar" "$@"; }
within() { (cd "$T/$1" && shift && "$@"); }
gnu_tar() { within src tar -f "$T/gnu.tar" "$@"; }
our_tar() { within src sweep_tar -f "$T/sweep.tar" "$@"; }
compare_names "s/^tar: /sweep-tar: /; s/'tar --/'sweep-tar --/g"

# n copies of character c
repeat() { printf "%$1s" '' | tr ' ' "$2"; }

make_tree() {
	d=$1 level=$2
	mkdir -p "$d/sub/inner" "$d/empty-dir"
	printf 'hello\n' > "$d/regular"
	: > "$d/empty"
	seq 1 300000 | head -c 1500000 > "$d/sub/large"
	printf 'linked\n' > "$d/sub/hard1"
	ln "$d/sub/hard1" "$d/hard2"
	ln "$d/sub/hard1" "$d/sub/inner/hard3"
	ln -s regular "$d/symlink"
	ln -s ../sub "$d/sub/inner/dirlink"
	ln -s /nonexistent/dangling "$d/dangling"
	printf 'nl\n' > "$d/new
line"
	printf 'bad\n' > "$d/$(printf 'inv\377alid\200utf8')"
	printf 'space\n' > "$d/with space"
	# odd modes
	# (mode 0000 only as root: anyone else could not read it back)
	if [ "$(id -u)" = 0 ]; then
		printf 'x\n' > "$d/mode0000" && chmod 0000 "$d/mode0000"
	else
		printf 'x\n' > "$d/mode0400" && chmod 0400 "$d/mode0400"
	fi
	printf 'x\n' > "$d/setuid" && chmod 4755 "$d/setuid"
	printf 'x\n' > "$d/setgid" && chmod 2710 "$d/setgid"
	printf 'x\n' > "$d/readonly" && chmod 0444 "$d/readonly"
	mkdir "$d/sticky" && chmod 1777 "$d/sticky"
	mkdir "$d/private" && chmod 0700 "$d/private"
	# odd owners: ids with no name, and named ones
	if [ "$(id -u)" = 0 ]; then
		printf 'o\n' > "$d/owner-numeric" && chown 1234:5678 "$d/owner-numeric"
		printf 'o\n' > "$d/owner-nobody" && chown nobody:nogroup "$d/owner-nobody"
	fi
	# odd times
	touch -d '@0' "$d/epoch"
	touch -d '@4102444800' "$d/year2100"
	touch -d '@1234567890.123456789' "$d/nanoseconds"
	case $level in v7) ;; *)
		mkfifo "$d/fifo"
		if [ "$(id -u)" = 0 ]; then
			mknod "$d/chardev" c 1 3
			mknod "$d/blockdev" b 7 200
		fi
		# a 200-byte path that ustar splits at a '/' (name and prefix fit)
		long=$(repeat 90 u)
		mkdir -p "$d/$long"
		printf 'ustar\n' > "$d/$long/$(repeat 90 v)"
		ln -s "$(repeat 99 t)" "$d/target99"
	esac
	case $level in full)
		printf 'long\n' > "$d/$(repeat 150 a)"
		printf 'longer\n' > "$d/$(repeat 255 b)"
		ln -s "$(repeat 200 c)" "$d/longtarget"
		ln "$d/$(repeat 150 a)" "$d/$(repeat 120 h)"
		deep=$d
		for i in $(seq 1 40); do deep=$deep/deep-directory-level-$i; done
		mkdir -p "$deep"
		printf 'deep\n' > "$deep/file"
	esac
	# directory times last, once their contents stopped changing
	touch -d '2001-02-03 04:05:06' "$d/sub/inner" "$d/empty-dir" "$d/sticky"
}

add_xattrs() {
	printf 'x\n' > "$1/xattr-file"
	mkdir "$1/xattr-dir"
	setfattr -n user.colour -v blue "$1/xattr-file" &&
	setfattr -n user.empty "$1/xattr-file" &&
	setfattr -n user.bin -v 0x00ff00 "$1/xattr-file" &&
	setfattr -n user.dir -v yes "$1/xattr-dir"
}

add_sparse() {
	truncate -s 2M "$1/sparse"
	printf 'begin' | dd of="$1/sparse" conv=notrunc status=none
	printf 'middle' | dd of="$1/sparse" bs=1 seek=1048576 conv=notrunc status=none
	truncate -s 1M "$1/holes-only"
}
