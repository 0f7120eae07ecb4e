#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# errors.sh: what sweep-cp refuses or cannot do, beside GNU cp: a missing
# source, a directory without -r, a directory into itself, a file onto
# itself, two operands of one name ("will not overwrite just-created"),
# usage errors, and (as nobody) an unreadable file and directory:
# the same messages, exit status 1, and the rest copied. --parents with
# -T (it copied nothing, exit 0); a source ending in ".." goes into
# TARGET/. (it went into TARGET/.., outside the target, over what was
# there). A directory operand met again is not copied twice.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
TIMES=no # the -a below copies unreadable directories: GNU leaves their times
mkdir -p "$T/src/d/e" "$T/other"
printf 'a\n' > "$T/src/f"
printf 'b\n' > "$T/src/d/g"
both "missing source" -r nothere src DST
both "missing source among others" -r src nothere DST
both "directory without -r" src DST
both "directory without -r, several" src/f src/d DST
PREPARE='mkdir dst' both "target not a directory" src/f src/d dst/none
PREPARE='touch dst' both "target a file" src/f src/d DST
both "missing operand"
both "missing destination" src
both "bad --sparse" --sparse=sometimes src/f DST
both "bad --reflink" --reflink=maybe src/f DST
both "bad --preserve" --preserve=mode,colour src/f DST
both "bad --backup" --backup=daily src/f DST
both "unknown option" --colour src/f DST
both "-t and -T" -t src -T src/f DST
both "-t not a directory" -t src/f src/d
both "-T with three" -T src/f src/d DST
both "--parents into a file" --parents src/f DST
both "--parents with -T" -r --parents -T src/d DST
PREPARE='mkdir dst && echo PRECIOUS > f' both "a source ending in .." -rv src/d/.. DST
PREPARE='mkdir dst && echo PRECIOUS > f' both "-t, a source ending in ../" -r -t DST src/d/../
both "--preserve=context" --preserve=context src/f DST
# two operands of one name into a directory: the second does not write
# over the first's copy (it did, in silence), under -n and -u not said;
# directories of one name are merged
mkdir -p "$T/twin/a/d" "$T/twin/b/d"
printf '1\n' > "$T/twin/a/f"
printf '2\n' > "$T/twin/b/f"
printf 'x1\n' > "$T/twin/a/d/x"
printf 'x2\n' > "$T/twin/b/d/x"
for opts in -v -b -n -f "-r -s" "-r -l"; do
	PREPARE='mkdir dst' both "two operands of one name, $opts" $opts "$T/twin/a/f" "$T/twin/b/f" DST
done
PREPARE='mkdir dst' both "two directories of one name" -r twin/a/d twin/b/d DST
# a directory operand met again, below a later operand or as one by another
# name: GNU's "will not create hard link ... to directory", exit 1 (it was
# copied twice, exit 0); links followed there (-L, -H for an operand) copy
# it again; one met first below an operand is copied twice
mkdir -p "$T/twice/d/e"
printf 'x\n' > "$T/twice/d/e/x"
ln -s d "$T/twice/ld"
for opts in -r -a -rH -rL; do
	PREPARE='mkdir dst' both "a directory operand again below another, $opts" \
		$opts twice/d/e twice DST
	PREPARE='mkdir dst' both "a directory operand again by another name, $opts" \
		$opts twice/d twice/ld twice/d/. DST
done
PREPARE='mkdir dst' both "a directory below an operand, then an operand" -r twice twice/d DST
# --parents gives an operand met again the place of its first copy: no "will
# not create hard link X to directory X" (of itself, exit 1); copied into
# it, exit 0 (not beside GNU cp 9.1: "cannot create directory 'DST/twice':
# File exists", the rest of that operand left out)
rm -rf "$T/OUR" && mkdir -p "$T/OUR/dst"
(cd "$T" && sweep-cp -r --parents twice/d/e twice OUR/dst) 2> "$T/err" ||
	fail "--parents, an operand met again in its place: status $?, $(cat "$T/err")"
[ -L "$T/OUR/dst/twice/ld" ] && [ -f "$T/OUR/dst/twice/d/e/x" ] ||
	fail "--parents, an operand met again in its place: not all copied"
both "-l and -s" -ls src/f DST
# these two run in place: the destination is inside the source
NO_TREE=1 both "into itself" -r src src/d/e
NO_TREE=1 both "onto itself" src/f src/f
NO_TREE=1 both "into itself, -T" -rT src src

unprivileged
chmod 755 "$T"
mkdir -p "$T/u/ok" "$T/u/noread/in" "$T/u/noexec"
printf 'x\n' > "$T/u/ok/f"
printf 'y\n' > "$T/u/noread/in/g"
printf 'z\n' > "$T/u/secret"
printf 'w\n' > "$T/u/noexec/h"
[ "$(id -u)" = 0 ] && chown -R nobody "$T/u"
chmod 000 "$T/u/noread" "$T/u/secret"
chmod 600 "$T/u/noexec"
chmod 777 "$T"
PREPARE='chmod 777 .' WRAP="$AS_USER" TIMES=no both "unreadable, as nobody" -r u DST
PREPARE='chmod 777 .' WRAP="$AS_USER" TIMES=no both "unreadable, as nobody, -a" -a u DST
# -v names a copy before its source is found unreadable, as GNU's
PREPARE='chmod 777 .' WRAP="$AS_USER" TIMES=no both "unreadable, as nobody, -v" -rv u DST
# ... but not where -n or -u keep what is there: GNU looks no further,
# silently (it said the copy and the error, exit 1)
for opt in -nv -uv; do
	PREPARE='chmod 777 . && mkdir dst && echo old > dst/secret && touch -d 2030-01-01 dst/secret && chmod 777 dst' \
		WRAP="$AS_USER" TIMES=no both "unreadable, kept by $opt, as nobody" $opt u/secret DST
done
# an existing copy the user cannot write: GNU's "cannot create regular file"
PREPARE='chmod 777 . && mkdir -p dst/ok && chmod 777 dst dst/ok && echo old > dst/ok/f && chmod 444 dst/ok/f' \
	WRAP="$AS_USER" TIMES=no both "an existing copy not writable, as nobody" -r u/ok DST
# -i over a copy the user may not write: GNU's question with its mode
# ("unwritable ... try anyway?", "replace ..., overriding mode" under -f or
# --remove-destination; it was "overwrite ...?")
printf 'n\n' > "$T/no"
for opt in -ri -rif "-ri --remove-destination"; do
	# shellcheck disable=SC2086 # the options are words
	PREPARE='chmod 777 . && mkdir -p dst/ok && chmod 777 dst dst/ok && echo old > dst/ok/f && chmod 444 dst/ok/f' \
		STDIN="$T/no" WRAP="$AS_USER" TIMES=no both "$opt, an unwritable copy, as nobody" $opt u/ok DST
done
both "-t missing" -t nothere src/f
# a name that is no text in the locale: the cause said is the call's (it
# was EILSEQ, "Invalid or incomplete multibyte or wide character", left
# behind by the quoting of the name)
bad=$(printf 'x\377')
mkdir "$T/bn" && echo b > "$T/bn/$bad" && chmod 755 "$T/bn"
for loc in C C.UTF-8; do
	WRAP="env LC_ALL=$loc" both "a missing name, invalid UTF-8, $loc" "no$bad" DST
	PREPARE='chmod 777 . && mkdir dst && chmod 555 dst' WRAP="$AS_USER env LC_ALL=$loc" TIMES=no \
		both "a name not made, invalid UTF-8, $loc" "bn/$bad" DST
done

# a new name ending in a slash for what is not a directory: GNU says it
# cannot be made (a regular file was made under the name without it); a
# file there already is "cannot stat", one below no directory "No such
# file or directory"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	rm -rf "${T:?}/slash" && mkdir -p "$T/slash/e" && cd "$T/slash" || fail "no scratch directory"
	echo z > file && ln -s file sl && mkfifo fifo
	for args in "file n1/" "file e/new/" "-P sl n3/" "-a fifo n4/" "--strip-trailing-slashes file n5/" \
	            "file sl/" "file file/" "file none/x/" "-a fifo none/x/"; do
		# shellcheck disable=SC2086 # the arguments are words
		{ $prog $args 2>&1; echo "status $?"; } | sed 's/^sweep-cp:/cp:/'
	done > "$T/$side.slash"
	find . | sort >> "$T/$side.slash"
	cd "$T" || fail "no scratch directory"
done
check_same "$T/GNU.slash" "$T/OUR.slash"

# -rL through a link to a directory above it in the source: GNU's words,
# "cannot copy cyclic symbolic link", the rest copied, exit 1
mkdir -p "$T/cyc/src/d" && ln -s .. "$T/cyc/src/d/up" && echo f > "$T/cyc/src/d/f"
for side in GNU OUR; do
	prog=cp
	[ $side = OUR ] && prog=sweep-cp
	(cd "$T/cyc" && $prog -rL src "$side") > "$T/cyc/$side.out" 2>&1
	echo "status $?" >> "$T/cyc/$side.out"
	# (copying d itself, met again below its link: GNU's words too; it
	# was "file system loop detected")
	(cd "$T/cyc" && $prog -rL src/d "$side/d-only") >> "$T/cyc/$side.out" 2>&1
	echo "status $?" >> "$T/cyc/$side.out"
	sed -i 's/^sweep-cp:/cp:/' "$T/cyc/$side.out"
	(cd "$T/cyc/$side" && find . | sort) >> "$T/cyc/$side.out"
done
check_same "$T/cyc/GNU.out" "$T/cyc/OUR.out" || fail "-rL, a cyclic link"

# -rL through a link that leads back above the copy's source: the copy is
# met again under the link, and not entered ("into itself"), the rest
# copied, exit 1 (it went on for ever: GNU cp stops at PATH_MAX, "File
# name too long", some 1,600 levels down; sweep-cp has no such limit)
mkdir -p "$T/loopy/w/a" && ln -s .. "$T/loopy/w/a/up" && echo f > "$T/loopy/w/a/f"
(cd "$T/loopy/w" && timeout 60 sweep-cp -rL a z) > "$T/loopy.out" 2>&1
st=$?
[ $st = 1 ] || fail "-rL into itself: status $st: $(head -c 300 "$T/loopy.out")"
grep -q "into itself" "$T/loopy.out" || fail "-rL into itself: not said: $(head -c 300 "$T/loopy.out")"
[ "$(cat "$T/loopy/w/z/f")" = f ] || fail "-rL into itself: z/f not copied"

# names joined as GNU cp joins them (a target's trailing slashes left out,
# an absolute source's own slash the separator: it said 'o//f',
# 'o//tmp/...'); --parents where a file stands for a directory: GNU's
# words; a bad $VERSION_CONTROL said as that (it was 'backup type')
for prog in cp sweep-cp; do
	rm -rf "${T:?}/join" && mkdir -p "$T/join/x" "$T/join/o" && echo f > "$T/join/x/f" &&
		cd "$T/join" || fail "no scratch directory"
	for args in "-v x/f o//" "-v x/f o/" "-v --parents x/f o//" "-v --parents $T/join/x/f o"; do
		# shellcheck disable=SC2086 # the arguments are words
		$prog $args 2>&1
		echo "status $?"
	done
	rm -rf o && mkdir o && echo y > o/x
	$prog --parents -v x/f o 2>&1
	echo "status $?"
	VERSION_CONTROL=bogus $prog -b x/f o/ 2>&1
	echo "status $?"
	cd "$T" || fail "no scratch directory"
done 2>&1 | sed "s/sweep-cp/cp/g; s|$T|T|g" > "$T/join.all"
half=$(($(wc -l < "$T/join.all") / 2))
head -n "$half" "$T/join.all" > "$T/join.gnu"
tail -n "+$((half + 1))" "$T/join.all" > "$T/join.our"
check_same "$T/join.gnu" "$T/join.our" || fail "names joined, --parents over a file, \$VERSION_CONTROL"
