# SPDX-License-Identifier: BSD-2-Clause
# tests/tree.sh: builds the test tree shared by the du and find tests.
# Source it after tests/lib.sh; make_tree DIR [N] creates under DIR:
#   files of many sizes, sparse files, empty files and directories;
#   hard links inside a directory, across directories and across subtrees;
#   symbolic links to files and directories, dangling, self-looping, and
#   pointing back up the tree (a/b/c/loop: a loop under -L);
#   odd names: spaces, newline, tab, backslash, quotes, a leading dash,
#   glob characters, invalid UTF-8, a 255-byte name;
#   a path deeper than PATH_MAX;
#   a directory of more than 10,000 entries holding hard links (GNU du's
#   walk sorts such a directory by inode, which decides what it counts),
#   or of N entries where a check needs fresh trees but not that sort
#   (each entry is a file created: 10,050 of them cost a second here);
#   set-id and sticky modes, other owners and an owner without a name,
#   fifos, sockets and devices (devices and owners only as root);
#   modification times from the future back to years ago.
# AGE_REF is a file whose time the others are set relative to.

make_tree() {
	local t=$1 big=${2:-10050} i
	mkdir -p "$t" && cd "$t" || return 1
	mkdir -p a/b/c empty sub/deeper/deepest links odd times perms big
	printf x > a/one
	head -c 511 /dev/zero > a/b/s511
	head -c 512 /dev/zero > a/b/s512
	head -c 513 /dev/zero > a/b/s513
	head -c 4096 /dev/zero > a/b/c/s4096
	head -c 4097 /dev/zero > a/b/c/s4097
	head -c 1048577 /dev/zero > a/s1m
	: > a/zero
	truncate -s 10M a/sparse10m
	truncate -s 1G a/sparse1g && printf data | dd of=a/sparse1g bs=1 seek=500000000 conv=notrunc status=none
	printf 'hello\n' > sub/f
	printf 'world\n' > sub/deeper/g
	head -c 20000 /dev/zero > sub/deeper/deepest/h
	# hard links: same directory, other directories, another subtree
	ln sub/f sub/f.link
	ln sub/f a/b/f.link
	ln sub/deeper/deepest/h links/h1
	ln sub/deeper/deepest/h links/h2
	ln a/s1m links/s1m.link
	# symbolic links
	ln -s ../sub/f links/to-file
	ln -s ../sub links/to-dir
	ln -s nowhere links/dangling
	ln -s self links/self
	ln -s ../sub links/up
	ln -s ../.. a/b/c/loop
	ln -s ../a/b links/to-b
	ln -s to-file links/chain
	# odd names
	touch "odd/with space" "odd/$(printf 'new\nline')" "odd/$(printf 'tab\there')" \
	      'odd/back\slash' "odd/it's" 'odd/dq"uote' odd/-dash 'odd/star*' 'odd/q?m' \
	      'odd/[br]' "odd/$(printf 'bad\351utf8')" "odd/$(printf 'caf\303\251')" \
	      "odd/$(printf '%0255d' 0)" 'odd/.hidden' 'odd/UPPER.TXT' 'odd/lower.txt'
	mkdir "odd/dir with space" "odd/$(printf 'dir\nnl')"
	printf 'x' > "odd/dir with space/inside"
	# deeper than PATH_MAX (4096): 40 levels of 120-byte names
	local name deep=deep
	name=$(printf 'd%0119d' 0)
	# (two mkdir -p of 20 levels: each path within PATH_MAX, processes few)
	local half
	half=$(printf "$name/%.0s" $(seq 1 20))
	mkdir -p "deep/$half" && (cd "deep/$half" && mkdir -p "$half" && cd "$half" &&
		printf 'bottom\n' > bottom && ln bottom bottom.link)
	# a large directory with hard links into the rest of the tree
	(cd big && for i in $(seq 1 "$big"); do : > "e$i"; done)
	ln sub/deeper/g big/g.link
	ln a/b/s512 big/s512.link
	# two names of one file below the large directory: which one GNU du
	# counts depends on its order by inode, not on the names
	mkdir big/zz big/aa && printf 'hl\n' > big/zz/h && ln big/zz/h big/aa/h
	# modes and owners
	for m in 0644 0600 0755 4755 2755 0000 0444 0711 0640; do
		printf 'p' > perms/m$m; chmod $m perms/m$m
	done
	mkdir perms/sticky perms/d0700 perms/d0555 && chmod 1777 perms/sticky &&
		chmod 0700 perms/d0700 && chmod 0555 perms/d0555
	mkfifo odd/fifo
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' \
		odd/socket 2>/dev/null
	if [ "$(id -u)" = 0 ]; then
		mknod odd/null c 1 3 && mknod odd/blk b 7 200
		chown nobody perms/m0644 && chown 12345:23456 perms/m0600 &&
		chgrp nogroup perms/m0755 2>/dev/null
	fi
	# times, relative to now
	touch -d '-10 minutes' times/min10
	touch -d '-90 minutes' times/min90
	touch -d '-30 hours' times/h30
	touch -d '-3 days -5 hours' times/d3
	touch -d '-40 days' times/d40
	touch -d '-400 days' times/d400
	touch -d '+3 days' times/future
	touch -a -d '-5 days' times/min10
	touch -d '-2 days' times/ref
	touch -d '-200 days' odd/lower.txt
	cd - >/dev/null
}

# make_tree_in_scratch: cd to $T, make the tree "tree" there and, as root, a
# tmpfs mounted at tree/mnt (a mount point for -x/-xdev), undone on exit
# with the rest of $T. Sets mount_point (empty without one).
make_tree_in_scratch() {
	cd "$T" || fail "no scratch directory"
	mount_point=
	trap 'cleanup_tree_scratch' EXIT
	make_tree tree || fail "cannot build the test tree"
	if [ "$(id -u)" = 0 ] && mkdir tree/mnt &&
		mount -t tmpfs -o size=4m none tree/mnt 2>/dev/null; then
		mount_point=$T/tree/mnt
		mkdir tree/mnt/in && printf 'on tmpfs\n' > tree/mnt/in/f
	else
		echo "note: no mount point in the tree (needs root and tmpfs): -x is tested without one" >&2
	fi
}

cleanup_tree_scratch() {
	[ -n "$mount_point" ] && umount "$mount_point" 2>/dev/null
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T"
}
