#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# spdx.sh: every source file of the tree says its license in its first
# three lines (the project is BSD-2-Clause, LICENSE), so that a file taken
# out of it still says under what terms. Source files: C, shell, perl,
# make fragments, man pages, the build's inputs, and the scripts of bench/
# and .ci/; not generated files, test data or results.
. "$top_srcdir/tests/lib.sh"

cd "$top_srcdir" || fail "no source tree"
missing=$(
	{
		find lib src tests bench man doc -type f \( -name '*.[ch]' -o -name '*.sh' -o \
			-name '*.pl' -o -name '*.mk' -o -name '*.[13]' -o -name '*.md' \) \
			! -path 'tests/fuzz/seeds/*' ! -path 'bench/results/*/*' ! -name '*.mod.c'
		find bench .ci -maxdepth 1 -type f -perm -u+x
		echo configure.ac Makefile.am libsweep.pc.in README.md
	} | tr ' ' '\n' | sort -u | while IFS= read -r f; do
		[ -f "$f" ] || continue
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-2-Clause' || echo "$f"
	done
)
[ -z "$missing" ] || fail "no SPDX-License-Identifier line in: $(echo $missing)"
grep -q 'BSD 2-Clause License' LICENSE || fail "LICENSE is not the BSD 2-Clause license"
exit 0
