#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# incremental-extract.sh: -xG beside GNU tar on dumpdirs that the usual
# level-0/level-1 round (incremental.sh) does not make: 'N' entries, what
# the dump left out (--exclude, --no-recursion), stay whatever they are
# (they were removed with all they held); renames of an archive made with
# -P (absolute names) or crafted with '..' act inside the directory
# extracted into, their names stripped as member names are (they renamed
# and removed outside it); a malformed dumpdir is said so and acted on
# not at all. Messages, status and trees compared; the trees outside
# checked untouched.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar
need_cmd perl

# 'N': a tree dumped with a directory excluded, extracted over itself
mkdir -p "$T/live/src/cache/deep" "$T/live/src/sub/inner"
echo 1 > "$T/live/src/a"
echo precious > "$T/live/src/cache/deep/f"
echo 2 > "$T/live/src/sub/inner/g"
(cd "$T/live" && tar -cf "$T/in.tar" -g "$T/snap-ex" --exclude=cache src) || fail "GNU tar -g --exclude"
dest=live
extract_over "-G over what --exclude left out" -xGv
(cd "$T/live" && tar -cf "$T/in.tar" -g "$T/snap-nr" --no-recursion src) ||
	fail "GNU tar -g --no-recursion"
extract_over "-G over what --no-recursion left out" -xGv
extract_over "-G over what --no-recursion left out, --warning=no-bad-dumpdir" -xG \
	--warning=no-bad-dumpdir

# renames of a dump made with -P, extracted without it into restore/:
# GNU strips the names ("Removing leading '/'"), the live tree stays
mkdir -p "$T/abs/live/old" "$T/abs/restore"
echo data > "$T/abs/live/old/f"
(cd "$T/abs" && tar -cPf "$T/l0.tar" -g "$T/snap-abs" "$T/abs/live") || fail "GNU tar -cP -g 0"
sleep 1
mv "$T/abs/live/old" "$T/abs/live/new"
(cd "$T/abs" && tar -cPf "$T/l1.tar" -g "$T/snap-abs" "$T/abs/live") || fail "GNU tar -cP -g 1"
mv "$T/abs/live/new" "$T/abs/live/old"
(cd "$T/abs/live" && find . | sort) > "$T/live.before"
restore_gnu() { within rg tar "$@"; }
restore_our() { within rs sweep_tar "$@"; }
# the directories made on the way to $T/abs, which no member names, have
# the time they were made: one time for both sides (a run that crossed a
# second's turn failed)
implied_times() {
	for side in rg rs; do
		p=$T/$side
		for comp in $(echo "${T#/}/abs" | tr / ' '); do
			p=$p/$comp
			touch -d 2000-01-01 "$p"
		done
	done
}
rm -rf "$T/rg" "$T/rs" && mkdir "$T/rg" "$T/rs"
for a in l0.tar l1.tar; do
	compare_run -k restore_gnu restore_our -xGvf "$T/$a" || fail "-xG of the -P dump $a"
	(cd "$T/abs/live" && find . | sort) > "$T/live.after"
	check_same "$T/live.before" "$T/live.after" || fail "$a: the live tree was changed"
done
implied_times
manifest -R "$T/rg" > "$T/want"
manifest -R "$T/rs" > "$T/got"
check_same "$T/want" "$T/got"

# the same dumps read without -G: a directory's dumpdir is passed over
# (it was written to the directory: "Cannot write", exit 2)
rm -rf "$T/rg" "$T/rs" && mkdir "$T/rg" "$T/rs"
for a in l0.tar l1.tar; do
	compare_run -k restore_gnu restore_our -xvf "$T/$a" || fail "-x of the -g dump $a, no -G"
done
implied_times
manifest -R "$T/rg" > "$T/want"
manifest -R "$T/rs" > "$T/got"
check_same "$T/want" "$T/got" || fail "-xG of the -P dumps: trees"

# a crafted 'D' member (GNU's format, raw): NAME and the dumpdir given
crafted_tar() { # ARCHIVE MEMBER...: each MEMBER "D NAME DUMPDIR" (its entries
	# separated by '|') or "L NAME TARGET" (a symbolic link), in GNU's format, raw
	perl -e '
		my $out = shift;
		open(my $f, ">", $out) or die;
		for my $m (@ARGV) {
			my ($type, $name, $rest) = split(/ /, $m, 3);
			my $data = $type eq "D" ? join("", map { "$_\0" } split(/\|/, $rest, -1)) . "\0" : "";
			my $h = pack("a100 a8 a8 a8 a12 a12 a8 a1 a100 a8 a32 a32 a8 a8 a155 a12",
				$name, "0000755", "0000000", "0000000", sprintf("%011o", length $data),
				"14000000000", " " x 8, $type eq "D" ? "D" : "2", $type eq "L" ? $rest : "",
				"ustar  ", "root", "root", "", "", "", "");
			my $sum = 0;
			$sum += $_ for unpack("C*", $h);
			substr($h, 148, 8) = sprintf("%06o\0 ", $sum);
			print $f $h, $data, "\0" x ((512 - length($data) % 512) % 512);
		}
		print $f "\0" x 1024;
	' "$@"
}
dumpdir_tar() { crafted_tar "$1" "D $2 $3"; } # ARCHIVE NAME DUMPDIR
mkdir -p "$T/crafted/t/src" "$T/crafted/outside/od"
echo OUT > "$T/crafted/outside/od/file"
dumpdir_tar "$T/in.tar" src/ 'R../outside/od|Tsrc/stolen|Ystolen'
dest=crafted/t
extract_over "-G of a rename from '../'" -xGv
(cd "$T/crafted" && find outside | sort | tr '\n' ' ') > "$T/outside"
[ "$(cat "$T/outside")" = "outside outside/od outside/od/file " ] ||
	fail "-G of a rename from '../': outside changed: $(cat "$T/outside")"
# nor through a link the archive made: s to a directory outside, then a
# dumpdir moving s/f in and another removing it (outside/f was deleted,
# exit 0; GNU tar cannot rename through its placeholder for s, exit 2)
rm -rf "$T/via" && mkdir -p "$T/via/t" "$T/via/outside" && echo OUT > "$T/via/outside/f"
crafted_tar "$T/via.tar" "D e/ " "L s $T/via/outside" "D e/ Rs/f|Te/f|Yf" "D e/ "
for prog in tar sweep_tar; do
	(cd "$T/via/t" && $prog -xGf "$T/via.tar") > /dev/null 2>&1
	st=$?
	[ $st = 2 ] || fail "$prog -G through a link the archive made: status $st"
	[ "$(cat "$T/via/outside/f" 2>&1)" = OUT ] || fail "$prog -G through a link: outside/f changed"
	rm -rf "$T/via/t" && mkdir "$T/via/t"
done
echo keep > "$T/crafted/t/src/keep"
for dd in 'Rsrc/keep' 'Tsrc/x|Ykeep' 'R|Tsrc/x' 'Xsrc|Xsrc|Ykeep' 'Rsrc/keep|Ysrc'; do
	dumpdir_tar "$T/in.tar" src/ "$dd"
	extract_over "-G of a malformed dumpdir: $dd" -xGv
done
# an 'X' never used: said, and the dumpdir acted on (messages only: GNU
# tar makes the temporary directory the 'X' is for, and leaves it there)
dumpdir_tar "$T/in.tar" src/ 'Xsrc|Ykeep'
rm -rf "$T/g" "$T/s" && cp -a "$T/$dest" "$T/g" && cp -a "$T/$dest" "$T/s"
compare_run -k extract_gnu extract_our -xGv || fail "-G of a dumpdir with an 'X' never used"
[ -f "$T/s/src/keep" ] || fail "-G of a dumpdir with an 'X' never used: src/keep removed"
