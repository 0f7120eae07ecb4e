#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# enomem.sh: the kernel answers ENOMEM for one file or one directory (a
# FUSE file system may, for a single name). That is the failure of that
# name, not the end of the walk: GNU tar, du, find and cp name it and go
# on, and so must ours (libsweep's SWEEP_OP_NOMEM, which stops the tools,
# is for the library's own memory only). The refusal comes from an
# LD_PRELOAD shim (enomem-shim.c) put into GNU's tools and ours alike.
. "$top_srcdir/tests/lib.sh"
need_cmd tar du find cp "${CC:-cc}"

build_shim tests/faults/enomem-shim.c

mkdir -p "$T/src/dir/baddir/below" "$T/src/dir/other"
head -c 20000 /dev/urandom > "$T/src/dir/badfile"
printf 'below\n' > "$T/src/dir/baddir/below/f"
printf 'good\n' > "$T/src/dir/other/good"
printf 'top\n' > "$T/src/top"

# run NAME PROG ARGS...: PROG ARGS in $T/src under the shim, refusing to
# open names ending in $ENOMEM_OPEN; output in NAME.out, messages (with
# the program's name cut off) and status in NAME.err.
run() {
	name=$1 prog=$2
	shift 2
	(cd "$T/src" && LD_PRELOAD="$T/enomem-shim.so" "$prog" "$@") > "$T/$name.out" 2> "$T/$name.raw"
	status=$?
	sed 's/^[a-z-]*: //' "$T/$name.raw" | sort > "$T/$name.err"
	echo "status $status" >> "$T/$name.err"
}

# same TOOL WHAT: GNU's TOOL and ours said the same and ended the same.
same() {
	check_same "$T/gnu-$1.err" "$T/our-$1.err" || fail "$2"
}

for refuse in badfile baddir; do
	export ENOMEM_OPEN=src/dir/$refuse
	run gnu-tar tar -cf "$T/gnu.tar" dir top
	run our-tar "$sweep_tools/sweep-tar" -cf "$T/our.tar" dir top
	run gnu-du du -a dir top
	run our-du "$sweep_tools/sweep-du" -a dir top
	run gnu-find find dir top
	run our-find "$sweep_tools/sweep-find" dir top
	# GNU cp opens directories with opendir(), which the shim cannot
	# reach: only the file's refusal compares
	rm -rf "$T/gnu-cp" "$T/our-cp"
	if [ $refuse = badfile ]; then
		run gnu-cp cp -a dir "$T/gnu-cp"
		run our-cp "$sweep_tools/sweep-cp" -a dir "$T/our-cp"
	fi
	unset ENOMEM_OPEN
	sed -i "s|$T/our|$T/gnu|g" "$T/our-tar.err" "$T/our-cp.err"

	same tar "tar -c, $refuse refused"
	tar -tf "$T/gnu.tar" | sort > "$T/want"
	tar -tf "$T/our.tar" | sort > "$T/got"
	check_same "$T/want" "$T/got"
	grep -qx top "$T/got" || fail "tar -c stopped at $refuse"

	same du "du -a, $refuse refused"
	sort "$T/gnu-du.out" > "$T/want" && sort "$T/our-du.out" > "$T/got"
	check_same "$T/want" "$T/got"

	same find "find, $refuse refused"
	sort "$T/gnu-find.out" > "$T/want" && sort "$T/our-find.out" > "$T/got"
	check_same "$T/want" "$T/got"

	[ $refuse = badfile ] || continue
	same cp "cp -a, $refuse refused"
	(cd "$T/gnu-cp" && find . | sort) > "$T/want"
	(cd "$T/our-cp" && find . | sort) > "$T/got"
	check_same "$T/want" "$T/got"
	cmp -s "$T/src/dir/other/good" "$T/our-cp/other/good" || fail "cp -a stopped at $refuse"
done
exit 0
