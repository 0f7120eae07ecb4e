#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remove-source.sh: --remove-source-files beside rsync, each side on a
# source of its own: what was copied whole, or found up to date at DEST,
# or linked (-H), goes from the source (files, links, fifos, devices;
# never directories); what was left out (excluded, --max-size, -u with a
# newer copy, --existing, --ignore-existing) or not made stays, as under
# -n (--remove-sent-files: what was found up to date stays too, as
# rsync's older option); a source that is DEST's own file stays, said ("Skipping sender
# remove of destination file", 23); each removal said under
# --info=remove; pushed and pulled over a remote shell, the sender removes
# what the receiver made; --files-from's names alike. A file whose time
# moves while it is copied stays, said, 23. What the walk may meet again
# (-H, -L, several SRCs, --files-from) goes at the end of the run. As a user, a file in a directory the user cannot
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
both "said, -q" -aq --info=remove --remove-source-files SRC/ DST/
both "dry run" -ain --remove-source-files SRC/ DST/
# (-i would name a group's first in another order: disk order here)
both "hard links" -aH --remove-source-files SRC/ DST/
both "excluded" -ai --remove-source-files --exclude=sub --exclude=file SRC/ DST/
both "max size" -ai --remove-source-files --max-size=10 SRC/ DST/
PREPARE='cp -a ../src src && mkdir dst && cp -a src/file src/sub dst/ && echo new > src/file2 && touch -d 2011-01-01 src/file2 src'
both "partly there" -ai --remove-source-files SRC/ DST/
# --remove-sent-files, rsync's older spelling: what was found up to date stays
both "--remove-sent-files, partly there" -ai --remove-sent-files SRC/ DST/
both "--remove-sent-files, pushed" -ai --remove-sent-files -e "$RSH" SRC/ localhost:DST/
both "--remove-sent-files, pulled" -ai --remove-sent-files -e "$RSH" localhost:SRC/ DST/
both "the later of the two spellings" -ai --remove-sent-files --remove-source-files SRC/ DST/
both "--existing" -ai --existing --remove-source-files SRC/ DST/
both "--ignore-existing" -ai --ignore-existing --remove-source-files SRC/ DST/
PREPARE='cp -a ../src src && mkdir dst && cp -a src/file dst/ && touch -d 2030-01-01 dst/file'
both "newer at DEST, -u" -aiu --remove-source-files SRC/ DST/
PREPARE='cp -a ../src src'

# what the walk may still meet waits for the end of the run: several SRCs
# (overlapping, a name twice, -H links from one to another, a freed inode
# number coming back as another file's), -L (a link to a file met after
# it), --files-from
past='find src -exec touch -h -d 2011-01-01 {} +'
PREPARE="cp -a ../src src && mkdir -p src/s1 src/s2 && echo aaaa > src/s1/a && ln src/s1/a src/s2/b && $past"
TOUCH_DST=1 both "-H across SRCs" -aH --remove-source-files SRC/s1 SRC/s2 DST/
# (a freed inode number: s1's files, removed after the first tree, gave
# theirs to s2's copies, met again below s1/X; DEST inside a SRC is left
# out of it here, so the trees are not rsync's: the data is checked)
rm -rf "$T/F" && mkdir -p "$T/F/s1/X/sub" "$T/F/s2/sub" && echo S1DATA > "$T/F/s1/a" &&
	ln "$T/F/s1/a" "$T/F/s1/a2" && echo S2DATA > "$T/F/s2/sub/f" && ln "$T/F/s2/sub/f" "$T/F/s2/sub/f2"
(cd "$T/F" && sweep-sync -aH --remove-source-files s1/ s2/ s1/X/sub/ s1/X/) 2> "$T/F.err" ||
	fail "-H, a freed inode number: $(cat "$T/F.err")"
[ "$(cat "$T/F/s1/X/a")" = S1DATA ] && [ "$(cat "$T/F/s1/X/f")" = S2DATA ] &&
	[ "$(cat "$T/F/s1/X/f2")" = S2DATA ] || fail "-H, a freed inode number: data lost"
# (a name in two SRCs: the first's is copied, the later left, in the
# source too, as rsync's list keeps the first; before, the later was
# written over the first, whose source then went: its data lost)
PREPARE="mkdir -p src/a src/b && echo A > src/a/file && echo BB > src/b/file && $past"
for opts in "-ai" "-ai --remove-source-files"; do
	TOUCH_DST=1 both "a name in two SRCs, $opts" $opts SRC/a/file SRC/b/file DST/
	TOUCH_DST=1 both "a name in two SRC/s, $opts" $opts SRC/a/ SRC/b/ DST/
	TOUCH_DST=1 both "a name in two SRC/s, pushed, $opts" $opts -e "$RSH" SRC/a/ SRC/b/ localhost:DST/
	TOUCH_DST=1 both "a name in two SRCs, pulled, $opts" $opts -e "$RSH" localhost:SRC/a/file localhost:SRC/b/file DST/
done
# (a file and a directory at one name: the directory wins, before or
# after, and the file's source stays; -R's and --files-from's names alike)
PREPARE="mkdir -p src/s1 src/s2/x && echo one > src/s1/x && echo two > src/s2/x/y && $past"
TOUCH_DST=1 both "a file, then a directory" -a --remove-source-files SRC/s1/ SRC/s2/ DST/
TOUCH_DST=1 both "a file, then a directory, pushed" -a --remove-source-files -e "$RSH" SRC/s1/ SRC/s2/ localhost:DST/
PREPARE="mkdir -p src/s1/x src/s2 && echo one > src/s1/x/y && echo two > src/s2/x && $past"
TOUCH_DST=1 both "a directory, then a file" -a --delete --remove-source-files SRC/s1/ SRC/s2/ DST/
PREPARE="mkdir -p src/s1 src/s2 && echo one > src/s1/x && echo second > src/s2/x && $past"
TOUCH_DST=1 both "-R, a name twice" -a -R --remove-source-files SRC/s1/./x SRC/s2/./x DST/
TOUCH_DST=1 both "-R, a name twice, pulled" -a -R --remove-source-files -e "$RSH" localhost:SRC/s1/./x localhost:SRC/s2/./x DST/
PREPARE='cp -a ../src src'
TOUCH_DST=1 both "overlapping SRCs" -a --remove-source-files SRC SRC/sub DST/
TOUCH_DST=1 both "overlapping SRCs, -q" -aq --remove-source-files SRC SRC/sub DST/
TOUCH_DST=1 both "a SRC twice" -a --remove-source-files SRC/file SRC/file DST/
PREPARE="mkdir -p src/d && echo a > src/a && ln -s a src/l && echo x > src/d/x && ln -s d src/ld && $past"
both "-L" -aL --remove-source-files SRC/ DST/
printf 'file\nfile\nsub/linked\n' > "$T/twice"
PREPARE='cp -a ../src src'
TOUCH_DST=1 both "--files-from, a name twice" -a --remove-source-files --files-from="$T/twice" SRC/ DST/
# (DEST's file is the source's own through --link-dest=SRC: kept, said;
# regular files, which rsync links as sweep-sync does)
PREPARE="mkdir src && echo a > src/a && echo bb > src/b && $past"
TOUCH_DST=1 both "--link-dest=SRC" -a --remove-source-files --link-dest=../src SRC/ DST/
PREPARE='cp -a ../src src'

# -L: a file reached through a link to a directory out of the tree is not
# the source's to remove (rsync 3.5: "secure-open-parent", here the walk
# of its path, not through links: both keep it, 23)
rm -rf "$T/L" && mkdir -p "$T/L/src" "$T/L/other/od" && echo od > "$T/L/other/od/x"
ln -s ../other/od "$T/L/src/ld"
(cd "$T/L" && sweep-sync -aL --remove-source-files src/ dst/) > "$T/L.out" 2> "$T/L.err"
[ $? = 23 ] || fail "-L out of the tree: not 23: $(cat "$T/L.err")"
[ -f "$T/L/other/od/x" ] || fail "-L out of the tree: removed"
cmp -s "$T/L/other/od/x" "$T/L/dst/ld/x" || fail "-L out of the tree: not copied"

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
