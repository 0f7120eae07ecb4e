#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/delete-links.sh: -delete under -L and -H beside GNU find: a
# link to a directory is a directory there, its rmdir fails ("Not a
# directory") and it stays, and so does the directory holding it ("not
# empty"), status 1 (sweep-find unlinked the link, and its directory after
# it, status 0); a failure's message names its own errno, not what quoting
# an invalid UTF-8 name left (as nobody, where root would delete it).
. "$top_srcdir/tests/lib.sh"
need_cmd find
compare_names "s/^find: /sweep-find: /"
build() { rm -rf "$T/r" && mkdir -p "$T/r/d" "$T/r/x" && touch "$T/r/d/f" &&
	ln -s ../d "$T/r/x/ld" && ln -s d "$T/r/ld"; }
gnu() { build && (cd "$T/r" && find "$@"); }
ours() { build && (cd "$T/r" && "$sweep_tools/sweep-find" "$@"); }
state() { (cd "$T/r" && find . | sort); }
for args in "-L x -delete" "-H ld -delete" "-L . -name ld -delete" "-L x -name ld -delete"; do
	# shellcheck disable=SC2086
	compare_run gnu ours $args || fail "$args"
	state > "$T/our.state"
	# shellcheck disable=SC2086
	gnu $args > /dev/null 2>&1
	state > "$T/gnu.state"
	check_same "$T/gnu.state" "$T/our.state" || fail "$args: trees"
done
unprivileged
if [ -n "$AS_USER" ]; then
	bad=$(printf 'b\377')
	for tool in find "$sweep_tools/sweep-find"; do
		rm -rf "$T/u" && mkdir -p "$T/u/$bad" && touch "$T/u/$bad/f" && chmod 755 "$T/u" "$T/u/$bad"
		(cd "$T/u" && $AS_USER $tool . -name f -delete) 2>&1 | sed 's/^sweep-find:/find:/' >> "$T/u.$(basename $tool)"
	done
	check_same "$T/u.find" "$T/u.sweep-find" || fail "-delete refused: its errno"
else
	echo "SKIP part: a name nobody may not delete needs root to make it" >&2
fi
