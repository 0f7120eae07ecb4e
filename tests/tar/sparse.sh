#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sparse.sh: -S with --format=gnu. libarchive's gnu writer has no sparse
# members, so the archive was the file in full (100 MiB for a 100 MiB
# hole) with exit 0; now sweep-tar says it writes the posix format and
# does, and GNU tar extracts the same file, as sparse as from its own.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir "$T/src" "$T/gnu" "$T/sweep"
truncate -s 100M "$T/src/holey"
printf 'tail' >> "$T/src/holey"
printf 'head' > "$T/src/ends-in-hole" && truncate -s 50M "$T/src/ends-in-hole"
for format in gnu oldgnu; do
	(cd "$T/src" && tar -S --format=$format -cf "$T/gnu.tar" holey ends-in-hole) ||
		fail "GNU tar -S"
	(cd "$T/src" && sweep_tar -S --format=$format -cf "$T/sweep.tar" holey ends-in-hole) 2> "$T/err" ||
		fail "sweep-tar -S --format=$format: exit $?"
	grep -q 'sparse members are written in the posix format' "$T/err" ||
		fail "--format=$format: no word of the posix format"
	[ "$(stat -c %s "$T/sweep.tar")" -lt 1048576 ] ||
		fail "--format=$format: the holes were stored ($(stat -c %s "$T/sweep.tar") bytes)"
	rm -rf "$T/gnu"/* "$T/sweep"/*
	tar -xf "$T/gnu.tar" -C "$T/gnu"
	tar -xf "$T/sweep.tar" -C "$T/sweep"
	for f in holey ends-in-hole; do
		check_same "$T/src/$f" "$T/sweep/$f"
		[ "$(stat -c %s:%b "$T/gnu/$f")" = "$(stat -c %s:%b "$T/sweep/$f")" ] ||
			fail "$f: $(stat -c %s:%b "$T/sweep/$f") against GNU's $(stat -c %s:%b "$T/gnu/$f")"
	done
done
exit 0
