#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# relative.sh: -R (--relative) beside rsync: each SRC keeps its path below
# DEST, its directories on the way made with their source's attributes;
# what comes before "/./" left out; absolute sources below DEST too; a
# file, a directory, several; without -r a directory skipped; --delete in
# what was sent; a dry run; -v; a ".." component refused (1); a source
# that is not there (23, named as rsync names it); pushed and pulled over
# a remote shell. And the names rsync gives sources it cannot stat
# ("./" and "//" left out; "change_dir" for a directory's contents).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
mkdir -p "$T/src/a/b/c" "$T/src/x"
printf '1\n' > "$T/src/a/b/c/f"
printf '2\n' > "$T/src/a/g"
printf '3\n' > "$T/src/x/h"
chmod 750 "$T/src/a"
chmod 700 "$T/src/a/b"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
old='mkdir -p dst/a/b/old dst/a/b/c dst/a/stays && echo o > dst/a/b/c/gone &&
	echo s > dst/a/stays/s && touch -d 2011-01-01 dst/a/b/old dst/a/stays dst/a/stays/s dst/a/b/c'
cd "$T/src" || fail "no source"
# (DEST is made by each run, at its own moment)
TOUCH_DST=1
# (the runs are made from in the source: DST is ../R/dst and ../O/dst)
rb() {
	name=$1
	shift
	( cd "$T" && both "$name" "$@" ) || fail "$name: see above"
}
abs=$T/src
for args in "a/b x" "a/b/c/f" "./a/b" "a/./b" "a/b/ x/" "a/./b/c x" "$abs/a/b" "$abs/./a/b"; do
	# (an absolute path's directories on the way are live ones: /tmp...)
	TIMES=
	case $args in /*) TIMES=no ;; esac
	# shellcheck disable=SC2086
	rb "-aRi $args" -aRi $(for w in $args; do case $w in /*) echo "$w" ;; *) echo "src/$w" ;; esac; done) DST/
done
TIMES=
rb "-aR, the /./ of src" -aRi src/./a/b src/./x DST/
TIMES=no rb "-rRi" -rRi src/./a DST/
TIMES=no rb "-Ri without -r" -Ri src/./a/b src/./a/g DST/
rb "-aRiv" -aRiv src/./a/b/c/f src/./x DST/
rb "-aRin" -aRin src/./a/b DST/
PREPARE=$old rb "-aRi --delete" -aRi --delete src/./a/b DST/
# a ".." component: refused, as rsync refuses it (rsync also says it
# caught a signal of its own)
for prog in rsync sweep-sync; do
	# (the status apart: rsync's child may write its lines after it ends)
	(cd "$T" && $prog -aR src/./a/../x "$T/none/") > /dev/null 2> "$T/$prog.dots"
	echo "status $?" > "$T/$prog.dotstatus"
	sed -i '/SIGUSR1/d; s/^sweep-sync/rsync/; s/ at [a-z.]*([0-9]*).*//' "$T/$prog.dots"
done
check_same "$T/rsync.dotstatus" "$T/sweep-sync.dotstatus"
grep -qx 'found ".." dir in relative path: a/../x' "$T/sweep-sync.dots" ||
	fail "-R with ..: not said as rsync says it"
grep -qx 'found ".." dir in relative path: a/../x' "$T/rsync.dots" ||
	fail "-R with ..: rsync said another thing: $(cat "$T/rsync.dots")"
[ ! -e "$T/none" ] || fail "-R with ..: DEST made"
NO_TREE=1 rb "-aR, missing" -aRi src/./a/nope src/./x DST/
rb "push -aR" -aRi -e "$RSH" src/./a/b src/./x localhost:DST/
rb "pull -aR" -aRi -e "$RSH" localhost:src/./a/b DST/
TIMES=no rb "pull -aR, absolute" -aRi -e "$RSH" "localhost:$abs/a/b" DST/
TIMES=no rb "push -aR, absolute" -aRi -e "$RSH" "$abs/a/b" localhost:DST/
# a pass of deletions before or after: refused, not made during (1)
for when in --delete-after --delete-before --delete-delay; do
	rm -rf "$T/kept" && mkdir -p "$T/kept/a/b" && echo k > "$T/kept/a/b/extra"
	(cd "$T" && sweep-sync -aR $when src/./a/b kept/) 2> "$T/err"
	status=$?
	[ $status = 1 ] && grep -q "not supported" "$T/err" ||
		{ cat "$T/err" >&2; fail "-R $when: status $status"; }
	[ -f "$T/kept/a/b/extra" ] || fail "-R $when: deleted"
done
rb "--no-R" -ai -R --no-R src/./a/b DST/

# sources that are not there, named as rsync names them
long=$(printf 'x%.0s' $(seq 1 200))
long="$long/$long/$long/$long/$long/$long/$long" # (a message past 1 KiB, whole)
(cd "$T/src" && mkdir -p "$long") || fail "cannot make a long path"
long=$long/nope
for src in ./nope a/./nope a/nope/. ./a//nope nope/ nope/. ./nope/ a/g/ "$T/src//./nope" "$long"; do
	for prog in rsync sweep-sync; do
		$prog -a "$src" "$T/none/" 2>&1 | sed -n '1{s/^sweep-sync/rsync/;p;}' > "$T/$prog.said"
	done
	check_same "$T/rsync.said" "$T/sweep-sync.said"
done

# an implied directory is made, never read (its contents are left out):
# one the user can only go through is no error, as in rsync, and its copy
# gets its time at the end; here, pushed and pulled
unprivileged
if [ -n "$AS_USER" ]; then
	chmod 755 "$T"
	for how in here push pull; do
		for prog in rsync sweep-sync; do
			u=$T/u.$how.$prog
			mkdir -p "$u/src/a/b" && echo f > "$u/src/a/b/f" && echo g > "$u/src/a/g"
			touch -d 2001-01-01 "$u/src/a"
			chown -R nobody "$u" && chmod 311 "$u/src/a"
			src=src/./a/b dst=dst/
			[ $how = push ] && dst=localhost:dst/
			[ $how = pull ] && src=localhost:src/./a/b
			(cd "$u" && $AS_USER "$(command -v $prog)" -aR -e "$RSH" "$src" "$dst") \
				> "$u.out" 2> "$u.err"
			echo "status $?" >> "$u.out"
			(cd "$u/dst" && find . | sort && stat -c '%n %Y' a) >> "$u.out"
		done
		check_same "$T/u.$how.rsync.out" "$T/u.$how.sweep-sync.out" || fail "$how: $(cat "$T/u.$how.sweep-sync.err")"
	done
fi
exit 0
