#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A directory removed while it is walked (here: the working directory,
# removed before the run) reads as empty, as glibc's readdir makes it for
# GNU du, find, tar and cp: the same output and exit status 0. libsweep
# took Linux's ENOENT for a read error ("cannot read directory", exit 1).
. "$top_srcdir/tests/lib.sh"
need_cmd du find tar cp

mkdir "$T/gone" "$T/copies"
cd "$T/gone" || fail "cannot enter $T/gone"
rmdir "$T/gone" || fail "cannot remove $T/gone"
compare_names 's/^du:/sweep-du:/'
compare_run du sweep-du
compare_run du sweep-du -a --inodes .
compare_names 's/^find:/sweep-find:/'
compare_run find sweep-find
compare_run find sweep-find . -printf '%p %y %d\n'
tar_list() { $1 -cf - . | tar -tvf -; }
gnu_tar() { tar_list tar; }
our_tar() { tar_list sweep-tar; }
compare_names 's/^tar:/sweep-tar:/'
compare_run gnu_tar our_tar
compare_names 's/^cp:/sweep-cp:/'
compare_run cp sweep-cp -r . "$T/copies/copy"
compare_check "sweep-cp made its copy" test -d "$T/copies/copy"
cd / || fail "cannot leave"
compare_summary deleted-dir
