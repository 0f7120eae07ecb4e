#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# transform.sh: --transform/--xform beside GNU tar. On create, the same
# tree archived by both with the same expressions lists the same (tar -tvf:
# member names, hard link and symlink targets per the r/h/s scopes and
# flags=), with -v showing names as given or, under
# --show-transformed-names, as stored; on list, the names and link targets
# GNU tar shows; on extract, the same tree (names, types, contents, modes,
# times, hard link groups); and GNU's usage errors for bad expressions.
# Both sort by name, so that the first of two hard links is the same one.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

d=$T/src/Dir
mkdir -p "$d/sub/deeper" "$d/Upper.D"
printf 'a\n' > "$d/afile"
printf 'b\n' > "$d/sub/bfile.TXT"
printf 'c\n' > "$d/sub/deeper/cfile"
printf 'e\n' > "$d/Upper.D/Mixed_Case.txt"
printf 'x\n' > "$d/axx-yyy"
ln "$d/afile" "$d/ahard"
ln -s afile "$d/alink"
ln -s sub/bfile.TXT "$d/blink"
touch -d '2020-02-02' "$d" "$d/sub" "$d/sub/deeper" "$d/Upper.D"

gnu_c() { within src tar --sort=name -cf "$T/gnu.tar" "$@" && tar -tvf "$T/gnu.tar"; }
our_c() { within src sweep_tar --sort=name -cf "$T/sweep.tar" "$@" && tar -tvf "$T/sweep.tar"; }
c() { # ARGS...: created alike, listed alike
	compare_run gnu_c our_c "$@" Dir || fail "create $*"
}

# scopes: r (names), h (hard link targets), s (symlink targets)
c --transform 's/a/X/g'
c --transform 's/a/X/gH'
c --transform 's/a/X/gS'
c --transform 's/a/X/gR'
c --transform 'flags=r;s/a/X/g'
c --transform 'flags=hs;s/a/X/g' --transform 's/^Dir/D2/'
c --xform 's/a/X/' --xform 's/X/YY/'
# delimiters, several expressions, flags (a match number N only where the
# matches before the Nth start where the one before ended: GNU tar 1.34
# repeats the text before them)
c --transform 's,^Dir,top,;s|/sub/|/SUB/|'
c --transform 's/./Q/3g'
c --transform 's/[a-zA-Z]/Q/2'
c --transform 's/[A-Z]/-/ig'
c --transform 's/(sub|Upper)\.?/<\1>/x'
c --transform 's/\(b\)\(file\)/\2\1/'
c --transform 's/a\(x*\)-\(y*\)/[\2|\1|&]/'
c --transform 's/r$/R/'
c --transform 's%\.txt$%.text%i'
# case conversions
c --transform 's/.*/\U&/'
c --transform 's/.*/\L&/'
c --transform 's/\([a-z]*\)file/\u\1\lFILE/'
c --transform 's/Dir/\Ux\Ey\uzz\Lab\lCD/'
# escapes in the replacement
c --transform 's/afile/a\tb\\c\&d\/e\qf/'
# -v: names as given, or as stored (--show-stored-names is GNU's other
# name for --show-transformed-names)
c -v --transform 's/a/X/g'
c -v --show-transformed-names --transform 's/a/X/g'
c -v --show-stored-names --transform 's/a/X/g'

# GNU's usage errors
for bad in 'q/a/b/' 's/a/b' 's/a/b/q' 's/a[/b/' 's/a/\1/' 's/\(a\)/\2/' \
           'flags=q' 's/a/b/;;' 's'; do
	compare_run gnu_c our_c --transform "$bad" Dir || fail "--transform=$bad"
done

# list and extract an archive GNU tar made
(cd "$T/src" && tar --sort=name -cf "$T/in.tar" Dir) || fail "GNU tar -c"
gnu_t() { within src tar -f "$T/in.tar" "$@"; }
our_t() { within src sweep_tar -f "$T/in.tar" "$@"; }
mkdir -p "$T/g" "$T/s"
gnu_x() { within g tar -f "$T/in.tar" -x "$@"; }
our_x() { within s sweep_tar -f "$T/in.tar" -x "$@"; }
xonly() { # ARGS...: the same tree extracted
	rm -rf "$T/g" "$T/s"
	mkdir "$T/g" "$T/s"
	start=$(date +%s)
	compare_run gnu_x our_x -v --show-transformed-names "$@" || fail "extract $*"
	# directories the new names imply (abs, new, or Dir when only its
	# members are named) are made at each run's own moment, and the two
	# runs may fall in different seconds
	manifest -R -t "$start" "$T/g" > "$T/want"
	manifest -R -t "$start" "$T/s" > "$T/got"
	check_same "$T/want" "$T/got" || fail "extract $*: tree"
}
x() { # ARGS...: listed alike (names as stored and as transformed), the
      # same tree extracted
	compare_run -s gnu_t our_t -tv "$@" || fail "list $*"
	compare_run -s gnu_t our_t -tv --show-transformed-names "$@" ||
		fail "list --show-transformed-names $*"
	xonly "$@"
}
x --transform 's/a/X/g'
x --transform 's,^Dir,new/top,'
x --transform 's,^Dir/,,'
x --transform 's/file/F/;s/sub/SUB/'
x --transform 's/.*/\L&/'
x --transform 'flags=r;s/afile/zfile/'
x --transform 's/afile/zfile/S'
# (GNU tar lists hard link targets stripped: not compared here)
xonly --transform 's,^Dir,out,' --strip-components=1
x --transform 's,^,/abs/,'
x --transform 's/a/X/g' Dir/afile Dir/sub
exit 0
