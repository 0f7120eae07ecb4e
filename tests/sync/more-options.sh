#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# more-options.sh: rsync options sweep-sync takes beside rsync:
# --ignore-errors (deletions go on after an error reading the source, a
# directory not read taken as empty, as rsync's); --compress-level (not 0:
# -z too), --skip-compress and --blocking-io (the same copy); --outbuf=N,
# L or B (the same output), a bad one refused; a --compress-level that is
# no number refused; --open-noatime (always so) leaves atimes alone.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
for opts in "--compress-level=1" "--compress-level=9 -z" "-z --skip-compress=gz/jpg" \
	"--blocking-io" "--no-blocking-io" "--zl=3"; do
	both "push $opts" -ai $opts -e "$RSH" src/ localhost:DST
	both "pull $opts" -ai $opts -e "$RSH" localhost:src/ DST
done
for b in N L B n line; do
	both "--outbuf=$b" -ai --outbuf=$b src/ DST
done
NO_TREE=1 both "--outbuf=X" -a --outbuf=X src/ DST
for level in 10 -1 0; do
	both "--compress-level=$level" -ai --compress-level=$level src/ DST
done
NO_TREE=1 both "--compress-level=x" -a --compress-level=x src/ DST

# --open-noatime: a file read keeps its access time, one older than its
# modification time (which relatime would move): a source file sent, and
# under -c both files compared (the same bytes, nothing sent) or a source
# compared and sent, here and over a remote shell
mkdir "$T/atime"
echo data > "$T/atime/f"
touch -d 2002-02-02 "$T/atime/f"
for prog in rsync sweep-sync; do
	for how in new same differ same-remote differ-remote; do
		dst=$T/atime-$prog opts= kept="$T/atime/f"
		rm -rf "$dst" && mkdir "$dst"
		case $how in
		same*) echo data > "$dst/f" && kept="$kept $dst/f" ;;
		differ*) echo DATA > "$dst/f" ;;
		esac
		[ $how = new ] || opts=-c
		case $how in *-remote) dst=localhost:$dst opts="-c -e $RSH" ;; esac
		[ -e "$T/atime-$prog/f" ] && touch -d 2002-02-02 "$T/atime-$prog/f"
		# shellcheck disable=SC2086
		touch -a -d 2001-01-01 $kept
		# shellcheck disable=SC2086
		$prog -a $opts --open-noatime "$T/atime/" "$dst/" || fail "$prog $how --open-noatime"
		for f in $kept; do
			[ "$(stat -c %X "$f")" = "$(date -d 2001-01-01 +%s)" ] ||
				fail "$prog $how --open-noatime: $f's access time moved: $(stat -c %x "$f")"
		done
		cmp "$T/atime/f" "$T/atime-$prog/f" || fail "$prog $how --open-noatime: copy differs"
	done
done

# -v read by a reader that goes away ("| head -1"): the transfer goes on
# to the end, exit 0, as rsync's (the lines it could not write unsaid);
# standard output full: a write error, exit 23
mkdir -p "$T/many"
i=0
while [ $i -lt 3000 ]; do
	: > "$T/many/a-name-long-enough-to-fill-a-pipe-buffer-quickly-$i"
	i=$((i + 1))
done
for prog in rsync sweep-sync; do
	{ $prog -av "$T/many/" "$T/many-$prog/" 2> "$T/pipe.err"; echo $? > "$T/pipe.status"; } | head -1 > /dev/null
	[ "$(cat "$T/pipe.status")" = 0 ] && [ ! -s "$T/pipe.err" ] ||
		fail "$prog -v | head: status $(cat "$T/pipe.status"), $(cat "$T/pipe.err")"
	[ "$(ls "$T/many-$prog" | wc -l)" = 3000 ] || fail "$prog -v | head: not all copied"
done
sweep-sync -av "$T/many/" "$T/many-full/" > /dev/full 2> "$T/full.err"
[ $? = 23 ] && grep -q "write error: No space left on device" "$T/full.err" ||
	fail "-v > /dev/full: $(cat "$T/full.err")"
rm -rf "$T/many" "$T"/many-*

# --ignore-errors, as a user who cannot read a source directory: what
# the copy holds below it goes too, and the rest is deleted; without it,
# nothing is deleted once the error is met (before it: the order of the
# walk, which is rsync's by name and ours by disk, so not compared)
if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/u/src/locked" "$T/u/src/open"
	printf 'f\n' > "$T/u/src/locked/f"
	printf 'g\n' > "$T/u/src/open/g"
	chmod 000 "$T/u/src/locked"
	chmod 755 "$T" "$T/u"
	for opts in "--delete --ignore-errors" "--delete-before --ignore-errors" \
		"--delete-after --ignore-errors"; do
		for prog in rsync sweep-sync; do
			rm -rf "$T/u/dst"
			mkdir -p "$T/u/dst/locked" "$T/u/dst/open"
			echo x > "$T/u/dst/extra" && echo y > "$T/u/dst/open/old" && echo z > "$T/u/dst/locked/old"
			chown -R nobody "$T/u"
			(cd "$T/u" && $AS_USER "$(command -v $prog)" -a $opts src/ dst/) > /dev/null 2>&1
			echo "status $?" > "$T/u/$prog.left"
			(cd "$T/u/dst" && find . | sort) >> "$T/u/$prog.left"
		done
		check_same "$T/u/rsync.left" "$T/u/sweep-sync.left" || fail "$opts: another tree left"
	done
	for prog in rsync sweep-sync; do
		rm -rf "$T/u/dst" && mkdir -p "$T/u/dst/locked" && echo z > "$T/u/dst/locked/old"
		chown -R nobody "$T/u"
		(cd "$T/u" && $AS_USER "$(command -v $prog)" -a --delete-before src/ dst/) > /dev/null 2>&1
		[ -f "$T/u/dst/locked/old" ] || fail "$prog without --ignore-errors: deleted below what it could not read"
	done
	# a directory of the user's in DEST that cannot be read (mode 000) is
	# not opened up to be emptied (rsync's make_mutable adds the write bit
	# alone): "cannot delete non-empty directory", an I/O error that keeps
	# every later deletion, 23; it was emptied and removed, and the rest
	# deleted, exit 0
	mkdir -p "$T/u/src2/a" "$T/u/src2/b" && echo a > "$T/u/src2/a/f"
	for prog in rsync sweep-sync; do
		rm -rf "$T/u/dst"
		mkdir -p "$T/u/dst/a" "$T/u/dst/b" "$T/u/dst/x/y" && echo del > "$T/u/dst/a/del"
		echo old > "$T/u/dst/x/y/z"
		chown -R nobody "$T/u" && chmod 000 "$T/u/dst/x"
		(cd "$T/u" && $AS_USER "$(command -v $prog)" -r --delete src2/ dst/) > "$T/u/$prog.out" 2>/dev/null
		echo "status $?" >> "$T/u/$prog.out"
		chmod 755 "$T/u/dst/x"
		(cd "$T/u/dst" && find . | sort) >> "$T/u/$prog.out"
	done
	check_same "$T/u/rsync.out" "$T/u/sweep-sync.out" || fail "--delete, an unreadable directory in DEST"
	# another's file is read (-c, a remote send) without asking O_NOATIME,
	# which the kernel refuses to all but its owner: no call fails for it
	if command -v strace > /dev/null; then
		mkdir -p "$T/u/theirs" "$T/u/mine"
		echo data > "$T/u/theirs/f" && echo DATA > "$T/u/mine/f"
		touch -d 2001-01-01 "$T/u/theirs/f"
		chown -R nobody "$T/u/mine" && chmod 755 "$T/u/theirs"
		for opts in -c "-e $RSH"; do
			dst=$T/u/mine/
			[ "$opts" = -c ] || dst=localhost:$dst
			(cd "$T/u" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
				strace -f -qq -e trace=openat -o "$T/u/trace" \
				$AS_USER "$sweep_tools/sweep-sync" -a $opts theirs/ "$dst") ||
				fail "sweep-sync $opts, another's file: failed"
			! grep 'O_NOATIME.*EPERM' "$T/u/trace" | grep . >&2 ||
				fail "sweep-sync $opts: O_NOATIME asked for another's file"
			cmp "$T/u/theirs/f" "$T/u/mine/f" || fail "sweep-sync $opts: not copied"
			echo DATA > "$T/u/mine/f" && chown nobody "$T/u/mine/f"
		done
	else
		echo "SKIP part: no strace to count the calls of another's file" >&2
	fi
else
	echo "SKIP part: an unreadable directory needs root to make it" >&2
fi
exit 0

