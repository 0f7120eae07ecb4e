#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# acls.sh: ACLs and extended attributes, beside GNU tar. --acls and
# --xattrs with a format that has no place for them (gnu, oldgnu, ustar,
# v7) are refused in GNU's words, exit 2, instead of dropped in silence;
# a directory's default ACL survives a round trip through sweep-tar, and an
# extraction over a directory that is already there, of sweep-tar's
# archives and of GNU tar's alike.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar setfacl getfacl

mkdir -p "$T/src/d/sub"
printf 'f\n' > "$T/src/d/f"
printf 'g\n' > "$T/src/d/sub/g"

for opt in --acls --xattrs; do
	for format in gnu oldgnu ustar v7; do
		compare_run -k gnu_tar our_tar $opt --format=$format -c d || fail "$opt --format=$format"
	done
done

setfacl -m u:nobody:r "$T/src/d" 2> /dev/null || skip "no ACLs on this file system"
setfacl -d -m u:nobody:rx "$T/src/d"
setfacl -d -m g:nogroup:r "$T/src/d/sub" 2> /dev/null || setfacl -d -m g:nobody:r "$T/src/d/sub"
setfacl -m u:nobody:rw "$T/src/d/f"
ln "$T/src/d/f" "$T/src/d/sub/hard"
(cd "$T/src" && tar --acls -cf "$T/gnu.tar" d) || fail "GNU tar --acls -c"
(cd "$T/src" && sweep_tar --acls -cf "$T/sweep.tar" d) || fail "sweep-tar --acls -c"
# extract PROG ARCHIVE BEFORE: into a fresh $T/PROG, holding d/sub first
# when BEFORE is "existing"; the ACLs of the result on standard output.
extract() {
	rm -rf "$T/$1" && mkdir "$T/$1"
	[ "$3" = existing ] && mkdir -p "$T/$1/d/sub"
	(cd "$T/$1" && $1 --acls -xf "$T/$2.tar") || fail "$1 --acls -x"
	(cd "$T/$1" && getfacl -R -p d)
}
# (a directory made before its parent's default ACL inherits nothing, as
# in the source; one made after inherits it: GNU tar decides which)
for archive in gnu sweep; do
	for before in fresh existing; do
		extract tar $archive $before > "$T/want"
		extract sweep_tar $archive $before > "$T/got"
		check_same "$T/want" "$T/got" || fail "$archive's archive, extracted $before"
		grep -q '^default:user:nobody:r-x' "$T/got" || fail "no default ACL"
	done
done
# an access ACL with a mask: the mode's group bits are the mask's,
# extracted without --acls as GNU tar has them (libarchive gave them the
# group:: entry's: 644 for a 664 file)
mkdir "$T/mask" && printf 'm\n' > "$T/mask/m" && chmod 644 "$T/mask/m"
setfacl -m u:nobody:rw "$T/mask/m"
(cd "$T/mask" && tar --acls -cf "$T/mask.tar" m) || fail "GNU tar --acls -c"
for opts in -x "--acls -x"; do
	rm -rf "$T/mg" "$T/ms" && mkdir "$T/mg" "$T/ms"
	# shellcheck disable=SC2086
	(cd "$T/mg" && tar $opts -f "$T/mask.tar") && (cd "$T/ms" && sweep_tar $opts -f "$T/mask.tar") ||
		fail "$opts of a mask"
	(cd "$T/mg" && stat -c %a m && getfacl -c m) > "$T/want"
	(cd "$T/ms" && stat -c %a m && getfacl -c m) > "$T/got"
	check_same "$T/want" "$T/got" || fail "$opts of a mask: the file"
done
exit 0
