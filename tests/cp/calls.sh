#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# calls.sh: what sweep-cp -a asks of the kernel for each file, where a
# call a file is a second's worth on a tree of 100,000 files (seen with
# strace -c: 1.65 million calls, now 1.46): under --reflink=auto (the
# default) a file system that cannot clone (EOPNOTSUPP) is asked once by
# each of the two threads that copy, not for every file; a new file whose
# directory gives it no ACL has none to take off (one flistxattr, no
# fremovexattr), while one that inherits a default ACL the source file
# lacks loses it, as with GNU cp -a.
. "$top_srcdir/tests/lib.sh"
need_cmd strace
mkdir -p "$T/src/sub"
i=0
while [ $i -lt 20 ]; do
	echo "$i" > "$T/src/f$i"
	echo "$i" > "$T/src/sub/g$i"
	i=$((i + 1))
done
cd "$T" || fail "no scratch directory"

# (LeakSanitizer cannot run under ptrace: off for the traced run)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=ioctl,fremovexattr -o trace sweep-cp -a src dst 2> err ||
	fail "sweep-cp -a: $(head -3 err)"
diff -r src dst >/dev/null || fail "the copy differs"
clones=$(grep -c FICLONE trace)
if grep -q 'FICLONE.*EOPNOTSUPP' trace; then
	# once by each thread that copies data: the walk's and the writer's may
	# both ask before either has heard no (not once for each of 40 files)
	[ "$clones" -le 2 ] || fail "a file system that cannot clone asked $clones times"
else
	echo "not checked (the file system here clones, or was not asked): FICLONE asked once"
fi
if grep -q fremovexattr trace; then
	grep fremovexattr trace | head -3 >&2
	fail "ACLs taken off new files that had none"
fi

# a destination directory whose default ACL the new files inherit
if command -v setfacl >/dev/null && mkdir inherit && setfacl -d -m u:nobody:rx inherit 2>/dev/null; then
	sweep-cp -a src/f1 inherit/ || fail "sweep-cp -a into a directory with a default ACL"
	mkdir gnu && setfacl -d -m u:nobody:rx gnu && cp -a src/f1 gnu/ || fail "cp -a"
	[ "$(getfacl -cp inherit/f1 2>/dev/null)" = "$(getfacl -cp gnu/f1 2>/dev/null)" ] ||
		fail "inherited ACL: $(getfacl -cp inherit/f1 | tr '\n' ' ')"
	getfacl -cp inherit/f1 2>/dev/null | grep -q nobody && fail "the inherited ACL was kept"
else
	echo "not checked (no ACLs here): an inherited ACL taken off"
fi
exit 0
