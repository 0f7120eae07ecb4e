#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# existing.sh: copies onto an existing destination, beside GNU cp: plain
# overwrite, -n, -u, -i (answered yes and no), -f onto a file that cannot
# be opened, --remove-destination, --backup in each CONTROL, -b, -S.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cp/tree.sh"
mkdir -p "$T/src/sub"
printf 'new a\n' > "$T/src/a"
printf 'new b\n' > "$T/src/b"
printf 'new c\n' > "$T/src/sub/c"
touch -d '2010-01-01' "$T/src/a"
touch -d '2030-01-01' "$T/src/b"
old='mkdir -p dst/sub && printf "old a\n" > dst/a && printf "old b\n" > dst/b && printf "old c\n" > dst/sub/c && touch -d 2020-01-01 dst/a dst/b && chmod 444 dst/b && ln -s a dst/sub/d && printf "1\n" > dst/a.~1~'
export PREPARE="$old"
TIMES=no both "overwrite" -rvT src DST
TIMES=no both "-n" -rvnT src DST
TIMES=no both "--no-clobber" -r --no-clobber -T src DST
TIMES=no both "-u" -avuT src DST
TIMES=no both "--update" -a --update -T src DST
# the questions come in disk order, not GNU's: the same answer to all
printf 'y\ny\ny\n' > "$T/yes"
printf 'n\nn\nn\n' > "$T/no"
STDIN="$T/yes" TIMES=no both "-i, yes" -riT src DST
STDIN="$T/no" TIMES=no both "--interactive, no" -r --interactive -T src DST
TIMES=no both "-f" -rfT src DST
TIMES=no both "--force" -r --force -T src DST
TIMES=no both "--remove-destination" -rv --remove-destination -T src DST
TIMES=no both "--backup" -rv --backup -T src DST
TIMES=no both "--backup=numbered" -rv --backup=numbered -T src DST
TIMES=no both "--backup=simple" -rv --backup=simple -T src DST
TIMES=no both "--backup=none" -rv --backup=none -T src DST
TIMES=no both "-b" -rvbT src DST
TIMES=no both "-S" -rvT -S .old src DST
TIMES=no both "--suffix" -rvT --backup --suffix=.bak src DST
TIMES=no both "--suffix= (empty: ~)" -rvT --backup=simple --suffix= src DST
TIMES=no both "-S / (a slash: ~)" -rvT -b -S / src DST
# the kind of backup is the last --backup=CONTROL's, wherever -S stands
# (-S before --backup=off made backups)
for args in "--backup=off -S .k" "-S .k --backup=off" "-b --backup=t -S .z" "-S .k --backup=bogus"; do
	TIMES=no both "backups: $args" -rvT $args src DST
done
# a directory over a file: refused, a backup asked for or not (it was
# moved aside and the directory copied in its place)
for b in -b --backup=numbered; do
	PREPARE='printf "old\n" > dst' TIMES=no both "$b, a directory over a file" -rT $b src DST
done

# A destination that is the source under another name: a link to it (cp f
# sl, cp -r d/. e with e/x -> ../d/x), or the file a link source points to
# (cp -P sl f). Written through, the source would be cut to nothing; put in
# its place, the link would take the data with it. GNU cp says they are the
# same file, unless a backup or --remove-destination keeps the data; a
# hard link of the source (hl) is replaced then (it was refused), and -l
# over one has nothing to do; the same name through a directory (d/x d/x)
# or a link followed to the file (-b sl f) is no other name (a backup was
# made, exit 0). With -f, F given twice by one name is copied to its
# backup's name (GNU's special case: F itself stays, its other names too).
same_case() { # SIDE PROG ARGS...: in $T/SIDE, f and sl -> f, e/x -> ../d/x
	side=$1 prog=$2
	shift 2
	rm -rf "${T:?}/$side" && mkdir -p "$T/$side/d" "$T/$side/e" && cd "$T/$side" || exit 1
	printf 'hello\n' > f && ln -s f sl && printf 'data\n' > d/x && ln -s ../d/x e/x && ln f hl
	$prog "$@" > out 2>&1
	echo "status $?" >> out
	sed 's/^sweep-cp:/cp:/' out
	find . ! -name out -printf '%p %y %s %n %l\n' | sort
	cat f d/x
	cd "$T" || exit 1
}
for args in "f sl" "-f f sl" "--remove-destination f sl" "-b f sl" "-L f sl" "-P f sl" \
            "-P sl f" "-d sl f" "-a sl f" "-P -f sl f" "-P --remove-destination sl f" \
            "-P -b sl f" "-P -s sl f" "-r d/. e" "-rL d/. e" "-a d/. e" \
            "f hl" "--remove-destination f hl" "-b f hl" "--backup=numbered f hl" "-l f hl" \
            "-a --remove-destination f hl" "-b f f" "-l f f" "--remove-destination f ./f" \
            "-b d/x d/x" "--backup=numbered ./d/x d/x" "-b sl f" "-b -f sl f" "-b d/x e/x" \
            "-b ./f hl" "-fb f f" "-fb --backup=numbered f f" "-fa --backup f f" "-fb sl sl" \
            "-fbP sl sl" "-fb -S .bak d/x d/x" "-fb f ./f"; do
	# shellcheck disable=SC2086 # the arguments are words
	same_case GNU cp $args > "$T/gnu.same"
	# shellcheck disable=SC2086
	same_case OUR sweep-cp $args > "$T/our.same"
	check_same "$T/gnu.same" "$T/our.same" || fail "the same file: cp $args"
done

# -sf, -lf: a link that cannot be made leaves what was there (made aside
# and renamed over it, as GNU's), and -sb puts its backup back: a relative
# -s into another directory (refused), a -l across file systems (EXDEV:
# /dev/shm, where there is one); -v says the copy before it is tried
link_case() { # SIDE PROG ARGS...: in $T/SIDE, dst/b and dst/g there
	side=$1 prog=$2
	shift 2
	rm -rf "${T:?}/$side" && mkdir -p "$T/$side/dst" && cd "$T/$side" || exit 1
	echo keep > dst/b && echo old > dst/g && echo x > a
	$prog "$@" > out 2>&1
	echo "status $?" >> out
	sed 's/^sweep-cp:/cp:/' out
	find dst -printf '%p %y %s %l\n' | sort
	cat dst/b dst/g 2>&1
	cd "$T" || exit 1
}
for args in "-sf a dst/b" "-vsb a dst/g" "-vs --remove-destination a dst/b" "-vsf a dst/b dst/g" \
            "-vlf a dst/b" "-vsf $T/GNU/a dst/b"; do
	# shellcheck disable=SC2086 # the arguments are words
	link_case GNU cp $args > "$T/gnu.link"
	# shellcheck disable=SC2086
	link_case OUR sweep-cp $(echo "$args" | sed "s|$T/GNU|$T/OUR|") > "$T/our.link"
	sed -i "s|$T/OUR|$T/GNU|g" "$T/our.link"
	check_same "$T/gnu.link" "$T/our.link" || fail "links over what is there: cp $args"
done
if shm=$(mktemp -d /dev/shm/sweep-cp.XXXXXX 2>/dev/null); then
	[ "$(stat -c %d "$shm")" != "$(stat -c %d "$T")" ] || { rmdir "$shm"; shm=; }
fi
if [ -n "$shm" ]; then
	mkdir -p "$T/xdev/src" && echo new > "$T/xdev/src/file"
	for prog in cp sweep-cp; do
		rm -rf "${shm:?}/$prog" && mkdir "$shm/$prog" && echo precious > "$shm/$prog/file"
		(cd "$T/xdev" && $prog -rlf src/. "$shm/$prog") > "$T/xdev/$prog.out" 2>&1
		echo "status $?" >> "$T/xdev/$prog.out"
		sed -i "s/^sweep-cp:/cp:/; s|$shm/$prog|SHM|g" "$T/xdev/$prog.out"
		[ "$(cat "$shm/$prog/file")" = precious ] || fail "$prog -rlf across file systems: the file there is gone"
	done
	rm -rf "$shm"
	check_same "$T/xdev/cp.out" "$T/xdev/sweep-cp.out" || fail "-rlf across file systems"
else
	echo "SKIP part: no /dev/shm on another file system for a link across file systems" >&2
fi

# a later name of a hard-linked file where a dangling link is: the link
# goes, the name is linked to the first (it was "not writing through
# dangling symlink", exit 1, the names not linked)
mkdir -p "$T/hl" && echo x > "$T/hl/f" && ln "$T/hl/f" "$T/hl/g"
PREPARE='mkdir dst && ln -s nowhere dst/g' TIMES=no both "-a, a dangling link at a later name" -a hl/f hl/g DST
PREPARE='mkdir dst && ln -s nowhere dst/g' TIMES=no both "-a DIR/., a dangling link at a later name" -a hl/. DST
# ... whatever -n, -u or -i say: GNU takes it for no file
for opt in -n -u -i; do
	STDIN=$T/no PREPARE='mkdir dst && ln -s nowhere dst/g' TIMES=no \
		both "-a $opt, a dangling link at a later name" -a $opt hl/f hl/g DST
done
# -u: a copy kept as newer is the first name the file's later names are
# linked to (they were copied again, or "not writing through dangling
# symlink"); -v says a later name before the link there goes, as GNU
for prog in cp sweep-cp; do
	for case in "-auv absent" "-auv dangling" "-av dangling"; do
		rm -rf "${T:?}/ua" && mkdir -p "$T/ua/s" "$T/ua/o" && cd "$T/ua" || fail "no scratch directory"
		echo data > s/f1 && ln s/f1 s/f2 && touch -d 2000-01-01 s/f1 && echo new > o/f1
		[ "${case#* }" = dangling ] && ln -s nowhere o/f2
		{ $prog ${case% *} s/f1 s/f2 o/ 2>&1; echo "$case: status $?"; } | sed 's/^sweep-cp:/cp:/'
		stat -c '%h %F %n' o/f1 o/f2
		cd "$T" || fail "no scratch directory"
	done > "$T/ua.$prog"
done
check_same "$T/ua.cp" "$T/ua.sweep-cp" || fail "-u and later hard-link names"

# -u through a link to the source itself: the same file, said, exit 1
for prog in cp sweep-cp; do
	rm -rf "${T:?}/ul" && mkdir "$T/ul" && echo x > "$T/ul/f" && ln -s f "$T/ul/lnk" &&
		touch -h -d 2000-01-01 "$T/ul/lnk"
	(cd "$T/ul" && $prog -u f lnk 2>&1; echo "status $?") | sed 's/^sweep-cp:/cp:/' > "$T/ul.$prog"
done
check_same "$T/ul.cp" "$T/ul.sweep-cp" || fail "-u, a link to the source"

# -n and -u where a dangling link is (GNU looks through it: nothing to
# keep, and no file written through it) and where a directory is (kept
# under -n, and under -u when not older)
keep_case() { # SIDE PROG ARGS...
	side=$1 prog=$2
	shift 2
	rm -rf "${T:?}/$side" && mkdir -p "$T/$side/src" "$T/$side/dst/f" "$T/$side/dst/g" && cd "$T/$side" || exit 1
	echo hi > src/h && echo hi > src/f && echo hi > src/g && ln -s nowhere dst/h
	touch -d 2015-01-01 src/f src/g && touch -d 2020-01-01 dst/f && touch -d 2010-01-01 dst/g
	for name in h f g; do
		{ $prog "$@" "src/$name" dst/ 2>&1; echo "status $?"; } | sed 's/^sweep-cp:/cp:/'
	done
	find dst -printf '%p %y\n' | sort
	cd "$T" || exit 1
}
for args in -n -u -rn "-r --no-clobber" "-a --update"; do
	# shellcheck disable=SC2086 # the arguments are words
	keep_case GNU cp $args > "$T/gnu.keep"
	# shellcheck disable=SC2086
	keep_case OUR sweep-cp $args > "$T/our.keep"
	check_same "$T/gnu.keep" "$T/our.keep" || fail "-n, -u: cp $args"
done

# The source is the destination's simple backup (cp -b f~ f): the backup
# would rename it away, or write over it, before it is read, so GNU cp
# copies nothing (sweep-cp lost the source's data: -bl left f and f~ one
# file holding the old data); numbered backups take a new name and copy.
# And -u where a link is looks through it: the file it leads to is the
# one whose time is compared (sweep-cp wrote newer data over), a
# directory it leads to is GNU's "cannot overwrite directory".
backup_case() { # SIDE PROG
	side=$1 prog=$2
	for args in -b -bl -bs -bf --remove-destination\ -b "-b -S .bak" --backup=numbered \
		--backup=existing -u "-u -T"; do
		rm -rf "${T:?}/$side" && mkdir -p "$T/$side/d" && cd "$T/$side" || exit 1
		echo OLD > f && echo SRC > 'f~' && echo SRC > f.bak && mkdir d/x
		echo NEWER > e && ln -s e elink && echo src > g && ln -s d dlink
		touch -d 2010-01-01 g && touch -d 2030-01-01 e && touch -h -d 2001-01-01 elink dlink
		src="f~" dst=f
		case $args in
		*.bak*) src=f.bak ;;
		-bs) src="$PWD/f~" ;;
		"-u -T") src=g dst=dlink ;;
		-u) src=g dst=elink ;;
		esac
		# shellcheck disable=SC2086 # the arguments are words
		{ $prog $args "$src" "$dst" 2>&1; echo "$args: status $?"; } |
			sed "s/^sweep-cp:/cp:/; s|$PWD|X|g"
		find . -printf '%p %y %l %n ' -type f -exec cat {} \; -o -printf '\n' | sort
		cd "$T" || exit 1
	done
}
backup_case GNU cp > "$T/gnu.backup"
backup_case OUR sweep-cp > "$T/our.backup"
check_same "$T/gnu.backup" "$T/our.backup" || fail "the source the destination's backup, -u through a link"

# In a directory the copy made it makes names without looking first; a name
# that turns up there all the same (the source changed under the walk) is
# looked at then, and the copy goes on. strace's fault injection makes the
# kernel say a new directory's name is taken once: the second mkdirat, the
# first in a directory the copy made. The result is still cp -a's.
unset PREPARE
command -v strace >/dev/null || { echo "SKIP part: needs strace (a name taken in a new directory)" >&2; exit 0; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # none under ptrace
export ASAN_OPTIONS
mkdir -p "$T/taken/a/b" "$T/taken/c"
echo x > "$T/taken/a/b/f"
rm -rf "$T/GNU" "$T/OUR"
mkdir "$T/GNU" "$T/OUR"
cp -a "$T/taken" "$T/GNU/dst"
strace -f -qq -o "$T/trace" -e trace=mkdir,mkdirat -e inject=mkdirat:error=EEXIST:when=2 \
	"$sweep_tools/sweep-cp" -a "$T/taken" "$T/OUR/dst" || fail "a name taken: sweep-cp failed"
grep -q 'mkdirat(.*EEXIST.*INJECTED' "$T/trace" || fail "a name taken: no mkdirat failed"
manifest "$T/GNU" > "$T/GNU.tree"
manifest "$T/OUR" > "$T/OUR.tree"
check_same "$T/GNU.tree" "$T/OUR.tree" || fail "a name taken: trees"
