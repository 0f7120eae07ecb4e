# SPDX-License-Identifier: BSD-2-Clause
# tests/sync/tree.sh: shared by the tests of sweep-sync. Source after
# tests/lib.sh; everything happens in $T:
#   sync_tree DIR    tests/cp/tree.sh's tree of every file type, every time
#                    set in the past (rsync sets no time that is equal to
#                    the second, so a tree made this very second would
#                    keep the copy's own times)
#   files_from_tree  sync_tree in $T/src, with a/b/f, a/g and d/e/h more
#                    (a/b mode 0700, their times in the past) and the
#                    lists of $T: marker (names with "/./"), missing (one
#                    that is not there), list and nul (by lines and by
#                    NULs; COMMENTS=no leaves out their comment lines)
#   local_rsh        make $T/rsh, a remote shell (-e) that runs the far
#                    end's command here, in its working directory: both
#                    ends and the protocol are the real ones, without a
#                    network (sets RSH to its path)
#   interrupt NAME SIGNAL PROG ARGS...  PROG ARGS in its own process group,
#                    stalled (build_shim tests/sync/stall-shim.c first) in its
#                    first write to sub/big (its temporary file, or for
#                    sweep-sync a new file not yet named); SIGNAL sent
#                    to the group once it is there, and the group waited for
#                    to end (rsync's receiver may outlive its parent); the
#                    status and messages go to NAME.status and NAME.err;
#                    $STALL_AT, if set, names the file written instead (a
#                    part of its path), $MARK_AT where the shim's mark goes
#                    (somewhere the program may write)
#   leftovers DIR    the temporary files left in DIR
#   smanifest DIR    tests/cp/tree.sh's manifest without the block counts
#                    (rsync writes holes out as zeros; sweep-sync keeps them)
#                    and, with TIMES=no, without the times
#   both NAME ARGS...  run "rsync ARGS" and "sweep-sync ARGS" in $T, where
#                    the word DST is R/dst and O/dst (PREPARE, if set, runs
#                    in R and O first); their stdout (sorted: sweep-sync goes
#                    in disk order; HOST:DST stands for HOST:R/dst and
#                    HOST:O/dst, PATH/DST for PATH/R/dst...; SRC and HOST:SRC
#                    likewise stand for R/src and O/src, a source of each
#                    side's own that PREPARE makes), stderr (the program name and rsync's
#                    " at file.c(line) [who=version]" left out), exit status
#                    and resulting trees must match; the figures of rsync's
#                    protocol (bytes sent and received, speedup, file
#                    list size) are left out, its list's times dropped; WRAP, if set, goes before both
#                    commands (timeout 20, say); TOUCH_DST, if set, gives
#                    both dst directories one time before they are compared;
#                    AFTER, if set, runs in R and O after the commands
need_cmd rsync
command -v sweep-sync >/dev/null || fail "sweep-sync not built"
. "$top_srcdir/tests/cp/tree.sh"

sync_tree() {
	cp_tree "$1"
	find "$1" ! -name file ! -name rel-link ! -path '*/sub/deeper' ! -name ro ! -name sub \
		-exec touch -h -d '2010-05-06 07:08:09.25' {} +
}

files_from_tree() {
	sync_tree "$T/src"
	mkdir -p "$T/src/a/b" "$T/src/d/e"
	echo f > "$T/src/a/b/f"
	echo g > "$T/src/a/g"
	echo h > "$T/src/d/e/h"
	chmod 0700 "$T/src/a/b"
	find "$T/src/a" "$T/src/d" "$T/src" -maxdepth 0 -exec touch -d 2011-01-01 {} +
	find "$T/src/a" "$T/src/d" -exec touch -d 2011-01-01 {} +
	c='# a comment\n' c0='#x\0'
	[ "${COMMENTS:-}" = no ] && c= c0=
	printf "a/b/f\n/file\n$c\n./d\nsub/linked\nsub/deeper/link3\nrel-link\nfifo\n" > "$T/list"
	printf "a/b/f\0./file\0d\0$c0" > "$T/nul"
	printf './a/g\nnowhere\nfile\n' > "$T/missing"
	printf './file\na/./b/f\nsub/./deeper\n' > "$T/marker"
	printf 'a/\nd/e/\nsub/.\nfile\n' > "$T/slashes"
}

local_rsh() {
	RSH=$T/rsh
	printf '#!/bin/sh\n# HOST, then the command, run here\nshift\nexec sh -c "$*"\n' > "$RSH"
	chmod +x "$RSH"
}

interrupt() {
	name=$1 sig=$2 mark=${MARK_AT:-$T/mark}
	shift 2
	rm -f "$mark" "$T/leader"
	# setsid forks when it leads a group already; -w waits for the program
	# and exits with its status, and the leader writes its pid down
	STALL_NAME=${STALL_AT:-/sub/.big.} STALL_SOURCE=/src/sub/big STALL_MARK="$mark" \
		LD_PRELOAD="$T/stall-shim.so" \
		setsid -w sh -c 'echo $$ > "$0"; exec "$@"' "$T/leader" "$@" 2> "$T/$name.err" &
	pid=$!
	n=0
	while { [ ! -e "$mark" ] || [ ! -s "$T/leader" ]; } && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	group=$(cat "$T/leader")
	[ -e "$mark" ] || { /bin/kill -s KILL -- -"$group"; fail "$name: never wrote ${STALL_AT:-big}"; }
	/bin/kill -s "$sig" -- -"$group"
	wait $pid
	echo $? > "$T/$name.status"
	n=0
	while /bin/kill -s 0 -- -"$group" 2>/dev/null && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

leftovers() { find "$1" -name '.*.*' -type f | sed "s|$1/||"; }

smanifest() {
	BLOCKS=no manifest "$1"
}

both() {
	name=$1
	echo "== $name" >&2
	shift
	for side in R O; do
		prog=rsync
		[ $side = O ] && prog=sweep-sync
		if [ -z "${KEEP:-}" ]; then
			# (a user cannot remove what a read-only directory holds)
			if [ -e "$T/$side" ]; then
				chmod -R u+rwx "$T/$side" 2>/dev/null
				rm -rf "$T/$side"
			fi
			mkdir "$T/$side"
			[ -n "${PREPARE:-}" ] && (cd "$T/$side" && eval "$PREPARE")
		fi
		args=
		for a; do
			case $a in
			DST*) a=$side/dst${a#DST} ;;
			*:DST*) a=${a%%:DST*}:$side/dst${a#*:DST} ;;
			SRC*) a=$side/src${a#SRC} ;;
			*:SRC*) a=${a%%:SRC*}:$side/src${a#*:SRC} ;;
			*/DST*) a=${a%%/DST*}/$side/dst${a#*/DST} ;;
			esac
			shell_quote "$a"
			args="$args $quoted"
		done
		(cd "$T" && eval "${WRAP:-} $prog $args" < /dev/null) > "$T/$side.out" 2> "$T/$side.err"
		echo "status $?" >> "$T/$side.out"
		# a DEST made to hold SRC has the time SRC went in: not compared
		[ -n "${TOUCH_DST:-}" ] && touch -d '2001-02-03' "$T/$side/dst"
		[ -n "${AFTER:-}" ] && (cd "$T/$side" && eval "$AFTER")
		# (rsync's timeout says the seconds since it last heard, as its
		# check, every TIMEOUT seconds, finds them: 2, or 3 or 4 where the
		# check fell just before a second's turn; the tests check ours;
		# its receiver may say its pipe broke when the sender ended first,
		# a race of its own)
		sed "s/^sweep-sync/rsync/; s/ at [a-z0-9_./]*([0-9]*) \[[a-zA-Z]*=[0-9.]*\]$//; s|$T/$side/|X/|g; s|$T/|T/|g; s,\(^\\|[^A-Za-z0-9._-]\)$side/,\1X/,g
			s/ io timeout after [0-9]* seconds / io timeout after N seconds /
			/^rsync: \[Receiver\] write error: Broken pipe (32)$/d" \
			"$T/$side.err" | sort > "$T/$side.msgs"
		# the protocol's figures: none without a protocol
		# (and without a delta transfer, what rsync matched is literal)
		[ -n "${NO_DELTA:-}" ] && sed -i '/^Literal data: /d; /^Matched data: /d' "$T/$side.out"
		sed "s|$T/$side/|X/|g; s|$T/|T/|g; s,\(^\\|[^A-Za-z0-9._-]\)$side/,\1X/,g; s/^sent [0-9.,KMGTP]* bytes  received [0-9.,KMGTP]* bytes  [0-9,]*\\.[0-9][0-9][KMGTP]\\{0,1\\} bytes\\/sec$/sent, received, rate/; s/  speedup is .*//;
		     /^File list \(generation\|transfer\) time: /d; s/^\(File list size\|Total bytes sent\|Total bytes received\): [0-9.,KMGTP]*$/\1: N/" "$T/$side.out" | sort > "$T/$side.sorted"
	done
	check_same "$T/R.sorted" "$T/O.sorted" || fail "$name: output"
	check_same "$T/R.msgs" "$T/O.msgs" || fail "$name: messages"
	if [ -z "${NO_TREE:-}" ]; then
		smanifest "$T/R" > "$T/R.tree"
		smanifest "$T/O" > "$T/O.tree"
		check_same "$T/R.tree" "$T/O.tree" || fail "$name: trees"
		diff -r --no-dereference "$T/R" "$T/O" > "$T/diff" 2>&1 ||
			! grep -v 'is a fifo while\|is a character special file while\|is a block special file while' "$T/diff" >&2 ||
			fail "$name: contents"
	fi
	:
}
