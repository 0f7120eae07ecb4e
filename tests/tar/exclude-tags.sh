#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# exclude-tags.sh: --exclude-caches, --exclude-caches-under,
# --exclude-caches-all, --exclude-tag[-under|-all]=FILE and
# --exclude-backups, beside GNU tar: the same members, the same -v notes
# ("contains a cache directory tag ...; contents not dumped"), in every
# order sweep-tar walks in. A CACHEDIR.TAG without the signature tags
# nothing; a symbolic link tags nothing but under -h, where it leads to a
# file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

d=$T/src/d
mkdir -p "$d/cache/sub" "$d/fake-cache" "$d/tagged/deeper" "$d/plain"
printf 'Signature: 8a477f597d28d172789f06886806bc55\n# made by a test\n' > "$d/cache/CACHEDIR.TAG"
printf 'not the signature\n' > "$d/fake-cache/CACHEDIR.TAG"
printf 'x\n' > "$d/cache/junk"
printf 'y\n' > "$d/cache/sub/z"
: > "$d/tagged/.nobackup"
printf 'q\n' > "$d/tagged/data"
printf 'r\n' > "$d/tagged/deeper/s"
printf 'p\n' > "$d/plain/p"
for f in 'a~' '#b#' '.#c' x.orig y.bak; do printf 'b\n' > "$d/plain/$f"; done

for sort in disk name none; do
	for opt in --exclude-caches --exclude-caches-under --exclude-caches-all \
		--exclude-tag=.nobackup --exclude-tag-under=.nobackup --exclude-tag-all=.nobackup \
		--exclude-backups; do
		compare_run gnu_tar "our_tar --sort=$sort" "$opt" -cv d || fail "$opt, --sort=$sort: output"
		tar -tf "$T/gnu.tar" | sort > "$T/want"
		tar -tf "$T/sweep.tar" | sort > "$T/got"
		check_same "$T/want" "$T/got" || fail "$opt, --sort=$sort: members"
	done
done
# a tag is a file that opens to be read, as GNU tar opens it: a symbolic
# link is no tag (with -h, one that leads to a file is; one that dangles
# never): its directory's files were left out, exit 0
l=$T/src/l
mkdir -p "$l/dangling" "$l/to-file" "$l/cache"
printf 'important\n' > "$l/dangling/data" && ln -s nowhere "$l/dangling/.nobackup"
printf 'd\n' > "$l/to-file/data" && ln -s data "$l/to-file/.nobackup"
printf 'Signature: 8a477f597d28d172789f06886806bc55\n' > "$l/real.tag"
ln -s ../real.tag "$l/cache/CACHEDIR.TAG" && printf 'junk\n' > "$l/cache/data"
for h in "" -h; do
	for opt in --exclude-tag=.nobackup --exclude-tag-under=.nobackup --exclude-tag-all=.nobackup \
		--exclude-caches --exclude-caches-all; do
		# shellcheck disable=SC2086 # no -h is none
		compare_run gnu_tar our_tar $h "$opt" -c l || fail "links as tags, $h $opt: output"
		tar -tf "$T/gnu.tar" | sort -u > "$T/want"
		tar -tf "$T/sweep.tar" | sort -u > "$T/got"
		check_same "$T/want" "$T/got" || fail "links as tags, $h $opt: members"
	done
done
exit 0
