#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# remote.sh: sweep-sync over a remote shell, beside rsync over the same
# one: a "remote shell" (-e) that runs the far end's command here, so that
# both ends and the protocol are the real ones, without a network. Push
# (SRC HOST:DEST) and pull (HOST:SRC DEST): first copies, a second run
# that transfers nothing and moves no ctime, a changed file, --delete,
# excludes, a dry run, -z, hard links, one file to a new name, rsync's
# "HOST:SRC :SRC" for a second SRC on the same host (it was refused as a
# local one); and a far end that is not sweep-sync, or not there, is said
# in one line (exit 12).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
sync_tree "$T/src"
local_rsh
E=$RSH

both "push -a" -a -e "$E" src/ localhost:DST
KEEP=1 both "push -ai, again" -ai -e "$E" src/ localhost:DST
TOUCH_DST=1 both "pull -a" -a -e "$E" localhost:src DST
KEEP=1 both "pull -ai --stats, again" -ai --stats -e "$E" localhost:src DST
grep -q 'transferred: 0$' "$T/O.out" || fail "pull, again: something was transferred"

# nothing transferred moves no ctime at either end's direction
ctimes() { (cd "$1" && find . -printf '%C@ %p\n' | sort); }
ctimes "$T/O/dst" > "$T/before"
sleep 0.02
(cd "$T" && sweep-sync -a -e "$E" localhost:src O/dst) || fail "pull, third: status"
ctimes "$T/O/dst" > "$T/after"
check_same "$T/before" "$T/after"
TOUCH_DST=1 both "pull HOST:SRC :SRC" -ai -e "$E" localhost:src/file :src/sub DST/

# a changed file (same size, new time), a new one, one gone with --delete
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && mkdir dst/gone && touch dst/gone/x" \
	both "push, changed, --delete" -ai --delete -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && touch -d 2001-01-01 dst/extra dst" \
	both "push, dry run" -ain --delete -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra" \
	both "pull, --delete" -ai --delete -e "$E" localhost:src/ DST
# --delete-after: the deletions once the tree is in, and each directory
# they changed given its source's time again
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && mkdir -p dst/gone/deep && touch dst/gone/deep/x dst/sub/extra && touch -d 2001-01-01 dst/sub" \
	both "push, --delete-after" -ai --delete-after -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && touch dst/sub/extra" \
	both "pull, --delete-after" -ai --delete-after -e "$E" localhost:src/ DST
PREPARE="mkdir -p dst/src && echo extra > dst/src/extra && touch -d 2001-01-01 dst/src" TOUCH_DST=1 \
	both "pull a directory, --delete-after" -ai --delete-after -e "$E" localhost:src DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && touch -d 2001-01-01 dst/extra dst" \
	both "push, dry run, --delete-after" -ain --delete-after -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo x > dst/x.tmp && echo y > dst/sub/y.tmp" \
	both "push, --delete-after --delete-excluded" -ai --delete-after --delete-excluded \
	--exclude='*.tmp' -e "$E" src/ localhost:DST
# --delete-before: the sender's directories first, each deleted in before
# anything is sent (no time given back: the transfer sets it)
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && mkdir -p dst/gone/deep && touch dst/gone/deep/x dst/sub/extra && touch -d 2001-01-01 dst/sub" \
	both "push, --delete-before" -ai --delete-before -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && touch dst/sub/extra" \
	both "pull, --delete-before" -ai --delete-before -e "$E" localhost:src/ DST
PREPARE="mkdir -p dst/src && echo extra > dst/src/extra && touch -d 2001-01-01 dst/src" TOUCH_DST=1 \
	both "pull a directory, --delete-before" -ai --delete-before -e "$E" localhost:src DST
PREPARE="rsync -a ../src/ dst/ && echo extra > dst/extra && touch -d 2001-01-01 dst/extra dst" \
	both "push, dry run, --delete-before" -ain --delete-before -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo x > dst/x.tmp && echo y > dst/sub/y.tmp && touch dst/sub/z && touch -d 2001-01-01 dst/x.tmp dst/sub/y.tmp" \
	both "pull, --delete-before, excludes" -ai --delete-before --exclude='*.tmp' -e "$E" localhost:src/ DST
PREPARE="rsync -a ../src/ dst/ && echo x > dst/x.tmp && echo y > dst/sub/y.tmp" \
	both "push, --delete-before --delete-excluded" -ai --delete-before --delete-excluded \
	--exclude='*.tmp' -e "$E" src/ localhost:DST
# a file in DEST where the source has a directory: replaced, nothing to
# delete in it and nothing said
PREPARE="rsync -a ../src/ dst/ && rm -rf dst/sub && echo file > dst/sub && touch -d 2001-01-01 dst" \
	both "push, --delete-before, a file for a directory" -ai --delete-before -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && rm -rf dst/sub && ln -s /tmp dst/sub && touch -d 2001-01-01 dst" \
	both "pull, --delete-before, a link for a directory" -ai --delete-before -e "$E" localhost:src/ DST
# ... and when: a deletion's line comes before (after) the file sent, as
# rsync's does, at either end
when_deleted() { # before|after push|pull PROG
	rm -rf "$T/when" && mkdir -p "$T/when/src" "$T/when/dst"
	echo new > "$T/when/src/new" && echo extra > "$T/when/dst/extra"
	src=src/ dst=localhost:dst
	[ "$2" = pull ] && src=localhost:src/ dst=dst
	(cd "$T/when" && $3 -rv --delete-"$1" -e "$E" "$src" "$dst") > "$T/when.out" 2>&1 ||
		fail "$3 --delete-$1, $2: status"
	d=$(grep -n '^deleting extra$' "$T/when.out" | cut -d: -f1)
	f=$(grep -n '^new$' "$T/when.out" | cut -d: -f1)
	[ -n "$d" ] && [ -n "$f" ] || { cat "$T/when.out" >&2; fail "$3 --delete-$1, $2: lines"; }
	[ ! -e "$T/when/dst/extra" ] || fail "$3 --delete-$1, $2: not deleted"
	if [ "$1" = before ]; then [ "$d" -lt "$f" ]; else [ "$d" -gt "$f" ]; fi ||
		{ cat "$T/when.out" >&2; fail "$3 --delete-$1, $2: deleted $1? no"; }
}
for when in before after; do
	for dir in push pull; do
		when_deleted $when $dir rsync
		when_deleted $when $dir sweep-sync
	done
done
# (a peer naming a directory outside DEST to delete in: remote-safety.sh)

# --delete with several SRC: they are one tree to rsync, so what one
# brings to a directory is no deletion of another's
mkdir -p "$T/ma/common" "$T/mb/common/deep"
echo x > "$T/ma/x" && echo m1 > "$T/ma/common/m1"
echo y > "$T/mb/y" && echo m2 > "$T/mb/common/m2" && echo d > "$T/mb/common/deep/d"
find "$T/ma" "$T/mb" -exec touch -d 2011-01-01 {} +
MERGED="rsync -a ../ma/ ../mb/ dst/ && echo e > dst/extra && echo e > dst/common/extra && mkdir dst/mb dst/gone && touch -d 2001-01-01 dst/common dst/mb dst"
for when in "" -before -after; do
	PREPARE=$MERGED both "push, two SRC/, --delete$when" -ai --delete$when -e "$E" ma/ mb/ localhost:DST
	PREPARE=$MERGED both "pull, two SRC/, --delete$when" -ai --delete$when -e "$E" localhost:ma/ localhost:mb/ DST
	PREPARE=$MERGED both "push, SRC and SRC/, --delete$when" -ai --delete$when -e "$E" mb ma/ localhost:DST
	PREPARE=$MERGED both "pull, SRC and SRC/, --delete$when" -ai --delete$when -e "$E" localhost:mb localhost:ma/ DST
done

both "push, excludes" -ai --exclude=sub --exclude='*.txt' -e "$E" src/ localhost:DST
# which name of a hard-linked file is the first follows the walk: -i differs
both "pull, -aHz" -aHz -e "$E" localhost:src/ DST
# -z: the data goes deflated (1 MB of a repeated line in a small part of
# its size; --stats' bytes sent), and arrives whole, pushed and pulled
mkdir -p "$T/z"
yes 'a line of text, again and again' | head -c 1000000 > "$T/z/f"
for how in push pull; do
	for z in "" -z; do
		rm -rf "$T/z.dst"
		if [ $how = push ]; then
			(cd "$T" && sweep-sync -a --stats $z -e "$E" z/ localhost:z.dst/) > "$T/z.out"
		else
			(cd "$T" && sweep-sync -a --stats $z -e "$E" localhost:z/ z.dst/) > "$T/z.out"
		fi || fail "$how $z: status $?"
		cmp -s "$T/z/f" "$T/z.dst/f" || fail "$how $z: the copy is not whole"
		word=sent
		[ $how = pull ] && word=received
		n=$(sed -n "s/^sent \([0-9,]*\) bytes  received \([0-9,]*\) bytes.*/\1 \2/p" "$T/z.out" |
			awk -v w=$word '{ gsub(/,/, ""); print w == "sent" ? $1 : $2 }')
		[ -n "$n" ] || fail "$how $z: no bytes in --stats: $(cat "$T/z.out")"
		if [ -z "$z" ]; then plain=$n; else deflated=$n; fi
	done
	[ "$plain" -gt 1000000 ] && [ $((deflated * 20)) -lt "$plain" ] ||
		fail "$how: -z sent $deflated bytes, without it $plain"
done
both "push -aAX" -aiAX -e "$E" src/ localhost:DST
KEEP=1 both "push -aAX, again" -aiAX -e "$E" src/ localhost:DST
both "pull -aAX" -aiAX -e "$E" localhost:src/ DST
both "push, one file to a new name" -ai -e "$E" src/file localhost:DST
TOUCH_DST=1 both "pull, several sources" -ai -e "$E" localhost:src/file localhost:src/sub DST
PREPARE='mkdir dst' TOUCH_DST=1 both "push, names with spaces and quotes" -ai -e "$E" src/ "localhost:DST/it's a dir"

# the receiver's options: --link-dest (a snapshot beside the last one),
# -b, -S, --delete-excluded, -L at the sender
PREPARE="rsync -a ../src/ prev/" \
	both "push, --link-dest" -ai --link-dest=../prev -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo old > dst/file && echo gone > dst/gone && touch -d 2001-01-01 dst/file dst/gone dst" \
	TIMES=no both "push, -b --delete" -ai -b --delete -e "$E" src/ localhost:DST
PREPARE="rsync -a ../src/ dst/ && echo x > dst/x.tmp && touch -d 2001-01-01 dst/x.tmp dst" \
	both "pull, --delete-excluded" -ai --delete --delete-excluded --exclude='*.tmp' -e "$E" localhost:src/ DST
both "pull, -L" -aiL -e "$E" localhost:src/sub/ DST

# -c with --link-dest: DIR's file of the same size and time but other
# bytes is never linked in place of DEST's right one (the sender's sums
# speak of DEST's files only)
mkdir -p "$T/cl/src" "$T/cl/dst" "$T/cl/prev"
printf AAAA > "$T/cl/src/f"
printf AAAA > "$T/cl/dst/f"
printf BBBB > "$T/cl/prev/f"
touch -d 2010-01-01 "$T/cl/src/f" "$T/cl/prev/f"
(cd "$T/cl" && sweep-sync -ac --link-dest=../prev -e "$E" localhost:src/ dst/) || fail "-c --link-dest: status"
[ "$(cat "$T/cl/dst/f")" = AAAA ] || fail "-c --link-dest: DEST's file replaced by other bytes"

# --backup-dir at the far end: what is replaced goes there, as locally
for dir in push pull; do
	rm -rf "$T/bk" && mkdir -p "$T/bk/src" "$T/bk/dst"
	echo new > "$T/bk/src/f" && echo older > "$T/bk/dst/f"
	src=src/ dst=localhost:dst
	[ $dir = pull ] && src=localhost:src/ dst=dst
	(cd "$T/bk" && sweep-sync -a -b --backup-dir=BK -e "$E" "$src" "$dst") || fail "$dir -b: status"
	[ "$(cat "$T/bk/dst/BK/f")" = older ] && [ ! -e "$T/bk/dst/f~" ] || fail "$dir --backup-dir: not used"
done

# a directory whose names fill many frames (--delete sends them all)
mkdir -p "$T/wide/src/d" "$T/wide/dst/d"
(cd "$T/wide/src/d" && seq -f 'a-file-with-a-rather-long-name-%06g' 1 12000 | xargs touch)
touch "$T/wide/dst/d/extra"
(cd "$T/wide" && sweep-sync -a --delete -e "$E" src/ localhost:dst) || fail "a wide directory: status"
[ ! -e "$T/wide/dst/d/extra" ] && [ "$(ls "$T/wide/dst/d" | wc -l)" = 12000 ] ||
	fail "a wide directory: not mirrored"

# an ACL taken off the source is taken off the copy (-A), as locally
if command -v setfacl >/dev/null && mkdir -p "$T/acl/src/d" && echo x > "$T/acl/src/f" &&
   setfacl -m u:nobody:r "$T/acl/src/f" 2>/dev/null && setfacl -m u:nobody:rx "$T/acl/src/d"; then
	(cd "$T/acl" && sweep-sync -aA -e "$E" src/ localhost:dst) || fail "-A: status"
	getfacl -p "$T/acl/dst/f" 2>/dev/null | grep -q nobody || fail "-A: the ACL was not copied"
	setfacl -b "$T/acl/src/f" "$T/acl/src/d"
	(cd "$T/acl" && sweep-sync -aA -e "$E" src/ localhost:dst) || fail "-A, again: status"
	! getfacl -p "$T/acl/dst/f" "$T/acl/dst/d" 2>/dev/null | grep -q nobody ||
		fail "-A: an ACL the source lost stayed on the copy"
else
	echo "SKIP part: no ACLs here (setfacl)" >&2
fi

# a far end that is not sweep-sync, not there, of another version, or mute
NO_TREE=1
# (rsync's statuses: 12, 127 for a command not found there, 255 for ssh)
far() {
	want=$1 name=$2
	shift 2
	(cd "$T" && sweep-sync -a -e "$E" "$@" src/ localhost:far) > "$T/out" 2> "$T/err"
	status=$?
	[ $status = "$want" ] || fail "$name: status $status, not $want"
	grep -q "$name" "$T/err" || { cat "$T/err" >&2; fail "$name: not said"; }
	[ ! -e "$T/far" ] || fail "$name: something was made"
}
far 12 "is not sweep-sync --server" --rsync-path=echo
far 127 "remote command not found" --rsync-path=/nonexistent/sweep-sync
far 12 "protocol version mismatch" \
	--rsync-path="printf 'SWEEPSYNC\\0\\001\\0\\0\\0'; cat >/dev/null; exit 0; #"
far 12 "no greeting in time" --contimeout=1 --rsync-path="sleep 10; #"
(cd "$T" && sweep-sync -a -e "$T/nonexistent-rsh" src/ localhost:far) 2> "$T/err"
[ $? = 127 ] && grep -q "cannot run" "$T/err" || fail "a remote shell that is not there"
# the connection lost on the way (the far end killed a second in, a
# transfer of 4 seconds under --bwlimit; the remote shell then says 255,
# as ssh does): the remote shell's status, as rsync's (it was 12)
need_cmd timeout
printf '#!/bin/sh\nshift\ntimeout -s KILL 1 sh -c "$*"\nst=$?\n[ $st -gt 128 ] && exit 255\nexit $st\n' \
	> "$T/rsh255"
chmod +x "$T/rsh255"
mkdir -p "$T/lost/src" && head -c 4000000 /dev/urandom > "$T/lost/src/big"
for prog in rsync sweep-sync; do
	rm -rf "$T/lost/dst" "$T/lost/back"
	(cd "$T/lost" && $prog -a --bwlimit=1000 -e "$T/rsh255" src/ "localhost:$T/lost/dst/") \
		> /dev/null 2>&1
	echo "push $?" >> "$T/lost/$prog"
	(cd "$T/lost" && $prog -a --bwlimit=1000 -e "$T/rsh255" "localhost:$T/lost/src/" back/) \
		> /dev/null 2>&1
	echo "pull $?" >> "$T/lost/$prog"
done
check_same "$T/lost/rsync" "$T/lost/sweep-sync" || fail "the connection lost: not the remote shell's status"
# a remote shell that exits nonzero after a whole transfer (a wrapper's
# "exit 3"): its status is the run's, said in rsync's words (it was 0)
printf '#!/bin/sh
shift
sh -c "$*"
exit $RSH_EXIT
' > "$T/rsh-exit"
chmod +x "$T/rsh-exit"
mkdir -p "$T/ends/src" && echo x > "$T/ends/src/f"
for prog in rsync sweep-sync; do
	for code in 0 3 7 24 127; do
		rm -rf "$T/ends/dst" "$T/ends/back"
		(cd "$T/ends" && RSH_EXIT=$code $prog -a -e "$T/rsh-exit" src/ "localhost:$T/ends/dst/"
		 echo "push, the shell's $code: $?"
		 RSH_EXIT=$code $prog -a -e "$T/rsh-exit" "localhost:$T/ends/src/" back/
		 echo "pull, the shell's $code: $?") 2>&1 | sed 's/^sweep-sync/rsync/; s/ at main\.c.*//'
		[ -f "$T/ends/dst/f" ] && [ -f "$T/ends/back/f" ] || echo "$prog $code: not copied"
	done > "$T/ends/$prog"
done
check_same "$T/ends/rsync" "$T/ends/sweep-sync" || fail "the remote shell's status after a whole transfer"
(cd "$T" && sweep-sync -a -e " $E" src/ localhost:blank) > /dev/null 2>&1 ||
	fail "-e with a leading blank"
(cd "$T" && RSYNC_RSH=$E sweep-sync -a src/ localhost:by-env) > /dev/null 2>&1 &&
	[ -f "$T/by-env/file" ] || fail "RSYNC_RSH is not the remote shell"

# the far shell expands what rsync leaves it: wildcards (pulled, as many
# trees as they make, DEST then a directory; none matched: the pattern
# itself, not there) and a leading ~ or ~/ (HOME here is $T, so that
# ~/DST is DST); the rest of a name, spaces and quotes, is kept as it is
mkdir -p "$T/src/glob"
printf 'a\n' > "$T/src/glob/a.x" && printf 'b\n' > "$T/src/glob/b.x" && printf 'c\n' > "$T/src/glob/it's [c]"
touch -d 2010-01-01 "$T/src/glob/"* "$T/src/glob"
(
	export HOME="$T"
	both "pulled, a wildcard" -ai -e "$E" 'localhost:src/glob/*.x' DST/
	both "pulled, wildcards, a new DEST" -ai -e "$E" 'localhost:src/glob/a*' 'localhost:src/g?ob/b*' DST
	both "pulled, a wildcard for one file" -ai -e "$E" 'localhost:src/glob/a*' DST
	NO_TREE=1 both "pulled, a wildcard that matches nothing" -ai -e "$E" 'localhost:src/glob/z*' DST/
	both "pulled, a name with a quote and brackets" -ai -e "$E" "localhost:src/glob/it's [c]" DST/
	both "pushed to ~/" -ai -e "$E" src/glob/a.x 'localhost:~/DST/'
	both "pushed to ~/, --mkpath" -ai --mkpath -e "$E" src/glob/a.x 'localhost:~/DST/new/'
	both "pulled from ~/" -ai -e "$E" 'localhost:~/src/glob/' DST/
) || exit 1
rm -rf "$T/src/glob"

# USER@HOST: the remote shell is given "-l USER HOST", as rsync gives it
printf '#!/bin/sh\necho "$1 $2 $3" >> "$0.log"\nexit 1\n' > "$T/logsh"
chmod +x "$T/logsh"
for prog in rsync sweep-sync; do
	(cd "$T" && $prog -a -e "$T/logsh" src/ bob@localhost:x) > /dev/null 2>&1
done
[ "$(sed -n 1p "$T/logsh.log")" = "-l bob localhost" ] &&
	[ "$(sed -n 2p "$T/logsh.log")" = "-l bob localhost" ] ||
	fail "USER@HOST: the shell was given $(cat "$T/logsh.log")"

# operands rsync refuses
usage() {
	(cd "$T" && sweep-sync -a "$@") > /dev/null 2> "$T/err"
	[ $? = 1 ] && grep -q -e "$msg" "$T/err" || { cat "$T/err" >&2; fail "refused: $*"; }
}
msg="cannot both be remote" usage -e "$E" h:src h:dst
msg="one host" usage -e "$E" h:src g:src dst
msg="cannot be mixed" usage -e "$E" src h:src dst
msg="not supported" usage -e "$E" h::module dst
# a host the remote shell would read as an option, as rsync refuses it
msg="hostnames may not start with '-'" usage -e "$E" 'u@-oProxyCommand=touch pwned:x' dst
msg="hostnames may not start with '-'" usage -e "$E" src 'u@-oProxyCommand=touch pwned:x'
[ ! -e "$T/pwned" ] || fail "a host that is an option ran the far command"
