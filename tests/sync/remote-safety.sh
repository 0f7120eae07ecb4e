#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remote-safety.sh: a far end that lies (tests/sync/evil-peer.c, in place of
# the sender) is refused with a one-line "protocol error" and exit 12, and
# nothing is written outside the destination: names "..", names holding
# '/', entries in directories never sent, a second root, a root not asked
# for, data on a
# directory, a frame of impossible length, a short entry, a peer that hangs
# up half way through a file (no file under its final name); a symbolic
# link sent before a directory of the same name is replaced, never written
# through. And the sender's own failures come back in rsync's statuses: a
# source that is not there, an unreadable one: 23, each named; a
# destination whose disk fills ends the run with 11, as rsync's, naming the
# file, and keeps no part of a file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd timeout
local_rsh
mkdir -p "$T/outside" "$T/work"
export EVIL_OUTSIDE="$T/outside"
peer=$top_builddir/tests/sync/evil-peer
[ -x "$peer" ] || fail "$peer is not built"

evil() {
	scenario=$1 want=$2 said=${3:-}
	rm -rf "$T/work/dst"
	(cd "$T/work" && timeout 30 sweep-sync -a -e "$T/rsh" \
		--rsync-path="$peer $scenario #" localhost:src dst) > "$T/out" 2> "$T/err"
	status=$?
	[ $status = "$want" ] || { cat "$T/err" >&2; fail "$scenario: status $status, not $want"; }
	[ -z "$(ls -A "$T/outside")" ] || fail "$scenario: written outside: $(ls -A "$T/outside")"
	[ -z "$(ls -A "$T/work" | grep -v '^dst$')" ] || fail "$scenario: written beside dst"
	[ ! -e "$T/escaped" ] && [ ! -e "$T/work/escaped" ] || fail "$scenario: escaped"
	if [ "$want" = 12 ]; then
		grep -q "$said" "$T/err" || { cat "$T/err" >&2; fail "$scenario: not said"; }
		[ "$(grep -c 'protocol error' "$T/err")" -le 1 ] || fail "$scenario: said twice"
	fi
}
evil dotdot 12 "protocol error: a name that is not one component"
evil slash 12 "protocol error: a name that is not one component"
evil absolute 12 "protocol error: a name that is not one component"
evil unknown-parent 12 "protocol error: an entry in a directory never sent"
evil second-root 12 "protocol error: a second root"
evil data-on-dir 12 "protocol error: an entry that does not parse"
evil huge-frame 12 "protocol error: a frame of impossible length"
evil short-entry 12 "protocol error: an entry that does not parse"
evil hang-up 12 "connection closed by"
evil dir-id-twice 12 "protocol error: a directory id sent twice"
evil root-kind 12 "protocol error: a root of another kind"
evil two-trees 12 "protocol error: more trees than sources"
# a root that is not one of the PATHs asked for (rsync 3.2.5's check of
# the names it receives): "src" asked, ".bashrc" sent
EVIL_ROOT=.bashrc evil plain 12 "protocol error: a tree that was not asked for"
EVIL_ROOT=other/src/ evil plain 12 "protocol error: a tree that was not asked for"
# a root named by an absolute path the receiver has too: nothing of the
# receiver's own is read for it (its attributes, here)
mkdir -p "$T/secret/src"
if setfattr -n user.secret -v hunter2 "$T/secret/src" 2>/dev/null; then
	rm -rf "$T/work/dst"
	(cd "$T/work" && EVIL_ROOT="$T/secret/src" sweep-sync -aX -e "$RSH" \
		--rsync-path="$peer plain #" localhost:src dst/) 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "plain -X: status"; }
	[ "$(cat "$T/work/dst/src/f")" = plain ] || fail "plain -X: not copied"
	! getfattr -d "$T/work/dst/src" 2>/dev/null | grep -q secret ||
		fail "plain -X: the receiver's own directory's attribute went to the copy"
else
	echo "SKIP part: no user attributes here (setfattr)" >&2
fi

# --delete-before in a directory that is not below DEST: refused, and
# nothing deleted
for rel in .. sub/../.. /tmp sub//x sub/; do
	rm -rf "$T/work/dst" && mkdir -p "$T/work/dst/src/sub" &&
		touch "$T/work/dst/victim" "$T/work/dst/src/victim" "$T/work/dst/src/sub/victim"
	(cd "$T/work" && timeout 30 sweep-sync -r --delete-before -e "$T/rsh" \
		--rsync-path="$peer predelete '$rel' #" localhost:src dst) > "$T/out" 2> "$T/err"
	status=$?
	[ $status = 12 ] && grep -q "protocol error: a directory to delete in that is not below" "$T/err" ||
		{ cat "$T/err" >&2; fail "predelete $rel: status $status"; }
	[ -e "$T/work/dst/victim" ] && [ -e "$T/work/dst/src/victim" ] &&
		[ -e "$T/work/dst/src/sub/victim" ] || fail "predelete $rel: deleted"
done

# --files-from: a tree or a directory time at a path that is not below
# DEST is refused (nothing made, no time set outside)
echo f > "$T/work/names"
touch -d 2020-02-02 "$T/outside"
for what in tree-at dir-time; do
	for path in .. ../escaped /abs a/../.. a//b; do
		rm -rf "$T/work/dst" && mkdir "$T/work/dst"
		(cd "$T/work" && timeout 30 sweep-sync -a --files-from=names -e "$T/rsh" \
			--rsync-path="$peer $what '$path' #" localhost:src dst) > "$T/out" 2> "$T/err"
		status=$?
		[ $status = 12 ] && grep -q "protocol error: a .* whose path does not parse" "$T/err" ||
			{ cat "$T/err" >&2; fail "$what $path: status $status"; }
		[ -z "$(ls -A "$T/work/dst")" ] && [ ! -e "$T/escaped" ] && [ ! -e "$T/work/escaped" ] ||
			fail "$what $path: something was made"
		[ "$(stat -c %Y "$T/outside")" = "$(date -d 2020-02-02 +%s)" ] ||
			fail "$what $path: a time was set outside DEST"
	done
done
rm -f "$T/work/names"

# the half-sent file is under no name, not even its temporary one
[ -z "$(find "$T/work/dst" -name '*half*')" ] || fail "hang-up: a part of a file was kept"
evil link-then-dir 0
[ -f "$T/work/dst/src/d/planted" ] && [ ! -L "$T/work/dst/src/d" ] ||
	fail "link-then-dir: the directory was not made in the link's place"

# owners by name, as rsync maps them (unless --numeric-ids): a sender's
# uid 4242 named "nobody" is our nobody
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	for numeric in "" --numeric-ids; do
		rm -rf "$T/work/dst"
		(cd "$T/work" && EVIL_UID=4242 EVIL_USER=nobody EVIL_GROUP="$(id -gn nobody)" \
			sweep-sync -a $numeric -e "$RSH" --rsync-path="$peer owner #" localhost:src dst) ||
			fail "owner $numeric: status"
		want="$(id -u nobody):$(id -g nobody)"
		[ -n "$numeric" ] && want=4242:4242
		got=$(stat -c %u:%g "$T/work/dst/src/owned")
		[ "$got" = "$want" ] || fail "owner $numeric: $got, not $want"
	done
else
	echo "SKIP part: owners by name need root and a user nobody" >&2
fi

# the sender's failures, over the remote shell as locally: a source that
# is not there is said and the others are copied, with rsync's status
mkdir -p "$T/s/src"
printf 'a\n' > "$T/s/src/a"
for prog in rsync sweep-sync; do
	rm -rf "$T/s/dst" && mkdir "$T/s/dst"
	(cd "$T/s" && $prog -a -e "$T/rsh" localhost:src/a localhost:src/gone dst) 2> "$T/err"
	echo $? > "$T/s/$prog.status"
	grep -q 'gone' "$T/err" || fail "$prog: the missing source is not named"
	[ -f "$T/s/dst/a" ] || fail "$prog: the other source was not copied"
done
check_same "$T/s/rsync.status" "$T/s/sweep-sync.status"
# a destination whose disk fills, here, pushed and pulled: the run ends at
# the file that did not fit, as rsync's receiver does, with its status 11
# (not 23, which wrappers such as rsnapshot take for a few files skipped),
# said with the file's name; every file left is whole, no temporary file is
# left, and nothing is deleted after (--delete-after: rsync neither)
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
	mkdir -p "$T/f/src/d"
	head -c 100000 /dev/urandom > "$T/f/src/a"
	head -c 400000 /dev/urandom > "$T/f/src/big"
	head -c 1000 /dev/urandom > "$T/f/src/z"
	printf 'y\n' > "$T/f/src/d/y"
	for dir in here push pull; do
		for prog in rsync sweep-sync; do
			rm -rf "$T/full/dst" && mkdir "$T/full/dst"
			printf 'old\n' > "$T/full/dst/extra"
			src=$T/f/src/ dst=$T/full/dst
			[ $dir = push ] && dst=localhost:$T/full/dst
			[ $dir = pull ] && src=localhost:$T/f/src/
			$prog -a --delete-after -e "$RSH" "$src" "$dst" 2> "$T/err"
			echo $? > "$T/f/$prog.status"
			grep -q "big.*No space left on device" "$T/err" ||
				{ cat "$T/err" >&2; fail "$prog $dir, disk full: not said"; }
			[ -f "$T/full/dst/extra" ] || fail "$prog $dir, disk full: deleted after a failed write"
			for f in $(cd "$T/full/dst" && find . -type f ! -name extra); do
				cmp -s "$T/full/dst/$f" "$T/f/src/$f" || fail "$prog $dir, disk full: $f is not whole"
			done
			[ -z "$(find "$T/full/dst" -name '.*')" ] || fail "$prog $dir, disk full: a temporary file was left"
		done
		[ "$(cat "$T/f/sweep-sync.status")" = 11 ] || { cat "$T/err" >&2; fail "$dir, disk full: status $(cat "$T/f/sweep-sync.status")"; }
		check_same "$T/f/rsync.status" "$T/f/sweep-sync.status"
	done
	umount "$T/full"
else
	echo "SKIP part: a full disk needs root to mount a small tmpfs" >&2
fi

if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/u/src"
	printf 'x\n' > "$T/u/src/locked"
	printf 'y\n' > "$T/u/src/open"
	chmod 000 "$T/u/src/locked"
	chmod 755 "$T" "$T/u" "$T/u/src"
	chown nobody "$T/u"
	for dir in push pull; do
		src=src/ dst=localhost:dst
		[ $dir = pull ] && src=localhost:src/ dst=dst
		rm -rf "$T/u/dst"
		(cd "$T/u" && $AS_USER "$sweep_tools/sweep-sync" -a -e "$T/rsh" $src $dst) 2> "$T/err"
		status=$?
		[ $status = 23 ] || { cat "$T/err" >&2; fail "$dir, unreadable: status $status"; }
		grep -q 'locked' "$T/err" || fail "$dir, unreadable: not named"
		[ -f "$T/u/dst/open" ] && [ ! -e "$T/u/dst/locked" ] ||
			fail "$dir, unreadable: wrong files"
	done
else
	echo "SKIP part: an unreadable file needs root to make it" >&2
fi
exit 0
