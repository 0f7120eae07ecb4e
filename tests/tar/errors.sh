#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# errors.sh: bad input and bad output give GNU tar's messages and exit
# status, found by running GNU tar on the same thing: a missing name (the
# rest still archived), unreadable files and directories, a file shrinking
# or growing while it is read, an output that cannot be opened (missing or
# unwritable directory), and a full device; --ignore-failed-read; a remote
# archive (HOST:FILE) refused; names that are no text in the locale.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

# run_both NAME CMD...: run "tar CMD" and "sweep-tar CMD" from $T/src; their
# output, messages and exit status must match. With SORTED=1 the messages
# are compared in any order: sweep-tar meets files in disk order, GNU tar
# in directory order.
run_both() {
	name=$1
	shift
	keep=-k
	[ "${SORTED:-0}" = 1 ] && keep=
	compare_run $keep "within src tar" "within src sweep_tar" "$@" || fail "$name"
}

mkdir -p "$T/src/dir/sub"
printf 'a\n' > "$T/src/dir/a"
printf 'b\n' > "$T/src/dir/sub/b"
printf 'c\n' > "$T/src/other"

# A missing name: exit 2, "Cannot stat", and the names around it archived.
run_both "missing name" -cf "$T/out.tar" dir missing other
sweep_tar -tf "$T/out.tar" | sort > "$T/got"
printf '%s\n' dir/ dir/a dir/sub/ dir/sub/b other > "$T/want"
check_same "$T/want" "$T/got"

# a missing name with a leading '/' or "../": the note first, as GNU tar
# gives it (it was not said at all)
run_both "missing absolute name" -cf "$T/out.tar" /nonexistent/name
run_both "missing name above" -cf "$T/out.tar" ../nonexistent
# a name that is no text in the locale: the cause said is the call's (it
# was EILSEQ, "Invalid or incomplete multibyte...", left by the quoting)
bad=$(printf 'x\377y')
(export LC_ALL=C.UTF-8; run_both "a missing archive, invalid UTF-8" -xf "$T/$bad.tar") ||
	fail "a missing archive, invalid UTF-8"
(export LC_ALL=C.UTF-8; run_both "a missing list, invalid UTF-8" -cf "$T/out.tar" -T "$T/$bad.lst") ||
	fail "a missing list, invalid UTF-8"

# a member name given twice, or covered by a name before it: the first
# takes the member, the other is "Not found in archive", 2 (it was 0)
(cd "$T/src" && tar -cf "$T/names.tar" dir other) || fail "GNU tar -c"
run_both "a name twice" -tf "$T/names.tar" other other
run_both "a name covered by one before" -tf "$T/names.tar" dir dir/a
run_both "a name before the one covering it" -tf "$T/names.tar" dir/a dir
run_both "a name twice, extracting" -xf "$T/names.tar" -O other other

# An output that cannot be opened, and a full device: fatal, exit 2.
run_both "output in a missing directory" -cf "$T/no/such/dir/out.tar" dir
[ -e /dev/full ] && run_both "full device" -cf /dev/full dir
# -f - to a full device too (the same error through standard output)
(cd "$T/src" && sweep_tar -cf - dir > /dev/full) 2> "$T/got"
echo "status $?" >> "$T/got"
printf 'sweep-tar: -: Cannot write: No space left on device\n%s\nstatus 2\n' \
	'sweep-tar: Error is not recoverable: exiting now' > "$T/want"
(cd "$T/src" && tar -cf - dir > /dev/full) 2>&1 | grep -q 'No space left' ||
	fail "GNU tar does not fail on /dev/full: the comparison above means nothing"
check_same "$T/want" "$T/got"

# A file that shrinks or grows while it is read. The archive goes into a
# pipe whose reader takes one block and then changes the file: the writer
# cannot have read more than the pipe holds (1 MiB at most) of a 32 MiB
# file, so the change always lands in the middle of the read. Shrinking
# pads with zeros, growing is noticed at the end, and so is a name added to
# a directory while its files are read; all exit 1.
change_while_reading() {
	prog=$1 how=$2
	rm -rf "$T/src/big" "$T/src/bigdir"
	mkdir "$T/src/bigdir"
	truncate -s 32M "$T/src/big"
	ln "$T/src/big" "$T/src/bigdir/big"
	what=big
	[ $how = dir ] && what=bigdir
	{ (cd "$T/src" && $prog -cf - $what) 2> "$T/$prog.err"; echo "status $?" >> "$T/$prog.err"; } |
		{
			dd bs=512 count=1 2> /dev/null
			case $how in
			shrink) truncate -s 0 "$T/src/big" ;;
			grow) head -c 65536 /dev/zero >> "$T/src/big" ;;
			dir) : > "$T/src/bigdir/new" ;;
			esac
			cat
		} > "$T/$prog.tar"
}
for how in shrink grow dir; do
	change_while_reading tar $how
	change_while_reading sweep_tar $how
	# The byte count depends on how far each got: compare the words.
	sed -e 's/^tar: /sweep-tar: /' -e 's/[0-9][0-9]* bytes/N bytes/' "$T/tar.err" > "$T/want"
	sed -e 's/[0-9][0-9]* bytes/N bytes/' "$T/sweep_tar.err" > "$T/got"
	check_same "$T/want" "$T/got"
	grep -q 'status 1' "$T/got" || fail "$how: status is not 1"
	# The member still has the size its header promised.
	[ "$(sweep_tar -tvf "$T/sweep_tar.tar" | awk '$6 ~ /big$/ {print $3}')" = 33554432 ] ||
		fail "$how: the member's size changed"
done
rm -rf "$T/src/big" "$T/src/bigdir"

# Unreadable file (with two names) and directory: "Cannot open: Permission
# denied" for each, exit 2, the rest archived. Root reads everything, so as root both tools run as
# nobody.
printf 'secret\n' > "$T/src/dir/locked-file"
# a second name: it must not become a link to a member that is not there
ln "$T/src/dir/locked-file" "$T/src/dir/locked-link"
mkdir "$T/src/dir/locked-dir"
printf 'x\n' > "$T/src/dir/locked-dir/x"
chmod 000 "$T/src/dir/locked-file" "$T/src/dir/locked-dir"
if [ "$(id -u)" = 0 ]; then
	unprivileged
	chmod 755 "$T"
	chmod -R a+rwX "$T/src" 2> /dev/null
	chmod 000 "$T/src/dir/locked-file" "$T/src/dir/locked-dir"
	chmod 777 "$T/src"
	as_nobody=$AS_USER
	PATH_SAVE=$PATH
	tar() { $as_nobody /usr/bin/env tar "$@"; }
	sweep_tar() { $as_nobody "$sweep_tools/sweep-tar" "$@"; }
	$as_nobody cat "$T/src/dir/locked-file" > /dev/null 2>&1 &&
		skip "nobody can read a mode 000 file here"
fi
# an output directory nobody (or this user) may not write in
mkdir "$T/ro"
chmod 555 "$T/ro"
run_both "unwritable output" -cf "$T/ro/out.tar" dir
SORTED=1 run_both "unreadable file and directory" -cf "$T/src/out.tar" dir other
# --ignore-failed-read: the same as warnings, exit 0
SORTED=1 run_both "--ignore-failed-read" --ignore-failed-read -cf "$T/src/out2.tar" dir missing
# the members are GNU's: the unreadable file and directory are left out
(cd "$T/src" && "$sweep_tools/sweep-tar" -tf out.tar) | sort > "$T/got"
(cd "$T/src" && tar -cf "$T/src/gnu.tar" dir other 2> /dev/null; /usr/bin/tar -tf gnu.tar) |
	sort > "$T/want"
check_same "$T/want" "$T/got"

# HOST:FILE is a remote archive to GNU tar, which sweep-tar cannot reach:
# refused, exit 2, nothing made (a local file of that name was written,
# exit 0: a backup meant for another machine stayed here); with
# --force-local (or a '/' before the colon) a local file, as GNU's; the
# options naming the remote commands are taken, as GNU's
for args in "-cf nohost.invalid:x.tar dir" "-tf nohost.invalid:x.tar" "-xf nohost.invalid:x.tar"; do
	# shellcheck disable=SC2086
	(cd "$T/src" && sweep_tar $args) 2> "$T/err"
	st=$?
	[ $st = 2 ] && grep -q "remote archives are not supported" "$T/err" ||
		fail "sweep-tar $args: status $st, $(cat "$T/err")"
	[ ! -e "$T/src/nohost.invalid:x.tar" ] || fail "sweep-tar $args: made a local file"
done
TAPE=nohost.invalid:x.tar compare_run "within src tar" "within src sweep_tar" \
	--force-local -cf nohost.invalid:x.tar dir || fail "--force-local"
[ -s "$T/src/nohost.invalid:x.tar" ] || fail "--force-local: no archive"
compare_run "within src tar" "within src sweep_tar" \
	--rsh-command=/bin/false --rmt-command=/bin/false -cf ./a:b.tar dir ||
	fail "--rsh-command, --rmt-command, a '/' before the colon"
exit 0
