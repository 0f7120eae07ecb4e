#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/notdir-link.sh: symbolic links whose target cannot be reached
# because the way to it passes through a file that is no directory (stat
# fails with ENOTDIR, "a/x" where a is a file), beside a dangling link
# (ENOENT), one that loops (ELOOP) and one to an unsearchable directory
# (EACCES, as an unprivileged user). GNU find treats the first like a
# dangling link: %Y prints N, and under -H or -L a reference file of
# -samefile or -newer that is such a link stands for itself. sweep-find must
# give the same output, messages and status, in every symlink mode.
. "$top_srcdir/tests/lib.sh"
need_cmd find
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"
cd "$T" || fail "no scratch directory"
mkdir -p t/dir t/locked && printf 'x\n' > t/file && touch t/locked/in
ln -s file/x t/notdir
ln -s nowhere t/dangling
ln -s loop t/loop
ln -s locked/in t/denied
ln -s dir t/todir

compare_names 's/^find:/sweep-find:/'
for L in -P -H -L; do
	compare_run find sweep-find $L t -printf '%p %y %Y\n'
	compare_run find sweep-find $L t/notdir t/dangling -printf '%p %y %Y\n'
	compare_run find sweep-find $L t -xtype l
	compare_run find sweep-find $L t -samefile t/notdir
	compare_run find sweep-find $L . -samefile t/notdir
	compare_run find sweep-find $L t -newer t/notdir
	compare_run find sweep-find $L t/notdir -samefile t/notdir
done

# EACCES on the way: %Y is '?' with a message, and the status stays 0
unprivileged
chmod 755 "$T" && chmod -R a+rX t && chmod 000 t/locked
# shellcheck disable=SC2206 # words without spaces, split on purpose
run=($AS_USER)
as_user() { "${run[@]}" "$@"; }
for L in -P -L; do
	compare_run "as_user find" "as_user $(command -v sweep-find)" $L t -printf '%p %y %Y\n'
	compare_run "as_user find" "as_user $(command -v sweep-find)" $L t -xtype l
done
compare_summary "find: links through a file"
