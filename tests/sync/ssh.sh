#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ssh.sh: sweep-sync over real ssh to 127.0.0.1 (an sshd of the test's own,
# tests/sync/sshd.sh), beside rsync over the same ssh: a push and a pull of
# the tree of every file type, a second run that transfers nothing, -z. It
# skips, saying why, where sshd cannot run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
. "$top_srcdir/tests/sync/sshd.sh"
sshd_start "$T/sshd" || skip "no ssh server of our own here"
trap 'sshd_stop; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
sync_tree "$T/src"
# the far end runs where the test runs: absolute paths; sshd gives it our PATH
both "ssh push -a" -ai -e "$SSH_RSH" src/ "127.0.0.1:$T/DST"
KEEP=1 both "ssh push, again" -ai --stats -e "$SSH_RSH" src/ "127.0.0.1:$T/DST"
grep -q 'transferred: 0$' "$T/O.out" || fail "ssh push, again: something was transferred"
both "ssh pull -az" -aiz -e "$SSH_RSH" "127.0.0.1:$T/src/" DST
exit 0
