#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# roundtrip.sh: trees archived by sweep-tar come back the same when GNU tar
# and bsdtar extract them, in every format and with every compressor:
# bytes, type, mode, owner, mtime, link structure, symlink targets, device
# numbers, and (pax) extended attributes, nanosecond times and holes.
#
# What a format cannot hold is left out of its tree, not skipped silently:
#   v7     names and link targets of at most 99 bytes, no fifos or devices
#          (libarchive's v7 writer refuses them);
#   ustar  names of at most 255 bytes split at a '/' (prefix 155, name 100),
#          link targets of at most 100 bytes;
#   gnu    everything but extended attributes and nanoseconds (GNU's format
#          has neither);
#   pax and posix: everything, with --xattrs and -S (and --acls, below). Names that are not
#          text in the locale carry hdrcharset=BINARY, a keyword GNU tar 1.34
#          does not know and warns about (--warning=no-unknown-keyword).
# Times before 1970 are checked in pax only: libarchive's gnu writer stores
# them as 0 (GNU tar itself would use base-256), ustar and v7 cannot.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd perl tar bsdtar getfattr setfattr gzip bzip2 xz zstd lzip lzop

root=no
[ "$(id -u)" = 0 ] && root=yes

# The magic number each compressor starts its output with (od -An -tx1).
magic() {
	case $1 in
	none) echo '' ;;
	gzip) echo '1f 8b' ;;
	bzip2) echo '42 5a 68' ;;
	xz) echo 'fd 37 7a 58 5a' ;;
	zstd) echo '28 b5 2f fd' ;;
	lzip) echo '4c 5a 49 50' ;;
	lzop) echo '89 4c 5a 4f' ;;
	esac
}

compress_flag() {
	case $1 in
	none) echo '' ;; gzip) echo -z ;; bzip2) echo -j ;; xz) echo -J ;; zstd) echo --zstd ;;
	lzip) echo --lzip ;; lzop) echo --lzop ;;
	esac
}

for level in full ustar v7; do
	mkdir -p "$T/src-$level/tree"
	make_tree "$T/src-$level/tree" "$level"
done
add_xattrs "$T/src-full/tree" || skip "extended attributes not supported on $T"
add_sparse "$T/src-full/tree"
touch -d '2001-02-03 04:05:06' "$T"/src-*/tree

# check FORMAT COMPRESSOR EXTRACTOR ARCHIVE
check() {
	fmt=$1 comp=$2 ex=$3 archive=$4
	case $fmt in gnu|pax|posix) level=full ;; *) level=$fmt ;; esac
	mopts=
	[ $root = yes ] || mopts=-o
	case $fmt in
	pax|posix) mopts="$mopts -n -s" ;;
	*) mopts="$mopts -x" ;;
	esac
	out=$T/out-$fmt-$comp-$ex
	mkdir "$out"
	case $ex in
	gnu) tar -xp --warning=no-timestamp --warning=no-unknown-keyword --xattrs \
		--xattrs-include='*' -f "$archive" -C "$out" ;;
	bsd) bsdtar -xp -f "$archive" -C "$out" ;;
	esac || fail "$ex tar could not extract the $fmt/$comp archive"
	manifest $mopts "$T/src-$level/tree" > "$T/want"
	manifest $mopts "$out/tree" > "$T/got"
	check_same "$T/want" "$T/got"
	rm -rf "$out"
}

for fmt in gnu pax posix ustar v7; do
	case $fmt in gnu|pax|posix) level=full ;; *) level=$fmt ;; esac
	extra=
	case $fmt in pax|posix) extra="--xattrs -S" ;; esac
	for comp in none gzip bzip2 xz zstd lzip lzop; do
		archive=$T/archive-$fmt-$comp
		# shellcheck disable=SC2046,SC2086
		sweep_tar -c $(compress_flag $comp) $extra --format=$fmt -f "$archive" \
			-C "$T/src-$level" tree 2> "$T/err" ||
			{ cat "$T/err" >&2; fail "sweep-tar -c --format=$fmt ($comp) failed"; }
		[ -s "$T/err" ] && { cat "$T/err" >&2; fail "sweep-tar -c --format=$fmt said something"; }
		head=$(od -An -tx1 -N5 "$archive" | sed 's/^ *//')
		case $head in
		"$(magic $comp)"*) ;;
		*) fail "$comp archive starts with $head" ;;
		esac
		for ex in gnu bsd; do
			check $fmt $comp $ex "$archive"
		done
		rm -f "$archive"
	done
done

# Times before 1970 (pax).
mkdir -p "$T/old/tree"
touch -d '1960-01-01 00:00:00.5 UTC' "$T/old/tree/before1970"
touch -d '1969-12-31 23:59:59 UTC' "$T/old/tree"
sweep_tar -cf "$T/old.tar" --format=pax -C "$T/old" tree
for ex in gnu bsd; do
	mkdir "$T/old-$ex"
	case $ex in
	gnu) tar --warning=no-timestamp -xpf "$T/old.tar" -C "$T/old-$ex" ;;
	bsd) bsdtar -xpf "$T/old.tar" -C "$T/old-$ex" ;;
	esac
	manifest -n "$T/old/tree" > "$T/want"
	manifest -n "$T/old-$ex/tree" > "$T/got"
	check_same "$T/want" "$T/got"
done

# POSIX ACLs (--acls: pax by default, as GNU tar switches to posix for them)
if command -v setfacl > /dev/null 2>&1 && command -v getfacl > /dev/null 2>&1 &&
	mkdir -p "$T/acl/tree/dir" && printf 'x\n' > "$T/acl/tree/file" &&
	setfacl -m u:nobody:rw,g:nogroup:r "$T/acl/tree/file" 2> /dev/null &&
	setfacl -d -m u:nobody:rwx "$T/acl/tree/dir" 2> /dev/null; then
	sweep_tar --acls -cf "$T/acl.tar" -C "$T/acl" tree || fail "--acls"
	(cd "$T/acl" && getfacl -R tree) > "$T/want"
	for ex in gnu bsd; do
		mkdir "$T/acl-$ex"
		case $ex in
		gnu) tar --acls -xf "$T/acl.tar" -C "$T/acl-$ex" ;;
		bsd) bsdtar -xpf "$T/acl.tar" -C "$T/acl-$ex" ;;
		esac
		(cd "$T/acl-$ex" && getfacl -R tree) > "$T/got"
		check_same "$T/want" "$T/got"
	done
else
	echo "ACLs not checked: no setfacl, or no ACL support on $T" >&2
fi

# Directories holding symbolic links that climb out ("../x", "/x"), after a
# file of theirs and one of another directory (the order of the inodes made
# here, and so of a walk of a warm tree): GNU tar makes such links last and
# bsdtar sets an existing directory's time at once, and neither may leave
# the directory with the time of the extraction.
mkdir -p "$T/climb/tree"
for i in 1 2 3 4 5 6 7 8; do
	d=$T/climb/tree/d$i e=$T/climb/tree/e$i
	mkdir "$d" "$e"
	printf 'x\n' > "$d/file"
	printf 'y\n' > "$e/file"
	ln -s "../e$i/file" "$d/up"
	ln -s /nonexistent "$d/abs"
done
find "$T/climb/tree" -type d -exec touch -d '2001-02-03 04:05:06' {} +
sweep_tar -cf "$T/climb.tar" -C "$T/climb" tree || fail "-c of links that climb out"
for ex in gnu bsd; do
	mkdir "$T/climb-$ex"
	case $ex in
	gnu) tar -xpf "$T/climb.tar" -C "$T/climb-$ex" ;;
	bsd) bsdtar -xpf "$T/climb.tar" -C "$T/climb-$ex" ;;
	esac || fail "$ex tar could not extract the links that climb out"
	manifest "$T/climb/tree" > "$T/want"
	manifest "$T/climb-$ex/tree" > "$T/got"
	check_same "$T/want" "$T/got"
done

# -a picks the compressor from the suffix, as GNU tar does.
for s in tar.gz:gzip tgz:gzip tar.bz2:bzip2 tar.xz:xz tar.zst:zstd tar.lz:lzip tar.lzo:lzop; do
	sweep_tar -caf "$T/auto.${s%%:*}" -C "$T/src-v7" tree || fail "-caf ${s%%:*}"
	head=$(od -An -tx1 -N5 "$T/auto.${s%%:*}" | sed 's/^ *//')
	case $head in "$(magic ${s#*:})"*) ;; *) fail "-a .${s%%:*} gave $head" ;; esac
done

# Uncompressed archives are padded to whole records like GNU tar's (-b).
sweep_tar -cf "$T/b20.tar" -C "$T/src-v7" tree
sweep_tar -b 1 -cf "$T/b1.tar" -C "$T/src-v7" tree
[ $(( $(stat -c %s "$T/b20.tar") % 10240 )) = 0 ] || fail "not padded to 10240 bytes"
[ $(( $(stat -c %s "$T/b1.tar") % 512 )) = 0 ] || fail "-b 1: not a multiple of 512"
[ "$(stat -c %s "$T/b1.tar")" -lt "$(stat -c %s "$T/b20.tar")" ] || fail "-b 1 padded like -b 20"
exit 0
