#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# special.sh: fifos and devices are made again with mknod, never opened:
# a fifo with no writer would hang a copy that opened it, and a device
# with no driver fails to open. The copy must match GNU cp's -a and -r,
# their ACLs and extended attributes too, and under -r their set-id and
# sticky bits (they were dropped). A socket named as an operand without
# -R: GNU's "cannot open ... for reading", exit 1 (it was made, exit 0).
# A copy into a pipe, a device or a fifo there: written in order, as GNU's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
need_cmd timeout
mkdir -p "$T/src"
mkfifo "$T/src/fifo"
mkfifo -m 0600 "$T/src/private-fifo"
mkfifo "$T/src/sticky-fifo" "$T/src/setuid-fifo"
chmod 1640 "$T/src/sticky-fifo"
chmod 4755 "$T/src/setuid-fifo"
if [ "$(id -u)" = 0 ]; then
	mknod "$T/src/nodriver" c 250 250   # open() fails: ENXIO
	mknod "$T/src/blk" b 250 1
	chmod 0604 "$T/src/blk"
fi
# (their ACLs and attributes go with -a, as GNU cp's: set through
# descriptors that do not open them)
if command -v setfacl > /dev/null && setfacl -m u:nobody:rw "$T/src/fifo" 2>/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		setfacl -m u:nobody:r "$T/src/blk"
		setfattr -n trusted.t -v 1 "$T/src/private-fifo"
	fi
else
	echo "SKIP part: no ACLs on this file system (setfacl)" >&2
fi
WRAP='timeout 20' both "-a" -a src DST
if python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock"; then
	both "a socket operand without -R" sock DST
	rm -f "$T/sock"
else
	echo "SKIP part: cannot make a socket (python3)" >&2
fi
WRAP='timeout 20' TIMES=no both "-r" -r src DST

# a file of /proc says it has no size, and copy_file_range(2) copies
# nothing from it on some kernels: its bytes are read, as GNU cp reads them
if [ -r /proc/version ]; then
	cp /proc/version "$T/gnu-version"
	sweep-cp /proc/version "$T/sweep-version" || fail "sweep-cp /proc/version"
	check_same "$T/gnu-version" "$T/sweep-version"
fi

# without -R a device is read as a file is (GNU cp): "cp /dev/null f"
# empties f, keeping its mode and inode (sweep-cp made f a device there);
# with -R it is made again
echo data > "$T/dest-f" && chmod 600 "$T/dest-f"
PREPARE='cp -p ../dest-f dst' TIMES=no both "/dev/null over a file" /dev/null DST
PREPARE='mkdir dst' TIMES=no both "/dev/null into a directory" /dev/null DST
both "-p /dev/null" -p /dev/null DST
TIMES=no both "-R /dev/null" -R /dev/null DST

# Into a file that is no regular file, not made again (no -R): its data
# written in order, holes as zeros (it was written with pwrite(): "Illegal
# seek" on a pipe, exit 1, nothing written; a sparse source into /dev/null
# "failed to extend", exit 1); into /dev/full, the write's error
seq 100000 > "$T/medium"
truncate -s 1M "$T/sparse" && printf 'end' >> "$T/sparse"
for prog in cp sweep-cp; do
	for opts in "" --sparse=always --sparse=never --reflink=auto; do
		for f in medium sparse; do
			# shellcheck disable=SC2086 # the options are words
			{ $prog $opts "$T/$f" /dev/stdout; echo "$opts $f: status $?" > "$T/st"; } \
				2> "$T/err" | cksum
			cat "$T/err" "$T/st"
			$prog $opts "$T/$f" /dev/null 2>&1
			echo "$opts $f into /dev/null: status $?"
			if [ -w /dev/full ]; then
				$prog $opts "$T/$f" /dev/full 2>&1
				echo "$opts $f into /dev/full: status $?"
			fi
			rm -f "$T/fifo-out" && mkfifo "$T/fifo-out"
			cat "$T/fifo-out" | cksum > "$T/fifo.sum" &
			timeout 20 $prog $opts "$T/$f" "$T/fifo-out" 2>&1
			echo "$opts $f into a fifo: status $?"
			wait
			cat "$T/fifo.sum"
		done
	done | sed 's/^sweep-cp:/cp:/' > "$T/$prog.stream"
done
check_same "$T/cp.stream" "$T/sweep-cp.stream" || fail "a copy into a pipe, a device, a fifo"
# --reflink=always into a fifo: the kernel's refusal, as GNU's
for prog in cp sweep-cp; do
	rm -f "$T/fifo-out" && mkfifo "$T/fifo-out"
	cat "$T/fifo-out" > /dev/null &
	{ timeout 20 $prog --reflink=always "$T/medium" "$T/fifo-out"; echo "status $?"; } 2>&1 |
		sed "s/^sweep-cp:/cp:/; s|$T|T|g" > "$T/clone.$prog"
	wait
done
check_same "$T/clone.cp" "$T/clone.sweep-cp" || fail "--reflink=always into a fifo"
