#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# one-fs.sh: -x with --delete keeps what rsync keeps. A mount point in the
# source is sent as an empty directory, and what its copy in the
# destination holds is not deleted (a backup of / made with -x and one of
# /home into the same tree: the second was emptied by the first); nothing
# is deleted inside a destination directory on another file system than
# DEST's, nor such a directory itself. -xx leaves mount points out
# altogether, and --delete then deletes their copies. Each locally and pushed and pulled through a remote shell,
# against rsync (needs root to mount; skipped otherwise).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd rsync
[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
mkdir -p "$T/src/m" "$T/src/d"
mount -t tmpfs tmpfs "$T/src/m" 2>/dev/null || skip "cannot mount a tmpfs here"
mounts="$T/src/m"
cleanup_mounts() { for m in $mounts; do umount "$m" 2>/dev/null; done; }
trap cleanup_mounts EXIT
printf 'f\n' > "$T/src/f"
printf 'x\n' > "$T/src/m/x"
printf 'y\n' > "$T/src/d/y"
local_rsh

# run NAME SIDE OPTS...: one side's run into $T/SIDE/dst, made by prepare;
# its status and tree into $T/SIDE.out
run() {
	name=$1 side=$2
	shift 2
	rm -rf "$T/$side"
	mkdir -p "$T/$side/dst/m" "$T/$side/dst/d" "$T/$side/dst/o"
	printf 'backup of m\n' > "$T/$side/dst/m/keepme"
	if [ -n "${DEST_MOUNT:-}" ]; then
		for m in o d; do
			mount -t tmpfs tmpfs "$T/$side/dst/$m" || fail "$name: cannot mount"
			mounts="$mounts $T/$side/dst/$m"
		done
		printf 'other fs\n' > "$T/$side/dst/o/precious"
	fi
	printf 'stale\n' > "$T/$side/dst/d/stale"
	case $side in
	R) (cd "$T" && rsync "$@" src/ R/dst/) ;;
	O) (cd "$T" && sweep-sync "$@" src/ O/dst/) ;;
	P) (cd "$T" && sweep-sync -e "$RSH" "$@" src/ localhost:P/dst/) ;;
	L) (cd "$T" && sweep-sync -e "$RSH" "$@" localhost:src/ L/dst/) ;;
	esac > /dev/null 2> "$T/$side.err"
	echo "status $?" > "$T/$side.out"
	(cd "$T/$side" && find dst | sort) >> "$T/$side.out"
	if [ -n "${DEST_MOUNT:-}" ]; then
		umount "$T/$side/dst/o" "$T/$side/dst/d"
	fi
}

for opts in "-ax --delete" "-ax --delete-after" "-ax --delete --delete-excluded" "-rx --delete-before" \
	"-axx" "-axx --delete" "-axx --delete-after"; do
	for dm in "" yes; do
		name="$opts${dm:+, a mount in DEST}"
		echo "== $name" >&2
		for side in R O P L; do
			DEST_MOUNT=$dm run "$name" $side $opts
		done
		for side in O P L; do
			cmp -s "$T/R.out" "$T/$side.out" || { cat "$T/$side.err" >&2; echo "in: $name ($side)" >&2; }
			check_same "$T/R.out" "$T/$side.out"
		done
	done
done
exit 0
