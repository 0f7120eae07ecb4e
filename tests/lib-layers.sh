#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# libsweep's files call each other in layers: a file calls only files below
# it (the map at the head of lib/internal.h), never one that calls it back.
# The file-level call graph is read off the built objects, each file's
# undefined symbols against the others' defined ones (nm), and must have no
# cycle (tsort finds one). The helpers' pool and what it runs (pool.c,
# task.c, stash.c) know nothing of the walk: no struct sweep there. With -v,
# prints the graph's edges.
. "$top_srcdir/tests/lib.sh"
need_cmd nm tsort

objs=()
for src in "$top_srcdir"/lib/*.c; do
	base=$(basename "$src" .c)
	for o in "$top_builddir/lib/.libs/$base.o" "$top_builddir/lib/$base.o"; do
		if [ -f "$o" ]; then
			objs+=("$o")
			break
		fi
	done
done
[ "${#objs[@]}" -gt 10 ] || fail "libsweep's objects not found under $top_builddir/lib"

# symbol -> file that defines it; then file -> file for every use
for o in "${objs[@]}"; do
	f=$(basename "$o" .o)
	nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print $3, f }'
done | sort -u > "$T/defs"
for o in "${objs[@]}"; do
	f=$(basename "$o" .o)
	nm -u "$o" | awk -v f="$f" '{ print $NF, f }'
done | sort -u > "$T/uses"
join "$T/uses" "$T/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$T/edges"
[ -s "$T/edges" ] || fail "no calls between libsweep's files found"
[ "${1:-}" = -v ] && cat "$T/edges"

# every file appears in tsort's input, so a file on no edge is checked too
{ cat "$T/edges"; for o in "${objs[@]}"; do f=$(basename "$o" .o); echo "$f $f"; done; } |
	tsort > "$T/order" 2> "$T/loop" || true
if [ -s "$T/loop" ]; then
	cat "$T/loop" >&2
	fail "libsweep's files call each other in a cycle (above)"
fi

for f in pool task stash; do
	! grep -n 'struct sweep\b' "$top_srcdir/lib/$f.c" >&2 ||
		fail "lib/$f.c knows of the walk (struct sweep, above)"
done
exit 0
