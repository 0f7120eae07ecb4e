#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dest-symlink.sh: symbolic links planted in the destination, pointing
# outside it, are replaced as rsync replaces them, never written through:
# where a changed file goes, where a new directory goes, and with
# --inplace; the files they point at keep their bytes and times; here and
# over a remote shell, pushed and pulled (the far end's receiver). A link
# that dangles is replaced the same way (--inplace said "not writing
# through dangling symlink", exit 23).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/d" "$T/outside"
echo new > "$T/src/file"
echo new > "$T/src/d/f"
find "$T/src" -exec touch -d 2011-01-01 {} +
PREPARE='mkdir dst; ln -s ../../outside/victim dst/file; ln -s ../../outside dst/d
touch -h -d 2011-01-01 dst dst/file dst/d'
for opts in -ai "-ai --inplace" -aic "-ai -e $RSH pushed" "-ai --inplace -e $RSH pushed" \
	"-ai -e $RSH pulled"; do
	echo precious > "$T/outside/victim"
	touch -d 2001-01-01 "$T/outside/victim" "$T/outside"
	case $opts in
	*pushed) set -- ${opts% pushed} src/ localhost:DST ;;
	*pulled) set -- ${opts% pulled} localhost:src/ DST ;;
	*) set -- $opts src/ DST ;;
	esac
	# shellcheck disable=SC2086
	both "$opts" "$@"
	[ "$(cat "$T/outside/victim")" = precious ] || fail "$opts: written through a link"
	[ ! -e "$T/outside/f" ] || fail "$opts: a file made through a link"
	[ "$(stat -c %Y "$T/outside/victim")" = "$(date -d 2001-01-01 +%s)" ] ||
		fail "$opts: times set through a link"
done
PREPARE='mkdir dst; ln -s nowhere dst/file; touch -h -d 2011-01-01 dst dst/file'
for opts in -ai "-ai --inplace"; do
	# shellcheck disable=SC2086
	both "$opts, a dangling link" $opts src/ DST
done
