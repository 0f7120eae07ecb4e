#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# archive-ops.sh: the operations that change an archive file in place, each
# run by GNU tar and sweep-tar on copies of the same archive, from the same
# tree: -r (at the end-of-archive blocks; the record they begin in written
# again; --totals), -u (members newer than the archive's copy, directories
# gone through as GNU tar goes through them, archives of either tar), -A
# (archives copied whole), --delete (by name, below a directory, with and
# without --wildcards, from standard input to standard output, nothing
# selected: the file untouched), -i (on -t, -x, --delete, -d), -W (after -c,
# -r, -u; "Verify " under -v): the same output, messages and status, and
# archives of the same bytes where GNU's are fixed (one file's members), or
# else that both tars list and extract alike; and what GNU tar refuses:
# compressed archives, "-f -", -W with -t or -f -.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
mkdir -p "$src/d/sub" "$src/e"
printf 'a\n' > "$src/d/a"
printf 'b\n' > "$src/d/sub/b"
printf 'c\n' > "$src/c"
printf 'f\n' > "$src/e/f"
printf 'g\n' > "$src/g"
seq 1 20000 > "$src/big"
ln -s a "$src/d/link"
find "$src" -exec touch -h -d '2020-01-01 00:00:00 UTC' {} +
(cd "$src" && tar -cf "$T/base.tar" d c) || fail "GNU tar -c"
(cd "$src" && tar -cf "$T/files.tar" c g) || fail "GNU tar -c"

# ops WHAT TEMPLATE ARGS: GNU tar and sweep-tar, from $src, each on its copy
# of TEMPLATE ($T/g.tar, $T/s.tar; none when TEMPLATE is -): the same
# output, messages and status, and the same archive bytes.
gnu_op() { within src tar -f "$T/g.tar" "$@"; }
our_op() { within src sweep_tar -f "$T/s.tar" "$@"; }
ops_run() {
	_what=$1 _tpl=$2
	shift 2
	rm -f "$T/g.tar" "$T/s.tar"
	if [ "$_tpl" != - ]; then cp "$_tpl" "$T/g.tar" && cp "$_tpl" "$T/s.tar"; fi
	compare_run ${OPS_FLAGS:-} gnu_op our_op "$@" || fail "$_what"
}
ops() {
	ops_run "$@"
	[ ! -e "$T/g.tar" ] && [ ! -e "$T/s.tar" ] && return 0
	cmp -s "$T/g.tar" "$T/s.tar" || { echo "in: $1" >&2; fail "$1: archives differ"; }
}
# same_tree WHAT TEMPLATE ARGS: as ops, and the archives list alike (-tv,
# sorted) and extract to the same trees (directories' times aside), where
# member order differs.
same_tree() {
	ops_run "$@"
	tar -tvf "$T/g.tar" | sort > "$T/want"
	tar -tvf "$T/s.tar" | sort > "$T/got"
	check_same "$T/want" "$T/got"
	for side in g s; do
		rm -rf "$T/x-$side" && mkdir "$T/x-$side" && tar -xf "$T/$side.tar" -C "$T/x-$side"
	done
	# (a directory's time after extraction depends on the members' order)
	manifest -R "$T/x-g" | awk '$2 == "d" { $6 = "-" } { print }' > "$T/want"
	manifest -R "$T/x-s" | awk '$2 == "d" { $6 = "-" } { print }' > "$T/got"
	check_same "$T/want" "$T/got"
}

# -r
ops "-r" "$T/files.tar" -r big
ops "-r -v, two names" "$T/files.tar" -rv e/f d/a
ops "-r -C" "$T/files.tar" -r -C e f
OPS_FLAGS="-e s/(.*//" ops "-r --totals" "$T/files.tar" -r big --totals
ops "-r, a missing name" "$T/files.tar" -r nothere c
ops "-r, no such archive" - -r c g
ops "-r -b 4" "$T/files.tar" -r -b 4 big
same_tree "-r, a directory" "$T/files.tar" -r d
ops "-r, no name" "$T/files.tar" -r
# an archive written with another record size, and one with no end blocks
head -c 2048 "$T/files.tar" > "$T/short.tar"
ops "-r, no end-of-archive blocks" "$T/short.tar" -r big
# -u: the members' times decide; a directory is gone through by name
ops "-u, nothing newer" "$T/files.tar" -u c g
touch -d '2021-01-01 UTC' "$src/g"
ops "-u, one newer" "$T/files.tar" -uv c g
ops "-u, not in the archive" "$T/files.tar" -u c big
# the members' names as --transform makes them (c read as x: not there,
# so c is added, under its new name)
ops "-u --transform" "$T/files.tar" -uv --transform=s/c/x/ c g
same_tree "-u, a directory, nothing newer" "$T/base.tar" -u d c
printf 'new\n' > "$src/d/sub/new"
touch -d '2021-01-01 UTC' "$src/d/a"
same_tree "-u, a directory" "$T/base.tar" -uv d
same_tree "-u -C" "$T/base.tar" -u -C d sub
# An archive of sweep-tar's own stores a directory after what it holds:
# sweep-tar -u on it adds what GNU tar -u adds to GNU tar's archive of the
# same files (GNU tar -u on sweep-tar's order drops a directory's name at
# the first member below it that is not newer, and adds nothing of it).
# own_c [OPTION]: GNU tar's and sweep-tar's archives of d and c; own_u WHAT
# ARGS: each updated by its tar, the same members added.
own_c() {
	(cd "$src" && tar -cf "$T/own-g.tar" "$@" d c && sweep_tar -cf "$T/own-s.tar" "$@" d c) ||
		fail "GNU tar or sweep-tar -c $*"
}
own_u() {
	_what=$1
	shift
	cp "$T/own-g.tar" "$T/g.tar" && cp "$T/own-s.tar" "$T/s.tar" || fail "cp"
	compare_run gnu_op our_op "$@" || fail "$_what"
	for side in g s; do
		# (the members added: those after the ones -c wrote)
		tar -tvf "$T/$side.tar" | tail -n +$(( $(tar -tf "$T/own-$side.tar" | wc -l) + 1 )) |
			sort > "$T/added-$side" || fail "$_what: -tv"
	done
	check_same "$T/added-g" "$T/added-s"
}
own_c --mtime=@0
own_u "-u, sweep-tar's archive, all newer" -uv d c
rm "$src/d/sub/new"
touch -d '2020-01-01 00:00:00 UTC' "$src/d/a" "$src/g" "$src/d/sub"
own_c
own_u "-u, sweep-tar's archive, nothing newer" -uv d c
# one change two levels down, and a file new there
touch -d '2021-01-01 UTC' "$src/d/sub/b"
printf 'new\n' > "$src/d/sub/new"
own_u "-u, sweep-tar's archive, a change below" -uv d c
[ -s "$T/added-s" ] || fail "-u, sweep-tar's archive: nothing added"
rm "$src/d/sub/new"
touch -d '2020-01-01 00:00:00 UTC' "$src/d/sub/b" "$src/d/sub"
# -A
ops "-A" "$T/files.tar" -A "$T/base.tar"
ops "-A, two, -v" "$T/files.tar" -Av "$T/base.tar" "$T/files.tar"
ops "-A, a missing one" "$T/files.tar" -A nothere "$T/base.tar"
ops "-A, no such archive" - -A "$T/base.tar"
cp "$T/files.tar" "$src/e/copy.tar"
ops "-A -C" "$T/base.tar" -A -C e copy.tar
# what -A makes reads as one archive
tar -tf "$T/s.tar" > "$T/got"
{ tar -tf "$T/base.tar"; tar -tf "$T/files.tar"; } > "$T/want"
check_same "$T/want" "$T/got"
# --delete
(cd "$src" && tar -cf "$T/all.tar" d c g e big && tar -rf "$T/all.tar" c) || fail "GNU tar -r"
for n in c d d/sub d/sub/ d/sub/b big e/f; do
	ops "--delete $n" "$T/all.tar" --delete "$n"
done
ops "--delete, two" "$T/all.tar" --delete g d/a
ops "--delete, missing" "$T/all.tar" --delete nothere c
ops "--delete, nothing selected" "$T/all.tar" --delete nothere
ops "--delete 'd/*'" "$T/all.tar" --delete 'd/*'
ops "--delete --wildcards 'd/*'" "$T/all.tar" --delete --wildcards 'd/*'
ops "--delete --wildcards '*b'" "$T/all.tar" --delete --wildcards '*b*'
ops "--delete -b 1" "$T/all.tar" --delete -b 1 c
ops "--delete, no such archive" - --delete c
# --occurrence: the Nth member of each name (all.tar has c twice)
for n in 1 2 3; do
	ops "--delete --occurrence=$n" "$T/all.tar" --delete --occurrence=$n c
	ops "-t --occurrence=$n" "$T/all.tar" -tv --occurrence=$n c d
	ops "-x --occurrence=$n" "$T/all.tar" -xO --occurrence=$n c
done
ops "-t --occurrence" "$T/all.tar" -t --occurrence c nothere
ops "-t --occurrence, no names" "$T/all.tar" -t --occurrence
ops "-t --occurrence=x" "$T/all.tar" -t --occurrence=x c
ops "-r --occurrence" "$T/all.tar" -r --occurrence c
gnu_filter() { within src tar --delete -f - "$@" < "$T/all.tar"; }
our_filter() { within src sweep_tar --delete -f - "$@" < "$T/all.tar"; }
compare_run -k gnu_filter our_filter d || fail "--delete -f -"
compare_run -k gnu_filter our_filter nothere || fail "--delete -f -, nothing selected"
# -i: archives end to end
cat "$T/files.tar" "$T/base.tar" > "$T/two.tar"
ops "-t" "$T/two.tar" -t
ops "-ti" "$T/two.tar" -ti
ops "-tvi" "$T/two.tar" -tvi
ops "--delete -i" "$T/two.tar" --delete -i d/a c
ops "-di" "$T/two.tar" -di
ops "-r after two archives" "$T/two.tar" -r big
rm -rf "$T/xi-gnu" "$T/xi-our" && mkdir "$T/xi-gnu" "$T/xi-our"
tar -xif "$T/two.tar" -C "$T/xi-gnu" && sweep_tar -xif "$T/two.tar" -C "$T/xi-our" || fail "-xi"
manifest -R "$T/xi-gnu" > "$T/want"
manifest -R "$T/xi-our" > "$T/got"
check_same "$T/want" "$T/got"
# -W
same_tree "-cW" - -cW d c
same_tree "-cWv" - -cWv d c
ops "-rW" "$T/files.tar" -rW big
ops "-rWv" "$T/files.tar" -rWv big
printf 'changed\n' > "$src/d/a"
ops "-rW, the archive differs" "$T/base.tar" -rW g
printf 'a\n' > "$src/d/a"
touch -d '2020-01-01 00:00:00 UTC' "$src/d/a" "$src/d"
# refused as GNU tar refuses them
gzip -c "$T/files.tar" > "$T/files.tgz"
for op in -r -u -A --delete; do
	ops "$op on a compressed archive" "$T/files.tgz" $op c
	ops "$op -z" "$T/files.tgz" $op -z c
done
ops "-cWz" - -cWz c
ops "-tW" "$T/files.tar" -tW
gnu_stdio() { within src tar "$@"; }
our_stdio() { within src sweep_tar "$@"; }
for op in -r -u -A; do
	compare_run gnu_stdio our_stdio $op -f - c || fail "$op -f -"
done
compare_run gnu_stdio our_stdio -cW -f - c || fail "-cW -f -"
compare_run gnu_stdio our_stdio -cf "$T/x.tar" -f "$T/y.tar" c || fail "-f twice"
rm -f "$T/x.tar" "$T/y.tar"
exit 0
