#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# inplace-readonly.sh: written in place (--inplace, --append,
# --append-verify), a file of the user's without write permission for its
# owner is made writable for the copy and given its mode back after, as
# rsync makes it (sweep-sync said "cannot create regular file ...:
# Permission denied", 23, and left it old); another's such file is not
# written, 23, as rsync's. Run as nobody (as the user when not root),
# locally and over a remote shell; set-ID bits the write clears come back.
# Interrupted while it writes, it is left
# with its mode (a first version left it writable: the mode was given back
# only at the end).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
need_cmd setsid "${CC:-cc}"
build_shim tests/sync/stall-shim.c
unprivileged
local_rsh
chmod 755 "$T"
mkdir "$T/u"
chmod 777 "$T/u"

# run NAME SRCMODE DST-OWNER OPTIONS...: rsync and sweep-sync over a 0444
# file ($DSTMODE's) of DST-OWNER's (me: the user running them), then what
# each left
run() {
	name=$1 srcmode=$2 owner=$3
	shift 3
	for prog in rsync sweep-sync; do
		rm -rf "$T/u/src" "$T/u/dst"
		mkdir "$T/u/src" "$T/u/dst"
		printf 'new data\n' > "$T/u/src/f"
		printf 'old\n' > "$T/u/dst/f"
		chmod "$srcmode" "$T/u/src/f"
		touch -d 2011-01-01 "$T/u/dst/f"
		if [ -n "$AS_USER" ]; then
			chown -R nobody "$T/u/src" "$T/u/dst"
			[ "$owner" = me ] || chown root "$T/u/dst/f"
		elif [ "$owner" != me ]; then
			echo "SKIP part: $name: another's file needs root" >&2
			return 0
		fi
		chmod "${DSTMODE:-444}" "$T/u/dst/f" # (after chown, which drops set-ID bits)
		(cd "$T/u" && $AS_USER "$(command -v $prog)" "$@" src/ "${DST_PREFIX:-}dst/") \
			> /dev/null 2> "$T/$prog.err"
		echo "status $?" > "$T/$prog.left"
		stat -c '%a %s' "$T/u/dst/f" >> "$T/$prog.left"
		cat "$T/u/dst/f" >> "$T/$prog.left"
	done
	check_same "$T/rsync.left" "$T/sweep-sync.left" || { cat "$T/sweep-sync.err" >&2; fail "$name"; }
}

for via in local remote; do
	DST_PREFIX=
	rsh=
	[ $via = remote ] && DST_PREFIX=localhost: rsh="-e $RSH"
	for srcmode in 644 444; do
		# shellcheck disable=SC2086
		{
		run "$via, -a --inplace, source $srcmode" $srcmode me -a --inplace $rsh
		run "$via, -rt --inplace, source $srcmode" $srcmode me -rt --inplace $rsh
		run "$via, -a --chmod=u-w --inplace, source $srcmode" $srcmode me -a --chmod=u-w --inplace $rsh
		run "$via, -rt --append, source $srcmode" $srcmode me -rt --append $rsh
		run "$via, -a --append-verify, source $srcmode" $srcmode me -a --append-verify $rsh
		run "$via, -a --inplace, another's file, source $srcmode" $srcmode root -a --inplace $rsh
		}
	done
	# a set-ID file of the user's: the bits the kernel clears as it is
	# written come back, as rsync gives them back (they were lost)
	for DSTMODE in 4555 2555 4755; do
		# shellcheck disable=SC2086
		{
		run "$via, -rt --inplace, a $DSTMODE file" 644 me -rt --inplace $rsh
		run "$via, -rt --append, a $DSTMODE file" 644 me -rt --append $rsh
		}
	done
	unset DSTMODE
done
# interrupted in its first write (stall-shim.c), by SIGINT and SIGTERM
for sig in INT TERM; do
	for prog in rsync sweep-sync; do
		rm -rf "$T/u/src" "$T/u/dst" "$T/u/mark" "$T/leader"
		mkdir "$T/u/src" "$T/u/dst"
		head -c 300000 /dev/urandom > "$T/u/src/f"
		printf 'old\n' > "$T/u/dst/f"
		touch -d 2011-01-01 "$T/u/dst/f"
		chmod 444 "$T/u/dst/f"
		[ -n "$AS_USER" ] && chown -R nobody "$T/u/src" "$T/u/dst"
		STALL_AT=/u/dst/f MARK_AT=$T/u/mark
		# shellcheck disable=SC2086 # $AS_USER: words
		interrupt "$prog-$sig" $sig $AS_USER "$(command -v $prog)" -rt --inplace \
			"$T/u/src/" "$T/u/dst/"
		unset STALL_AT MARK_AT
		echo "$prog, SIG$sig: status $(cat "$T/$prog-$sig.status"), mode $(stat -c %a "$T/u/dst/f")" >&2
		[ "$(stat -c %a "$T/u/dst/f")" = 444 ] || fail "$prog, SIG$sig: left dst/f writable"
	done
done
exit 0
