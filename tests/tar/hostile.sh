#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# hostile.sh: archives that try to write outside the directory they are
# extracted in are refused with a message, and nothing appears outside:
# a member "../x", an absolute member (its leading '/' removed, as GNU tar
# does, unless -P), and a symlink to outside followed by a file through it,
# also under the options that remove or keep what is there first, and a
# link from before that leads through one the archive made.
# The messages of the first two are GNU tar's, found by running it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/mk" "$T/outside" "$T/target"
printf 'evil\n' > "$T/mk/file"

# Hostile archives, made with GNU tar -P (which stores names as they are).
tar -cPf "$T/dotdot.tar" -C "$T/mk" --transform 's,^file,../escaped,' file
tar -cPf "$T/deep-dotdot.tar" -C "$T/mk" --transform 's,^file,a/../../escaped,' file
tar -cPf "$T/absolute.tar" -C "$T/mk" --transform "s,^file,$T/absolute-victim," file
ln -s "$T/outside" "$T/mk/abslink"
ln -s ../outside "$T/mk/rellink"
tar -cf "$T/symlink.tar" -C "$T/mk" abslink rellink
rm "$T/mk/abslink" "$T/mk/rellink"
mkdir "$T/mk/abslink" "$T/mk/rellink"
printf 'evil\n' > "$T/mk/abslink/x"
printf 'evil\n' > "$T/mk/rellink/y"
tar -rf "$T/symlink.tar" -C "$T/mk" abslink/x rellink/y

# extract PROG ARCHIVE: extract into a fresh $T/target.
extract() {
	rm -rf "$T/target"
	mkdir "$T/target"
	(cd "$T/target" && $1 -xf "$2")
}

nothing_outside() {
	[ -z "$(ls -A "$T/outside")" ] || fail "$1: wrote into $T/outside"
	[ ! -e "$T/escaped" ] || fail "$1: wrote $T/escaped"
	[ ! -e "$T/absolute-victim" ] || fail "$1: wrote $T/absolute-victim"
}

for a in dotdot deep-dotdot absolute; do
	compare_run -k "extract tar" "extract sweep_tar" "$T/$a.tar" || fail "$a"
	nothing_outside $a
done
# The absolute member landed inside, without its leading '/'.
[ -f "$T/target/${T#/}/absolute-victim" ] || fail "absolute member not extracted inside"

extract sweep_tar "$T/symlink.tar" 2> "$T/sweep_tar.err"
echo "status $?" >> "$T/sweep_tar.err"
nothing_outside symlink
grep -q 'status 2' "$T/sweep_tar.err" || fail "symlink: status is not 2"
grep -q '^sweep-tar: abslink/x: ' "$T/sweep_tar.err" || fail "symlink: no message on abslink/x"
grep -q '^sweep-tar: rellink/y: ' "$T/sweep_tar.err" || fail "symlink: no message on rellink/y"
[ -L "$T/target/abslink" ] && [ -L "$T/target/rellink" ] || fail "symlinks not extracted"

# -t lists hostile archives as GNU tar does (names made safe, same notes).
for a in dotdot absolute symlink; do
	compare_run -k tar sweep_tar -tvf "$T/$a.tar" || fail "-tvf $a"
done

# A hard link whose target climbs out ("../x", "a/../../x"): the climb
# removed and said, as GNU tar does, and the link made to the file inside
# (it was refused: "Member name contains '..'", 2)
if command -v python3 > /dev/null; then
	python3 -c "
import io, sys, tarfile
t = tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT)
i = tarfile.TarInfo('x'); d = b'data\\n'; i.size = len(d); t.addfile(i, io.BytesIO(d))
for name, target in (('hl', '../x'), ('d/hl2', 'a/../../x')):
    l = tarfile.TarInfo(name); l.type = tarfile.LNKTYPE; l.linkname = target; t.addfile(l)
t.close()" "$T/climb.tar" || fail "python3 could not make the archive"
	compare_run -k "extract tar" "extract sweep_tar" "$T/climb.tar" || fail "climbing hard links"
	nothing_outside "climbing hard links"
	[ "$(stat -c %h "$T/target/x")" = 3 ] || fail "climbing hard links: not linked inside"
	compare_run -k tar sweep_tar -tvf "$T/climb.tar" || fail "-tvf climbing hard links"
else
	echo "SKIP part: python3 makes the archive of climbing hard links" >&2
fi

# What is outside, under a link the archive made, is neither removed (-U,
# --recursive-unlink: a file, a directory with what it holds) nor taken
# for the member's file (-k, --skip-old-files, --keep-newer-files): the
# member is refused first (GNU tar, whose placeholder for such a link is a
# file, says "Not a directory"; it is refused all the same, exit 2)
for opt in -U --recursive-unlink -k --skip-old-files --keep-newer-files; do
	printf 'precious\n' > "$T/outside/x"
	mkdir -p "$T/outside/y" && printf 'precious\n' > "$T/outside/y/z"
	extract "sweep_tar $opt" "$T/symlink.tar" 2> "$T/err"
	st=$?
	[ "$(cat "$T/outside/x")" = precious ] && [ -f "$T/outside/y/z" ] ||
		fail "$opt: what was outside is gone or changed"
	[ $st = 2 ] && grep -q "abslink/x: Cannot extract through symlink" "$T/err" &&
		grep -q "rellink/y: Cannot extract through symlink" "$T/err" ||
		fail "$opt: status $st, $(cat "$T/err")"
	rm -rf "${T:?}/outside/x" "$T/outside/y"
done

# A directory named twice, then a link to outside in its place: the time
# and mode the second member gives the directory there, set at the end,
# never reach through that link (they did: a chmod and a utime of what is
# outside); GNU tar leaves it alone too, and both make the link
mkdir "$T/victim" "$T/mk2" "$T/mk2/d"
chmod 00755 "$T/victim"
touch -d '2001-01-01 00:00' "$T/victim"
victim_was=$(stat -c '%a %Y' "$T/victim")
tar -cf "$T/twice.tar" -C "$T/mk2" --no-recursion d
chmod 0700 "$T/mk2/d"
touch -d '2009-02-13 23:31' "$T/mk2/d"
tar -rf "$T/twice.tar" -C "$T/mk2" --no-recursion d
rmdir "$T/mk2/d"
ln -s "$T/victim" "$T/mk2/d"
tar -rf "$T/twice.tar" -C "$T/mk2" d
for prog in tar sweep_tar; do
	for opt in "" -p; do
		extract "$prog $opt" "$T/twice.tar" || fail "twice-named directory: $prog $opt failed"
		[ "$(stat -c '%a %Y' "$T/victim")" = "$victim_was" ] ||
			fail "twice-named directory: $prog $opt changed $T/victim"
		[ -L "$T/target/d" ] || fail "twice-named directory: $prog $opt made no link"
	done
done

# Members are selected by their names as stored: "/abs/x" names the member
# stored so, "abs/x" does not; a member left out says nothing of its '..'
# or leading '/' (a selective extraction that was whole exited 2)
if command -v python3 > /dev/null; then
	python3 -c "
import io, sys, tarfile
t = tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT)
for n in ('../evil1', '/abs/x', '//dbl', 'ok'):
    i = tarfile.TarInfo(n); i.size = 3; t.addfile(i, io.BytesIO(b'xx\\n'))
t.close()" "$T/mixed.tar" || fail "python3 could not make the archive"
	# (extract PROG ARCHIVE NAME: from inside $T/target)
	pick() { rm -rf "$T/target" && mkdir "$T/target" && (cd "$T/target" && $1 -xvf "$2" "$3"); }
	for name in ok /abs/x abs/x //dbl dbl ../evil1; do
		compare_run -k "pick tar" "pick sweep_tar" "$T/mixed.tar" "$name" ||
			fail "selecting $name"
		nothing_outside "selecting $name"
		compare_run -k tar sweep_tar -tf "$T/mixed.tar" "$name" || fail "-t $name"
	done
else
	echo "SKIP part: python3 makes the archive of names with '/' and '..'" >&2
fi

# A link from before that leads through one the archive made: the user's
# "pre -> made" (or merged-/usr's "lib -> usr/lib"), the archive's "made
# -> OUTSIDE" (or "usr -> OUTSIDE") then a member below the user's link.
# Nothing goes outside, its attributes neither, with or without -h or
# --keep-directory-symlink (sweep-tar wrote outside, exit 0); GNU tar's
# status (it holds the archive's link back as a placeholder file)
mkdir -p "$T/c1" "$T/c2/pre" "$T/u1" "$T/u2/lib"
ln -s "$T/outside" "$T/c1/made"
printf 'evil\n' > "$T/c2/pre/file"
chmod 700 "$T/c2/pre"
tar -cf "$T/chain.tar" -C "$T/c1" made -C ../c2 pre
tar -cf "$T/chain-file.tar" -C "$T/c1" made -C ../c2 pre/file
ln -s "$T/outside" "$T/u1/usr"
printf 'evil\n' > "$T/u2/lib/x"
tar -cf "$T/usr.tar" -C "$T/u1" usr -C ../u2 lib/x
# (extract_by PROG TARGET NAME ARCHIVE ARGS...: the link NAME -> TARGET
# made first in $T/target; the exit status printed)
extract_by() {
	_prog=$1 _to=$2 _name=$3 _archive=$4
	shift 4
	rm -rf "$T/target"
	mkdir "$T/target"
	(cd "$T/target" && ln -s "$_to" "$_name" && $_prog -xf "$_archive" "$@") > /dev/null 2>&1
	echo $?
}
outside_state() { stat -c '%a %Y' "$T/outside"; ls -A "$T/outside"; }
touch -d 2001-01-01 "$T/outside"
before=$(outside_state)
for args in "made pre chain.tar -h" "made pre chain.tar -h -p" "made pre chain.tar --keep-directory-symlink" \
	"made pre chain-file.tar" "made pre chain-file.tar -h" "usr/lib lib usr.tar" \
	"usr/lib lib usr.tar --keep-directory-symlink" "usr/lib lib usr.tar -h"; do
	# shellcheck disable=SC2086 # the words
	set -- $args
	to=$1 name=$2 archive=$T/$3
	shift 3
	want=$(extract_by tar "$to" "$name" "$archive" "$@")
	[ "$(outside_state)" = "$before" ] || fail "GNU tar went outside: $args"
	got=$(extract_by sweep_tar "$to" "$name" "$archive" "$@")
	echo "$args: status $got, GNU's $want" >&2
	[ "$(outside_state)" = "$before" ] || fail "through a link from before: $args: wrote outside"
	[ "$got" = "$want" ] || fail "through a link from before: $args: status $got, GNU's $want"
done

# With -P an absolute member goes where it says.
(cd "$T/target" && sweep_tar -xPf "$T/absolute.tar") || fail "-P extraction failed"
[ -f "$T/absolute-victim" ] || fail "-P did not extract to the absolute path"
exit 0
