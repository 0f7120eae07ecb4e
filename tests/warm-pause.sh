#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# warm-pause.sh: libsweep's helper threads step aside where they find
# nothing to read (as root, on an ext4 image in a loop device with direct
# I/O, so that its misses reach this machine's disk; skipped otherwise).
# The tree has two parts of chains of small directories, a/ and b/; the
# file system is mounted anew (its cache dropped, nothing else's) and b/
# walked once, so that b/ is in the cache and a/ is not. A walk of a/ then
# b/ (two roots, one after the other) starts the threads on a/ and must
# leave them without work on b/ (walk-dump -s: warm_pauses), handing out
# every entry; a walk of the tree all cold must not. (One root holding
# both would not do: in inode order the chains' ends advance in turns, and
# a/'s reads come between b/'s all along.)
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup mount mkfs.ext4 find

m=$T/mnt
mkdir "$m"
trap 'umount "$m" 2>/dev/null; [ -n "${loop:-}" ] && losetup -d "$loop"; rm -rf "$T"' EXIT
truncate -s 64M "$T/img"
mkfs.ext4 -q "$T/img" || fail "mkfs.ext4"
loop=$(losetup --direct-io=on -f --show "$T/img" 2>/dev/null) || skip "no loop device with direct I/O here"
mount "$loop" "$m" || fail "cannot mount $loop"

# PART: 24 chains of directories 30 deep, two files in each
make_part() {
	for c in $(seq 24); do
		d=$m/tree/$1/c$c
		for l in $(seq 30); do d=$d/d$l; done
		mkdir -p "$d" || fail "mkdir $d"
		d=$m/tree/$1/c$c
		for l in $(seq 30); do d=$d/d$l; : >"$d/f1"; : >"$d/f2"; done
	done
}
make_part a
make_part b
sync
want=$(find "$m/tree" | wc -l)

remount() { umount "$m" && mount "$loop" "$m" || fail "cannot remount $m"; }
# walk DIR...: walk-dump -n -s of $m/DIR, its stats in $T/stats
walk() {
	(cd "$m" && walk-dump -n -s "$@") >"$T/walk" 2>"$T/stats" || fail "walk-dump failed: $(cat "$T/stats")"
}
stat_of() { tr ' ' '\n' <"$T/stats" | sed -n "/^$1\$/{n;p;}"; }

remount
walk tree
case " $(cat "$T/stats") " in *" warm 0 "*) skip "this device was not judged cheap: no helper threads to pause ($(cat "$T/stats"))" ;; esac
[ "$(stat_of warm_pauses)" = 0 ] || fail "a walk of a cold tree left the helpers idle: $(cat "$T/stats")"
[ "$(stat_of entries)" = "$want" ] || fail "cold: $(stat_of entries) entries handed out, find counts $want"

remount
walk tree/b
walk tree/a tree/b
[ "$(stat_of warm_pauses)" -ge 1 ] || fail "the helpers kept working on a tree in the cache: $(cat "$T/stats")"
want=$(find "$m/tree/a" "$m/tree/b" | wc -l)
[ "$(stat_of entries)" = "$want" ] || fail "partly cached: $(stat_of entries) entries handed out, find counts $want"
exit 0
