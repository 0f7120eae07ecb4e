#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# attr-faults.sh: -X and -A where the attributes cannot be had, or are not
# the user's, or differ only where the mode says it. A source file whose
# attribute list cannot be read (an LD_PRELOAD shim, eio-shim.c: EIO from
# the listing) leaves its copy's attributes as they are, said, status 23,
# here, pulled and pushed (the far end's sender tells the receiver it does
# not know them; an empty set would have had them all taken off); one whose
# file system has none (ENOTSUP) is no crash. A file with an ACL whose
# copy's mode a --chmod changed is the same file to rsync: no 'a' and
# --link-dest links it. As a user, only user.* attributes are copied and
# compared (a security.* one of root's is left out in silence, as rsync
# leaves it), and a group the user is not in is neither set nor said.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd setfattr getfattr setfacl "${CC:-cc}"
build_shim tests/faults/eio-shim.c
local_rsh
mkdir -p "$T/src"
echo a > "$T/src/f"
echo b > "$T/src/g"
setfattr -n user.a -v 1 "$T/src/f" 2>/dev/null || skip "no user xattrs here"
setfacl -m u:nobody:rw "$T/src/f" || skip "no ACLs here"
touch -d 2011-01-01 "$T/src/f" "$T/src/g" "$T/src" # (not this second: see sync_tree)
attrs() { getfattr -d -m - "$1" 2>/dev/null | grep -v '^#' | grep -v '^$' | sort; }

# the source's list cannot be read: the copy's attributes stay
for how in here pulled pushed; do
	rm -rf "$T/dst" && rsync -aAX "$T/src/" "$T/dst/"
	attrs "$T/dst/f" > "$T/before"
	case $how in
	here) set -- src/ dst/ ;;
	pulled) set -- -e "$RSH" localhost:src/ dst/ ;;
	pushed) set -- -e "$RSH" src/ localhost:dst/ ;;
	esac
	(cd "$T" && EIO_LISTXATTR=/src/f LD_PRELOAD="$T/eio-shim.so" sweep-sync -aiAX "$@") \
		> "$T/out" 2> "$T/err"
	status=$?
	[ $status = 23 ] || { cat "$T/err" >&2; fail "$how, unreadable list: status $status, not 23"; }
	grep -q "attributes of .*f.*Input/output error" "$T/err" ||
		fail "$how, unreadable list: not said: $(cat "$T/err")"
	attrs "$T/dst/f" > "$T/after"
	check_same "$T/before" "$T/after" || fail "$how, unreadable list: the copy's attributes moved"
done
# a source file system without attributes: no crash, the run ends
rm -rf "$T/dst" && rsync -aAX "$T/src/" "$T/dst/"
(cd "$T" && EIO_LISTXATTR=/src/f EIO_LISTXATTR_ERRNO=95 LD_PRELOAD="$T/eio-shim.so" \
	sweep-sync -aiX src/ dst/) > "$T/out" 2> "$T/err"
status=$?
[ $status -lt 128 ] || fail "ENOTSUP: killed by signal $((status - 128))"

# --chmod on a file with an ACL: the mask is the mode's group bits
export PREPARE='rsync -aA ../src/ dst/'
both "-aiA --chmod=g-w" -aiA --chmod=g-w src/ DST
KEEP=1 both "-aiA --chmod=g-w, again" -aiA --chmod=g-w src/ DST
export PREPARE='rsync -aA --chmod=g-w ../src/ prev/'
both "--link-dest, -aiA --chmod=g-w" -aiA --chmod=g-w --link-dest=../prev src/ DST
for side in R O; do
	[ "$(stat -c %h "$T/$side/dst/f")" = 2 ] || fail "$side: --chmod with an ACL: not linked"
done
unset PREPARE

# a user's run: user.* only
unprivileged
if [ -n "$AS_USER" ] && setfattr -n security.sweep -v root "$T/src/g" 2>/dev/null; then
	chmod 755 "$T"
	chown -R nobody "$T/src"
	mkdir "$T/u" && chown nobody "$T/u"
	for prog in rsync sweep-sync; do
		(cd "$T/u" && $AS_USER $prog -aiX ../src/ "$prog/" && $AS_USER $prog -aiX ../src/ "$prog/") \
			> "$T/u.$prog.out" 2> "$T/u.$prog.err"
		echo "status $?" >> "$T/u.$prog.out"
		sed -i "s/^$prog/PROG/; s|$prog/|DST/|g; s/directory $prog\$/directory DST/" \
			"$T/u.$prog.out" "$T/u.$prog.err"
		# (sweep-sync's lines come in disk order, which a cached or
		# uncached walk may take differently: sorted, as tree.sh's both)
		sort -o "$T/u.$prog.out" "$T/u.$prog.out"
	done
	check_same "$T/u.rsync.out" "$T/u.sweep-sync.out" || fail "as a user: output"
	check_same "$T/u.rsync.err" "$T/u.sweep-sync.err" || fail "as a user: messages"
	attrs "$T/u/rsync/g" > "$T/ur"
	attrs "$T/u/sweep-sync/g" > "$T/uo"
	check_same "$T/ur" "$T/uo" || fail "as a user: attributes"
	! grep -q security "$T/uo" || fail "as a user: security.* copied"
	attrs "$T/u/sweep-sync/f" | grep -q user.a || fail "as a user: user.* not copied"
else
	echo "a user's run: not checked (not root, or no security.* attributes here)"
fi
exit 0
