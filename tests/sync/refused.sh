#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# refused.sh: the rsync options sweep-sync(1) lists as not supported, each
# a usage error (exit 1; its first line names the option, as getopt's
# "invalid option -- 'X'" or "unrecognized option '--X'") before anything
# is made; and each of them is in that list (-K, --munge-links and
# --copy-devices were refused without a word in the page).
. "$top_srcdir/tests/lib.sh"
mkdir -p "$T/src" && echo data > "$T/src/f"
# (the page's words, its fonts and escapes taken out)
sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\ / /g' "$top_srcdir/man/sweep-sync.1" > "$T/page"
grep -q 'usage error, status 1' "$T/page" || fail "the page's list of refused options not found"
for opt in -C --copy-unsafe-links -d -E -y -U -J -T --no-implied-dirs --super --fake-super \
	--iconv=utf8 --debug=all --msgs2stderr --stop-after=5 --stop-at=23:59 -k -K \
	--munge-links --copy-devices --write-devices --list-only --delay-updates; do
	name=${opt%%=*}
	grep -q -- "$name[,. /]" "$T/page" || fail "$name: not in sweep-sync(1)'s list"
	sweep-sync -a "$opt" "$T/src/" "$T/dst" > "$T/out" 2> "$T/err"
	st=$?
	[ $st = 1 ] || fail "$opt: status $st, not 1"
	[ ! -e "$T/dst" ] || fail "$opt: DEST was made"
	[ ! -s "$T/out" ] || fail "$opt: said on standard output: $(cat "$T/out")"
	case $opt in
	--*) said="unrecognized option '$opt'" ;;
	*) said="invalid option -- '${opt#-}'" ;;
	esac
	head -n 1 "$T/err" | grep -qF -- "$said" || fail "$opt: the option not named: $(cat "$T/err")"
done
exit 0
