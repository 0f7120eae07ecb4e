#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# extract-opts.sh: options of GNU tar's backup scripts, beside GNU tar:
# --to-command (GNU's TAR_* variables, a command that fails, that dies, that
# reads nothing; SIGPIPE as it was after the command), --one-top-level[=DIR] (the name deduced from the
# archive's, refused with -P or when there is none), --index-file (-v and
# -t there), -V/--label (the volume header GNU writes, in gnu and posix
# format, listed and matched, from a file or a pipe), --hard-dereference, --xattrs-include and
# --xattrs-exclude, --atime-preserve, --selinux and --no-selinux (SELinux
# off): the same output, messages, status, trees and
# archive bytes where GNU's are fixed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
mkdir -p "$src/d/sub"
printf 'alpha\n' > "$src/d/a"
printf 'bravo\n' > "$src/d/sub/b"
printf 'linked\n' > "$src/d/h1"
ln "$src/d/h1" "$src/d/h2"
ln -s a "$src/d/link"
seq 1 100000 > "$src/d/big"
find "$src" -exec touch -h -d '2020-01-01 00:00:00 UTC' {} +
(cd "$src" && tar -cf "$T/d.tar" d && tar --posix -cf "$T/pax.tar" d) || fail "GNU tar -c"
cp "$T/d.tar" "$T/backup.tar.gz"
cp "$T/d.tar" "$T/noext"

gnu_x() { within x-gnu tar "$@"; }
our_x() { within x-our sweep_tar "$@"; }
# same WHAT ARGS: both tars in empty directories of their own: the same
# output, messages (the command's pid as PID), status and trees.
same() {
	_what=$1
	shift
	rm -rf "$T/x-gnu" "$T/x-our"
	mkdir "$T/x-gnu" "$T/x-our"
	compare_run -k -e 's/^\([a-z-]*: \)[0-9]*:/\1PID:/' gnu_x our_x "$@" || fail "$_what"
	# (a directory no member made, such as --one-top-level's, has the
	# time of its run)
	manifest -R "$T/x-gnu" | awk '$2 == "d" && $6 != 1577836800 { $6 = "now" } { print }' > "$T/want"
	manifest -R "$T/x-our" | awk '$2 == "d" && $6 != 1577836800 { $6 = "now" } { print }' > "$T/got"
	check_same "$T/want" "$T/got"
}

# --to-command: TAR_ATIME and TAR_CTIME are the run's start in a gnu archive
env_cmd='env | grep ^TAR_ | grep -v -e ^TAR_ATIME= -e ^TAR_CTIME= | sort; echo ---; cat; echo ==='
same "--to-command" -xf "$T/d.tar" --to-command="$env_cmd"
same "--to-command, pax" -xf "$T/pax.tar" --to-command='env | grep ^TAR_ | sort; cat'
same "--to-command -v" -xvf "$T/d.tar" --to-command='wc -c'
same "--to-command, strip" -xf "$T/d.tar" --strip-components=1 --to-command='echo $TAR_FILENAME $TAR_REALNAME'
same "--to-command, failing" -xf "$T/d.tar" --to-command='exit 3'
same "--to-command, --ignore-command-error" -xf "$T/d.tar" --ignore-command-error --to-command='exit 3'
same "--to-command, dying" -xf "$T/d.tar" --to-command='kill -9 $$'
same "--to-command, reading nothing" -xf "$T/d.tar" --to-command=true
same "--to-command, names" -xf "$T/d.tar" --to-command=cat d/a d/sub
same "--to-command on -t" -tf "$T/d.tar" --to-command=cat
# SIGPIPE is ignored while a command runs, and then as it was: -v's lines
# written after the reader of the listing has gone kill the run, as GNU's
mkdir "$T/many"
for i in $(seq 1 300); do printf '%s\n' $i > "$T/many/member-with-a-long-enough-name-$i"; done
(cd "$T" && tar -cf "$T/many.tar" many) || fail "GNU tar -c"
# gone_reader TAR: TAR -xv with a command, its listing read by head -c 1;
# its messages and then its status on standard error
gone_reader() {
	sh -c '"$@"; echo "status $?" >&2' sh "$@" -xvf "$T/many.tar" --to-command=true |
		head -c 1 > /dev/null
}
gnu_gone() { gone_reader tar; }
our_gone() { gone_reader "$sweep_tools/sweep-tar"; }
compare_run -k gnu_gone our_gone || fail "--to-command -v, the listing's reader gone"

# --one-top-level
same "--one-top-level" -xf "$T/d.tar" --one-top-level
same "--one-top-level, .tar.gz" -xf "$T/backup.tar.gz" --one-top-level
same "--one-top-level, nothing to strip" -xf "$T/noext" --one-top-level
same "--one-top-level=DIR" -xf "$T/d.tar" --one-top-level=top
same "--one-top-level=d" -xf "$T/d.tar" --one-top-level=d
same "--one-top-level -P" -xf "$T/d.tar" --one-top-level -P
same "--one-top-level, -t" -tf "$T/d.tar" --one-top-level=top
# members stripped to nothing: still listed (-t, -v), and under
# --one-top-level the top directory itself (they were left out)
same "-tv, stripped to nothing" -tvf "$T/d.tar" --strip-components=1
same "--one-top-level -v, stripped" -xvf "$T/d.tar" --one-top-level --strip-components=1

# --index-file: what -v and -t print goes there
for op in "-cvf $T/idx.tar d" "-tvf $T/d.tar" "-xvf $T/d.tar"; do
	(cd "$src" && tar $op --index-file="$T/index-gnu") || fail "tar $op --index-file"
	out=$(cd "$src" && sweep_tar $op --index-file="$T/index-our") || fail "sweep-tar $op --index-file"
	[ -z "$out" ] || fail "$op --index-file: output on stdout"
	sort "$T/index-gnu" > "$T/want"
	sort "$T/index-our" > "$T/got"
	check_same "$T/want" "$T/got"
done
same "--index-file, cannot open" -tf "$T/d.tar" --index-file=/nonexistent/index

# -V: GNU's volume header; its time is the run's, so it is compared apart
gnu_c() { within src tar "$@"; }
our_c() { within src sweep_tar "$@"; }
# no_time FILE: the label block's time and checksum blanked
no_time() { perl -0777 -pe 'substr($_, 136, 20) = "x" x 20' "$1"; }
for fmt in gnu posix; do
	compare_run -k gnu_c our_c -cvf "$T/gnu-v.tar" -V 'Backup 1' -H $fmt d/a ||
		fail "-V -H $fmt"
	rm -f "$T/gnu-v.tar"
	(cd "$src" && tar -cf "$T/gnu-v.tar" -V 'Backup 1' -H $fmt d/a &&
	 sweep_tar -cf "$T/our-v.tar" -V 'Backup 1' -H $fmt d/a) || fail "-V -H $fmt"
	if [ $fmt = gnu ]; then
		no_time "$T/gnu-v.tar" > "$T/want"
		no_time "$T/our-v.tar" > "$T/got"
		check_same "$T/want" "$T/got"
	fi
	for tarball in "$T/gnu-v.tar" "$T/our-v.tar"; do
		same "-tv -V, $fmt" -tvf "$tarball" -V 'Backup*'
		same "-t, another label" -tf "$tarball" -V 'Other'
		same "-x -V" -xf "$tarball" -V 'Backup 1'
		same "-xv" -xvf "$tarball"
		# from a pipe: the label read from what the reader is given
		gnu_x() { cat "$tarball" | within x-gnu tar "$@"; }
		our_x() { cat "$tarball" | within x-our sweep_tar "$@"; }
		same "-tv, a pipe" -tvf -
		same "-tv -V, a pipe" -tvf - -V 'Backup*'
		same "-t, another label, a pipe" -tf - -V 'Other'
		same "-xv -V, a pipe" -xvf - -V 'Backup 1'
		gnu_x() { gzip -c "$tarball" | within x-gnu tar "$@"; }
		our_x() { gzip -c "$tarball" | within x-our sweep_tar "$@"; }
		same "-tvz -V, a pipe" -tvzf - -V 'Backup*'
		gnu_x() { within x-gnu tar "$@"; }
		our_x() { within x-our sweep_tar "$@"; }
		same "-tv, a file" -tvf "$tarball"
	done
done
same "-t -V, no label" -tf "$T/d.tar" -V 'Backup*'
long=$(repeat 100 x)
compare_run gnu_c our_c -cf "$T/v.tar" -V "$long" d/a || fail "-V too long"

# --hard-dereference: each name its own data
(cd "$src" && tar -cf "$T/gnu-h.tar" --hard-dereference d/h1 d/h2 &&
 sweep_tar -cf "$T/our-h.tar" --hard-dereference d/h1 d/h2) || fail "--hard-dereference"
cmp -s "$T/gnu-h.tar" "$T/our-h.tar" || fail "--hard-dereference: archives differ"
same "--hard-dereference, extracted" -xf "$T/our-h.tar"

# --xattrs-include and --xattrs-exclude, on create, extract and list
if setfattr -n user.test -v x "$src/d/a" 2> /dev/null; then
	setfattr -n user.colour -v blue "$src/d/sub/b"
	setfattr -n user.size -v big "$src/d/sub/b"
	touch -d '2020-01-01 00:00:00 UTC' "$src/d/a" "$src/d/sub/b"
	for opt in --xattrs "--xattrs-include=user.c*" "--xattrs-exclude=user.c*"; do
		(cd "$src" && tar -cf "$T/gnu-x.tar" "$opt" d/sub/b &&
		 sweep_tar -cf "$T/our-x.tar" "$opt" d/sub/b) || fail "$opt"
		for tarball in "$T/gnu-x.tar" "$T/our-x.tar"; do
			tar --xattrs -tvvvf "$tarball" > "$T/want"
			sweep_tar --xattrs -tvvvf "$T/gnu-x.tar" > /dev/null || fail "$opt -t"
		done
		tar --xattrs -tvvvf "$T/gnu-x.tar" | grep '^  x:' | sort > "$T/want"
		tar --xattrs -tvvvf "$T/our-x.tar" | grep '^  x:' | sort > "$T/got"
		check_same "$T/want" "$T/got"
		same "$opt, listed" --xattrs -tvvvf "$T/gnu-x.tar" "--xattrs-exclude=user.s*"
	done
	(cd "$src" && tar --xattrs -cf "$T/x.tar" d/sub/b) || fail "--xattrs"
	for opt in --xattrs "--xattrs-include=user.s*" "--xattrs-exclude=user.s*"; do
		for side in gnu our; do
			rm -rf "$T/xa-$side" && mkdir "$T/xa-$side"
		done
		tar -xf "$T/x.tar" "$opt" -C "$T/xa-gnu" && sweep_tar -xf "$T/x.tar" "$opt" -C "$T/xa-our" ||
			fail "-x $opt"
		(cd "$T/xa-gnu" && getfattr -d -m- d/sub/b) > "$T/want"
		(cd "$T/xa-our" && getfattr -d -m- d/sub/b) > "$T/got"
		check_same "$T/want" "$T/got"
	done
fi

# --atime-preserve: the access times of what was read stay as they were
mkdir -p "$T/at/sub" && printf 'read me\n' > "$T/at/sub/f"
for how in "" =replace =system; do
	touch -a -d '2001-01-01 UTC' "$T/at" "$T/at/sub" "$T/at/sub/f"
	sweep_tar -cf "$T/at.tar" -C "$T" --atime-preserve$how at || fail "--atime-preserve$how"
	stat -c '%X %n' "$T/at" "$T/at/sub" "$T/at/sub/f" | grep -v '^978307200 ' &&
		fail "--atime-preserve$how: an access time moved"
done
compare_run gnu_c our_c -cf "$T/at.tar" --atime-preserve=bogus d || fail "--atime-preserve=bogus"

# --selinux with SELinux off: the posix format, no context; refused with gnu
(cd "$src" && tar -cf "$T/gnu-s.tar" --selinux --mtime=@0 d/a) || fail "tar --selinux"
(cd "$src" && sweep_tar -cf "$T/our-s.tar" --selinux --mtime=@0 d/a) || fail "sweep-tar --selinux"
tar -tvf "$T/gnu-s.tar" > "$T/want"
tar -tvf "$T/our-s.tar" > "$T/got"
check_same "$T/want" "$T/got"
compare_run gnu_c our_c -cf "$T/s.tar" --selinux -H gnu d/a || fail "--selinux -H gnu"
compare_run gnu_c our_c -cf "$T/s.tar" -H gnu --selinux --no-selinux d/a || fail "--no-selinux"
same "--selinux -tvvv" --selinux -tvvvf "$T/d.tar"
same "--selinux -x" --selinux -xf "$T/d.tar"
exit 0
