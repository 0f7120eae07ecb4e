#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# refused-link.sh: sweep-sync writes a new file without a name and links
# it in once it is whole, its attributes given before. Where links are
# refused (a security module's rule; refuse-link-shim.c here), it copies
# the file again the way rsync does, under a temporary name renamed into
# place. An attribute a file cannot get (its times, failed by the shim)
# must be reported once, for the copy that stays, whether its first copy
# was linked in, linked under a temporary name renamed over an older
# copy, or thrown away (it was reported for both); every file still
# arrives whole, and the status says attributes failed (23, as rsync's).
. "$top_srcdir/tests/lib.sh"
need_cmd "${CC:-cc}"
build_shim tests/sync/refuse-link-shim.c

# the paths /proc gives, which the shim matches (TMPDIR may be a link)
T=$(cd "$T" && pwd -P)
mkdir -p "$T/src/sub"
for f in one two sub/three; do
	head -c 70000 /dev/urandom > "$T/src/$f"
done
# (sub too: a directory found in DEST the same second as its source's is
# left its time, as rsync leaves it)
touch -d 2011-01-01 "$T/src/one" "$T/src/two" "$T/src/sub/three" "$T/src/sub"

for case in new replace refused; do
	rm -rf "$T/dst" && mkdir "$T/dst"
	refuse=
	case $case in
	replace) # older copies to replace, made without the shim
		mkdir "$T/dst/sub"
		for f in one two sub/three; do echo old > "$T/dst/$f"; done ;;
	refused) refuse=yes ;;
	esac
	status=0
	rm -f "$T/mark"
	SHIM_REFUSE_LINKS=$refuse SHIM_TIMES_FAIL="$T/dst/" SHIM_MARK="$T/mark" \
		LD_PRELOAD="$T/refuse-link-shim.so" \
		"$sweep_tools/sweep-sync" -a "$T/src/" "$T/dst/" 2>"$T/err" || status=$?
	what="$case files" taken=linked
	[ -z "$refuse" ] || taken=refused
	# no file written without a name here (no O_TMPFILE on this file
	# system, no /proc): the case cannot arise
	grep -qx "$taken" "$T/mark" 2>/dev/null ||
		skip "sweep-sync made no file without a name here: nothing to link"
	[ "$status" = 23 ] || { cat "$T/err" >&2; fail "$what: exit $status, not 23"; }
	for f in one two sub/three; do
		cmp -s "$T/src/$f" "$T/dst/$f" || fail "$what: $f did not arrive whole"
	done
	# each file's failure once, the directory's (set by its own path), and
	# rsync's closing line
	{
		for f in one two sub/three sub; do
			echo "sweep-sync: preserving times for '$T/dst/$f': Input/output error"
		done
		echo "sweep-sync error: some files/attrs were not transferred (see previous errors) (code 23)"
	} | sort > "$T/want"
	sort "$T/err" > "$T/got"
	cmp -s "$T/want" "$T/got" || { show_diff "$T/want" "$T/got"; fail "$what: the messages differ"; }
	left=$(find "$T/dst" -name '.*' ! -name .)
	[ -z "$left" ] || fail "$what: a temporary file was left: $left"
done
exit 0
