#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# options.sh: every option of sweep-cp --help that shapes a fresh copy,
# beside GNU cp with the same option on the same tree: the same tree (to
# the nanosecond where times are kept), -v's lines and exit status.
# --no-preserve=mode into a directory with a default ACL, under umask 077:
# the umask's modes and no ACL, as GNU's (the ACL's were kept).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
cp_tree "$T/src"
mkdir -p "$T/top/real"
printf 'r\n' > "$T/top/real/f"
ln -s real "$T/top/link"
ln -s top/real "$T/rootlink"
both "-a" -a src DST
both "--archive" --archive src DST
TIMES=no both "-d" -rd src DST
TIMES=no both "-P" -rP src DST
TIMES=no both "--no-dereference" -r --no-dereference src DST
TIMES=no both "-L" -rL top DST
TIMES=no both "--dereference" -r --dereference top DST
TIMES=no both "-H" -rH rootlink DST
both "-p" -rp src DST
both "--preserve" -r --preserve src DST
both "--preserve=links,timestamps" -r --preserve=links,timestamps src DST
TIMES=no both "--preserve=xattr" -r --preserve=xattr,mode src DST
both "--no-preserve=mode" -a --no-preserve=mode src DST
if command -v setfacl >/dev/null && setfacl -m u:nobody:r "$T/src" 2>/dev/null; then
	setfacl -b "$T/src"
	PREPARE='mkdir dst && setfacl -d -m u:nobody:rwx dst' WRAP='umask 077;' TIMES=no \
		both "--no-preserve=mode, a default ACL" -r --no-preserve=mode src DST
else
	echo "SKIP part: no ACLs here (setfacl)" >&2
fi
TIMES=no both "--no-preserve=timestamps,ownership" -a --no-preserve=timestamps,ownership src DST
# -s with the times: the link has the source's, as GNU cp gives them
both "-s --preserve=timestamps" -s --preserve=timestamps "$T/src/file" DST
both "-as" -as "$T/src/file" DST
# an empty word is GNU's "ambiguous argument", a usage error
for list in "" "mode,,links" ","; do
	NO_TREE=1 both "--preserve='$list'" -r --preserve="$list" src DST
	NO_TREE=1 both "--no-preserve='$list'" -r --no-preserve="$list" src DST
done
TIMES=no both "-v" -rv src DST
TIMES=no both "--verbose" -r --verbose src DST
TIMES=no both "-x" -rx src DST
TIMES=no both "--one-file-system" -r --one-file-system src DST
TIMES=no both "--sparse=always" -r --sparse=always src DST
TIMES=no both "--sparse=never" -r --sparse=never src DST
TIMES=no both "--sparse=auto" -r --sparse=auto src DST
TIMES=no both "--reflink=auto" -r --reflink=auto src DST
TIMES=no both "--reflink=never" -r --reflink=never src DST
NO_TREE=1 both "--reflink (always)" --reflink src/file DST
TIMES=no both "--attributes-only" -a --attributes-only src DST
# over a copy whose links, fifos and devices are files now: GNU makes no
# link or node where a file is ("File exists"); they were replaced
PREPARE='cp -a ../src dst && find dst ! -type d ! -type f | while read -r n; do rm -f "$n" && echo x > "$n"; done' \
	TIMES=no both "--attributes-only over files" -a --attributes-only -T src DST
TIMES=no both "-l" -rl src DST
TIMES=no both "--link" -r --link src DST
TIMES=no both "-s, relative: refused" -rs src DST
TIMES=no both "--symbolic-link" --symbolic-link "$T/src/file" DST
PREPARE='mkdir dst' TIMES=no both "-t" -rv -t DST src top
PREPARE='mkdir dst' TIMES=no both "--target-directory" -r --target-directory DST src/file src/sub
PREPARE='mkdir dst' TIMES=no both "-T" -rvT src DST
PREPARE='mkdir dst' TIMES=no both "--no-target-directory" -r --no-target-directory src DST
PREPARE='mkdir dst' TIMES=no both "--parents" -rv --parents src/sub/deeper top/real/f DST
# following links, one file met under two names is one inode in the copy,
# whatever its link count (it was copied twice)
both "-aL: a file through a link to its directory" -aL top DST
AFTER='touch -d 2001-01-01 dst' PREPARE='mkdir dst' both "-aH: one file named twice, one name" \
	-aH top/real/f top/link/f DST
# the directories --parents makes get their source's mode (less the umask;
# the source's own under -p), and under -a their times: private ones stay
# private (they were made 755)
mkdir -p "$T/pp/priv/sub"
printf 's\n' > "$T/pp/priv/sub/f"
chmod 700 "$T/pp/priv"
chmod 2750 "$T/pp/priv/sub"
touch -d '2020-01-02 03:04:05' "$T/pp" "$T/pp/priv" "$T/pp/priv/sub"
PREPARE='mkdir dst' TIMES=no both "--parents, private directories" --parents pp/priv/sub/f DST
PREPARE='mkdir dst' TIMES=no both "-r --parents" -r --parents pp/priv DST
# a source with a trailing slash is copied under its own name once (it
# was nested one level too deep: dst/pp/priv/priv)
for src in pp/priv/ pp/ pp/priv// pp/priv/sub/; do
	PREPARE='mkdir dst' TIMES=no both "-r --parents $src" -r --parents $src DST
done
# (DST's own time is when each made what it holds)
AFTER='touch -d 2001-01-01 dst' PREPARE='mkdir dst' both "-a --parents: modes and times" \
	-a --parents pp/priv/sub/f DST
AFTER='touch -d 2001-01-01 dst' PREPARE='mkdir dst' both "-p --parents" -p --parents pp/priv/sub/f DST
# one there already: given what -p, --preserve say, no more
for opts in -a --preserve=timestamps --parents; do
	AFTER='touch -d 2001-01-01 dst' PREPARE='mkdir -p dst/pp && chmod 711 dst/pp && touch -d 2011-01-01 dst/pp' \
		TIMES=$([ $opts = --parents ] && echo no) both "--parents, one there already, $opts" \
		$opts --parents pp/priv/sub/f DST
done
PREPARE='mkdir dst' TIMES=no both "--strip-trailing-slashes" -rv --strip-trailing-slashes src/sub/// DST
# to a new name nothing is stripped (GNU cp 9): "link/" is the directory
# (a link was made), "file/" not a directory (it was copied)
TIMES=no both "--strip-trailing-slashes, a link to a new name" -r --strip-trailing-slashes rootlink/ DST
TIMES=no both "--strip-trailing-slashes, a file to a new name" --strip-trailing-slashes src/file/ DST
PREPARE='mkdir dst' TIMES=no both "several sources" -r src/file src/sub src/fifo DST

# a directory made in a set-group-ID one keeps the bit it took there,
# unless the source's mode has special bits of its own (then it is set to
# that, -p); a source directory's sticky bit is kept under
# --no-preserve=mode too, and by --parents (sweep-cp cleared both)
mkdir -p "$T/sg/plain/sub" "$T/sg/sticky/in" "$T/sg/d7" "$T/sg/pp/q"
chmod 2750 "$T/sg/plain/sub" && chmod 1777 "$T/sg/sticky" "$T/sg/pp" && chmod 1700 "$T/sg/d7"
echo f > "$T/sg/d7/f" && chmod 4755 "$T/sg/d7/f" && touch "$T/sg/pp/q/f"
for opts in -a -r --preserve=mode "--no-preserve=mode -r" "-r --parents" "-a --parents"; do
	src="sg/plain sg/sticky sg/d7"
	case $opts in *--parents) src=sg/pp/q/f ;; esac
	# shellcheck disable=SC2086
	PREPARE='mkdir dst && chmod 2775 dst' TIMES=no both "a set-group-ID parent, $opts" $opts $src DST
done

# a source given twice to the same name: said ("specified more than once")
# and copied once, a directory whatever the backups, a file without them
# (sweep-cp refused the file, "will not overwrite just-created", and copied
# the directory again over what came between); a numbered backup keeps a
# copy just made, and the next goes on (it was refused)
mkdir -p "$T/dup/c" "$T/dup/e" "$T/dup/p/x" "$T/dup/q/x"
echo C > "$T/dup/c/x" && echo E > "$T/dup/e/x" && echo A > "$T/dup/p/x/f" && echo B > "$T/dup/q/x/f"
ln -s p/x "$T/dup/px" && ln "$T/dup/c/x" "$T/dup/c/hx"
for args in "dup/c/x ./dup/c/x" "-r dup/p/x dup/q/x dup/p/x" "--backup=numbered dup/c/x dup/e/x" \
	"--backup=simple dup/c/x dup/e/x" "-b dup/c/x dup/c/x" "-rb dup/p/x dup/p/x" \
	"-rL dup/p/x dup/p/x" "-rH dup/p/x dup/px" "dup/c/x dup/c/hx" "-r dup/p/x dup/p/x/" \
	"dup/c/x dup/e/x dup/e/x" "-r dup/p/x dup/q/x dup/q/x" "--parents dup/c/x ./dup/c/x"; do
	# shellcheck disable=SC2086
	PREPARE='mkdir dst' TIMES=no both "given twice: $args" $args DST
done

# -s with a relative source works wherever the copy's directory is the
# current one, however it is named ("." , "./g", "../d/h", its full path,
# -t .), as in GNU cp (sweep-cp refused all but a bare name); elsewhere
# it is refused
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	rm -rf "${T:?}/sl-$side" && mkdir -p "$T/sl-$side/a" "$T/sl-$side/d/sub" && echo A > "$T/sl-$side/a/f"
	(cd "$T/sl-$side/d" && for dst in . ./g ../d/h "$T/sl-$side/d/i" "-t ." sub/j; do
		# shellcheck disable=SC2086
		$prog -s ../a/f $dst > ../msg 2>&1
		echo "status $?"
		sed "s/sweep-cp/cp/; s/sl-$side/sl-X/" ../msg
	done; find . -printf '%p %y %l\n' | sort) > "$T/sl-$side.out"
done
check_same "$T/sl-GNU.out" "$T/sl-OUR.out" || fail "-s into the current directory"
