#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remove-source.sh: --remove-source-files beside rsync, each side on a
# source of its own: what was copied whole, or found up to date at DEST,
# or linked (-H), goes from the source (files, links, fifos, devices;
# never directories); what was left out (excluded, --max-size, -u with a
# newer copy, --existing, --ignore-existing) or not made stays, as under
# -n; a source that is DEST's own file stays, said ("Skipping sender
# remove of destination file", 23); each removal said under
# --info=remove; pushed and pulled over a remote shell, the sender removes
# what the receiver made; --files-from's names alike. A file whose time
# moves while it is copied stays, said, 23. As a user, a file in a directory the user cannot
# write stays, said, 23; a file that cannot be written at DEST stays.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
sync_tree "$T/src"
# (a removal moves its directory's time)
AFTER='find src -type d -exec touch -d 2001-02-03 {} +'
PREPARE='cp -a ../src src'
both "a new tree" -ai --remove-source-files SRC/ DST/
# (DEST made to hold SRC has the time it went in)
TOUCH_DST=1 both "without the slash" -av --remove-source-files SRC DST/
TOUCH_DST=1 both "one file" -a --remove-source-files SRC/file DST/
both "said" -ai --info=remove --remove-source-files SRC/ DST/
both "dry run" -ain --remove-source-files SRC/ DST/
# (-i would name a group's first in another order: disk order here)
both "hard links" -aH --remove-source-files SRC/ DST/
both "excluded" -ai --remove-source-files --exclude=sub --exclude=file SRC/ DST/
both "max size" -ai --remove-source-files --max-size=10 SRC/ DST/
PREPARE='cp -a ../src src && mkdir dst && cp -a src/file src/sub dst/ && echo new > src/file2 && touch -d 2011-01-01 src/file2 src'
both "partly there" -ai --remove-source-files SRC/ DST/
both "--existing" -ai --existing --remove-source-files SRC/ DST/
both "--ignore-existing" -ai --ignore-existing --remove-source-files SRC/ DST/
PREPARE='cp -a ../src src && mkdir dst && cp -a src/file dst/ && touch -d 2030-01-01 dst/file'
both "newer at DEST, -u" -aiu --remove-source-files SRC/ DST/
PREPARE='cp -a ../src src'

# DEST is SRC: every file is its own copy, so nothing goes, each said, 23
# (rsync 3.5 says so of all but the symbolic links, and removes those: the
# only copy lost)
rm -rf "$T/O" && mkdir "$T/O" && cp -a "$T/src" "$T/O/src"
(cd "$T/O" && sweep-sync -a --remove-source-files src/ src/) > "$T/same.out" 2> "$T/same.err"
[ $? = 23 ] || fail "DEST is SRC: not 23"
smanifest "$T/src" > "$T/same.before"
smanifest "$T/O/src" > "$T/same.after"
check_same "$T/same.before" "$T/same.after" || fail "DEST is SRC: the tree changed"
(cd "$T/src" && find . ! -type d | sort) | sed 's|^\./|ERROR: Skipping sender remove of destination file: |' > "$T/same.want"
grep -v "^sweep-sync error" "$T/same.err" | sort > "$T/same.got"
# (names of bytes that are not UTF-8 or a newline are escaped: left out)
sed -i '/bad-\|new\|^line$/d' "$T/same.want" "$T/same.got"
check_same "$T/same.want" "$T/same.got" || fail "DEST is SRC: not each said"
both "push" -ai --remove-source-files -e "$RSH" SRC/ localhost:DST/
both "pull" -ai --remove-source-files -e "$RSH" localhost:SRC/ DST/
both "push, -H" -aH --remove-source-files -e "$RSH" SRC/ localhost:DST/
both "pull, said" -a --info=remove --remove-source-files -e "$RSH" localhost:SRC/ DST/
both "push, dry run" -ain --remove-source-files -e "$RSH" SRC/ localhost:DST/
printf 'file\nsub/linked\nfifo\nsub/deeper\n' > "$T/list"
TOUCH_DST=1 both "--files-from" -ai --remove-source-files --files-from="$T/list" SRC/ DST/
TOUCH_DST=1 both "--files-from, -r, pushed" -air --remove-source-files --files-from="$T/list" -e "$RSH" SRC/ localhost:DST/
TOUCH_DST=1 both "--files-from, pulled" -ai --remove-source-files --files-from="$T/list" -e "$RSH" localhost:SRC/ DST/

# a file that changes while it is copied (its time moved while the copy
# stalls in its first write) stays, said, 23: the copy holds what was read
build_shim tests/sync/stall-shim.c
for prog in rsync sweep-sync; do
	c=$T/c.$prog
	mkdir -p "$c/src" && head -c 1000000 /dev/urandom > "$c/src/big" && echo a > "$c/src/a"
	rm -f "$T/mark"
	(cd "$c" && STALL_NAME=/.big. STALL_SOURCE=/src/big STALL_SECONDS=2 STALL_MARK="$T/mark" \
		LD_PRELOAD="$T/stall-shim.so" $prog -a --remove-source-files src/ dst/ \
		> "$c.out" 2> "$c.err"; echo "status $?" >> "$c.out") &
	n=0
	while [ ! -e "$T/mark" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$T/mark" ] || fail "$prog: never wrote big"
	touch -d 2020-01-01 "$c/src/big"
	wait
	(cd "$c/src" && find . | sort) >> "$c.out"
	sed 's/^sweep-sync/rsync/; s/ at [a-z0-9_./]*([0-9]*) \[[a-zA-Z]*=[0-9.]*\]$//' "$c.err" > "$c.msgs"
	grep -q "ERROR: Skipping sender remove for changed file: big" "$c.err" ||
		fail "$prog: the changed file not said: $(cat "$c.err")"
done
check_same "$T/c.rsync.out" "$T/c.sweep-sync.out"
check_same "$T/c.rsync.msgs" "$T/c.sweep-sync.msgs"

# as a user: a file in a directory it cannot write stays (23); one whose
# copy cannot be made (a read-only DEST directory of root's) stays
unprivileged
if [ -n "$AS_USER" ]; then
	chmod 755 "$T"
	for prog in rsync sweep-sync; do
		u=$T/u.$prog
		mkdir -p "$u/src/ro" "$u/src/d" "$u/dst/d"
		echo a > "$u/src/a" && echo b > "$u/src/ro/b" && echo c > "$u/src/d/c"
		chown -R nobody "$u"
		chown root "$u/dst/d" && chmod 755 "$u/dst/d"
		chmod 555 "$u/src/ro"
		(cd "$u" && $AS_USER "$(command -v $prog)" -a --remove-source-files src/ dst/) \
			> "$u.out" 2> "$u.err"
		echo "status $?" >> "$u.out"
		(cd "$u/src" && find . | sort) >> "$u.out"
		grep -q "sender failed to remove ro/b: Permission denied" "$u.err" ||
			fail "$prog: the file it could not remove not said: $(cat "$u.err")"
	done
	check_same "$T/u.rsync.out" "$T/u.sweep-sync.out"
fi
exit 0
