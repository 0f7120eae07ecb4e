#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# safety.sh: what a review of sweep-sync found, each beside rsync where
# rsync has an answer: a SRC ending in ".." never writes above DEST; files
# a filter excludes inside a directory --delete removes are protected, and
# a mount point is not emptied; a fifo where a file goes is replaced, never
# written into; no -r: directories skipped, --delete refused; an error of
# the copy is exit 23, not 1; --delete with several sources deletes against
# all of them at once, never what one of them brought; -a as a user
# touches nothing twice.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd timeout

mkdir -p "$T/src/sub/inner"
printf 'a\n' > "$T/src/a"
printf 'b\n' > "$T/src/sub/b"
printf 'c\n' > "$T/src/sub/inner/c"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +

# "sub/.." is src: the copy goes into DEST, not above it
mkdir "$T/above"
both "SRC ending in .." -a "$T/src/sub/.." DST/
[ -z "$(ls -A "$T/O" | grep -v '^dst$')" ] || fail "sweep-sync wrote beside DEST"
# (times left out: what each side prepared is made at its own moment)
PREPARE='mkdir -p dst/keep && printf k > dst/keep/x.tmp && printf y > dst/keep/y && printf t > dst/top.tmp' \
	TIMES=no both "--delete keeps excluded files" -a --delete --exclude='*.tmp' "$T/src/" DST/
# a fifo where a file goes: replaced (a write into it would hang)
PREPARE='mkdir dst && mkfifo dst/a' WRAP='timeout 20' both "a fifo at a file's place" -a "$T/src/" DST/
PREPARE='mkdir dst && mkfifo dst/a' WRAP='timeout 20' both "a fifo, --inplace" -a --inplace "$T/src/" DST/
# no -r (DEST is made now, at each side's own moment: times left out)
TIMES=no both "no -r, SRC/" -lpt "$T/src/" DST/
TIMES=no both "no -r, SRC" -lpt "$T/src" DST/
TIMES=no both "no -r, --delete" -lpt --delete "$T/src/" DST/

# several sources with --delete are one tree, as rsync's: what one
# brings is never deleted syncing another, whatever order and form (the
# extraneous files are made at each side's own moment: times left out)
mkdir -p "$T/two/a/sub" "$T/two/b/sub" "$T/two/c"
printf 'a\n' > "$T/two/a/only-a"
printf 'as\n' > "$T/two/a/sub/from-a"
printf 'b\n' > "$T/two/b/only-b"
printf 'bs\n' > "$T/two/b/sub/from-b"
printf 'c\n' > "$T/two/c/in-c"
find "$T/two" -exec touch -h -d '2010-05-06 07:08:09' {} +
EXTRA='mkdir -p dst/sub dst/c dst/old && touch dst/stale dst/sub/stale dst/c/stale dst/old/x &&
	touch -d "2010-05-06 07:08:09" dst dst/sub dst/c'
PREPARE=$EXTRA TIMES=no both "--delete, two sources' contents" -ai --delete "$T/two/a/" "$T/two/b/" DST/
PREPARE=$EXTRA TIMES=no both "--delete, the other order" -ai --delete "$T/two/b/" "$T/two/a/" DST/
PREPARE=$EXTRA TIMES=no both "--delete, contents and a named one" -ai --delete "$T/two/a/" "$T/two/c" DST/
PREPARE=$EXTRA TIMES=no both "--delete, two named ones" -ai --delete "$T/two/a" "$T/two/c" DST/

# an empty DEST: a usage error, exit 1, as rsync's
(cd "$T" && sweep-sync -a "$T/src/" "") 2> "$T/err"
[ $? = 1 ] || fail "an empty DEST: not exit 1: $(cat "$T/err")"

# an error of the copy itself: 23, as rsync's
if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/u/src" "$T/u/R" "$T/u/O"
	printf 'x\n' > "$T/u/src/locked"
	printf 'y\n' > "$T/u/src/open"
	chmod 000 "$T/u/src/locked"
	chmod 755 "$T" "$T/u" "$T/u/src"
	chown nobody "$T/u/R" "$T/u/O"
	$AS_USER rsync -a "$T/u/src/" "$T/u/R/" 2> /dev/null
	want=$?
	$AS_USER "$sweep_tools/sweep-sync" -a "$T/u/src/" "$T/u/O/" 2> "$T/err"
	got=$?
	[ $got = $want ] || fail "an unreadable file: exit $got, rsync's $want: $(cat "$T/err")"
	[ -f "$T/u/O/open" ] || fail "the readable file was not copied"
	# -a as a user: -o is not for users; a second run moves no ctime
	mkdir -p "$T/o/src"
	printf 'z\n' > "$T/o/src/f"
	# (its group nobody's own, so a chown of the group alone would work,
	# and move the ctime)
	chown "1234:$(id -gn nobody)" "$T/o/src/f"
	chmod -R a+rwX "$T/o" && chmod 777 "$T/o"
	$AS_USER "$sweep_tools/sweep-sync" -a "$T/o/src/" "$T/o/dst/" || fail "-a as a user"
	before=$(stat -c %Z "$T/o/dst/f")
	sleep 1.1
	$AS_USER "$sweep_tools/sweep-sync" -a "$T/o/src/" "$T/o/dst/" || fail "-a as a user, again"
	[ "$(stat -c %Z "$T/o/dst/f")" = "$before" ] || fail "a second run as a user moved a ctime"
	# a device as a user: skipped, said, as rsync (it was an error, 23)
	mkdir -p "$T/dv/src"
	printf 'a\n' > "$T/dv/src/f"
	mknod "$T/dv/src/null" c 1 3 && mkfifo "$T/dv/src/fifo"
	chmod 755 "$T/dv"
	PREPARE='mkdir dst && chown nobody dst' WRAP=$AS_USER TIMES=no both "a device, as a user" \
		-a "$T/dv/src/" DST/
	# a device whose number changed: made again, said 'cDc' (its value), as
	# rsync says it
	touch -d 2011-01-01 "$T/dv/src/null"
	PREPARE='mkdir dst && mknod dst/null c 1 5 && touch -h -d 2011-01-01 dst/null' \
		TIMES=no both "a device changed" -aiD "$T/dv/src/null" DST/
	# what the sender cannot read, named by its absolute path as rsync
	# names it (a relative SRC was named as given), and no -i line for it;
	# nor an owner change a user's run does not make (it said 'o')
	mkdir -p "$T/ur/src/d" && echo f > "$T/ur/src/d/f" && echo g > "$T/ur/src/g"
	echo h > "$T/ur/src/h" && chmod 755 "$T/ur" && chmod 000 "$T/ur/src/d" "$T/ur/src/g"
	# (SRC's time far from DEST's: both say its 't', whatever the second)
	touch -d 2011-01-01 "$T/ur/src"
	PREPARE='mkdir dst && chown nobody dst' WRAP=$AS_USER TIMES=no both "unreadable, named, -i" \
		-ai ur/src/ DST/
	# -m meets an unreadable directory in its scan, before the transfer:
	# nothing is deleted anywhere, even during it, as rsync deletes nothing
	# (without -m the transfer deletes until it meets the error)
	for side in R O; do
		mkdir -p "$T/mu/$side/src/m/u" "$T/mu/$side/dst/z"
		echo s > "$T/mu/$side/src/m/u/s" && echo z > "$T/mu/$side/dst/z/z"
		chown -R nobody "$T/mu/$side" && chmod 755 "$T/mu" && chmod 000 "$T/mu/$side/src/m/u"
	done
	(cd "$T/mu/R" && $AS_USER rsync -a -m --delete src/ dst/) > /dev/null 2>&1
	echo "status $?" > "$T/mu.R"
	(cd "$T/mu/O" && $AS_USER "$sweep_tools/sweep-sync" -a -m --delete src/ dst/) > /dev/null 2>&1
	echo "status $?" > "$T/mu.O"
	check_same "$T/mu.R" "$T/mu.O"
	[ -f "$T/mu/O/dst/z/z" ] || fail "-m --delete, a directory not read: dst/z/z deleted"
	# set-ID bits as a user, where the owner cannot be given: kept, as
	# rsync keeps them (the copy is the user's own; they were dropped)
	mkdir -p "$T/sid/src"
	printf 'g\n' > "$T/sid/src/g"
	printf 'u\n' > "$T/sid/src/u"
	chown nobody:root "$T/sid/src/g"
	chmod 2755 "$T/sid/src/g"
	chmod 4755 "$T/sid/src/u"
	chmod 755 "$T/sid"
	PREPARE='mkdir dst && chown nobody dst' WRAP=$AS_USER TIMES=no both "set-ID bits, as a user" \
		-a "$T/sid/src/" DST/
	# a DEST whose directories are the user's but read-only: rsync makes
	# each writable while its contents go in, then gives it its mode (the
	# source's under -p, its own otherwise); sweep-sync failed, 23
	mkdir -p "$T/ro/src/sub"
	printf 'a\n' > "$T/ro/src/sub/a"
	printf 'b\n' > "$T/ro/src/b"
	chmod 555 "$T/ro/src/sub"
	chmod 755 "$T/ro"
	for opts in -r -a "-r --delete" "-a --delete --delete-after"; do
		PREPARE='mkdir -p dst/sub dst/gone && touch dst/sub/old dst/gone/x && chown -R nobody dst && chmod 555 dst/sub dst/gone dst' \
			WRAP=$AS_USER TIMES=no both "a read-only DEST, $opts" $opts "$T/ro/src/" DST/
	done
	# a source directory that cannot be read: rsync then deletes nothing
	# anywhere ("IO error encountered -- skipping file deletion"), since
	# what it could not read may be what the destination holds; sweep-sync
	# deleted in the other directories (--delete-before, --delete-after;
	# --delete, during the transfer, deletes until it meets the error, in
	# disk order: d/extra must stay, e/extra2 goes or not)
	# The same through a remote shell, pushed and pulled: the sender meets
	# the error, the receiver deletes, so the sender must tell it
	local_rsh
	# io_case WHAT WHEN: the source's d (or only its file d/secret) not
	# readable, under --delete-WHEN
	io_case() {
		echo "== unreadable $1, $2"
		for side in R O P L; do
			rm -rf "$T/io/$side"
			mkdir -p "$T/io/$side/src/d" "$T/io/$side/src/e" "$T/io/$side/dst/d" "$T/io/$side/dst/e"
			echo s > "$T/io/$side/src/d/secret"
			echo a > "$T/io/$side/src/e/a"
			echo keep > "$T/io/$side/dst/d/extra"
			echo keep > "$T/io/$side/dst/e/extra2"
			chmod 755 "$T/io" "$T/io/$side" && chown -R nobody "$T/io/$side/dst"
			chmod 000 "$T/io/$side/src/$1"
		done
		when=$2
		(cd "$T/io/R" && $AS_USER rsync -a $when src/ dst) > "$T/R.io" 2> /dev/null
		echo "status $?" >> "$T/R.io"
		(cd "$T/io/O" && $AS_USER "$sweep_tools/sweep-sync" -a $when src/ dst) > "$T/O.io" 2> /dev/null
		echo "status $?" >> "$T/O.io"
		(cd "$T/io/P" && $AS_USER "$sweep_tools/sweep-sync" -a -e "$RSH" $when src/ localhost:dst) \
			> /dev/null 2>&1
		echo "status $?" > "$T/P.io"
		(cd "$T/io/L" && $AS_USER "$sweep_tools/sweep-sync" -a -e "$RSH" $when localhost:src/ dst) \
			> /dev/null 2>&1
		echo "status $?" > "$T/L.io"
		for side in R O P L; do
			(cd "$T/io/$side" && find dst | sort) >> "$T/$side.io"
		done
		if [ "$when" = --delete ] || [ "$when" = "-m --delete" ]; then
			sed -i '/^IO error encountered/d; /^dst\/e\/extra2$/d' "$T/R.io" "$T/O.io" "$T/P.io" "$T/L.io"
		fi
		check_same "$T/R.io" "$T/O.io"
		grep -v '^IO error encountered' "$T/R.io" > "$T/R.tree"
		check_same "$T/R.tree" "$T/P.io"
		check_same "$T/R.tree" "$T/L.io"
	}
	# (-m too: the directory not read is not taken for empty and pruned)
	for when in --delete-before --delete-after --delete "-m --delete" "-m --delete-before"; do
		io_case d "$when"
	done
	# a file whose data cannot be read was listed: what rsync decides as
	# it lists (--delete-before, --delete-delay) it deletes; the pass
	# after the transfer (--delete-after) does not
	for when in --delete-before --delete-after --delete-delay --delete; do
		io_case d/secret "$when"
	done
else
	echo "SKIP part: an unreadable file and a user's run need root to make them" >&2
fi
exit 0
