#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/errors.sh: bad expressions, bad arguments and warnings. Each
# must give GNU find's message (program name aside) and exit status, and
# the same output when there is any. (A trailing operator after an action
# said "expected an expression", where GNU says "invalid expression".)
. "$top_srcdir/tests/lib.sh"
need_cmd find
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"
cd "$T" || fail "no scratch directory"
mkdir -p t/d && printf 'x\n' > t/f && ln -s f t/l
mkdir -p z && ln -s nowhere z/dang
gnu=$(command -v find) ours=$(command -v sweep-find)

failures=0 checks=0
# check [env NAME=VALUE...] ARGS...: run both with the same environment
check() {
	local envs=()
	while [ "${1:-}" = env ]; do
		envs+=("$2")
		shift 2
	done
	checks=$((checks + 1))
	([ ${#envs[@]} = 0 ] || export "${envs[@]}"; exec -a find "$gnu" "$@") > gnu.out 2> gnu.err < /dev/null
	local g=$?
	([ ${#envs[@]} = 0 ] || export "${envs[@]}"; exec "$ours" "$@") > our.out 2> our.err < /dev/null
	local o=$?
	sed 's/^sweep-find:/find:/; s/sweep-find --help/find --help/' our.err | sort > our.msgs
	sort gnu.err > gnu.msgs
	sort -o gnu.out gnu.out
	sort -o our.out our.out
	if ! cmp -s gnu.msgs our.msgs || ! cmp -s gnu.out our.out || [ $g != $o ]; then
		failures=$((failures + 1))
		echo "FAIL: find $* (status $g, ours $o)" >&2
		diff gnu.msgs our.msgs >&2
		diff gnu.out our.out | head -5 >&2
	fi
}

while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	eval "set -- $line"
	check "$@"
done <<'TABLE'
# the grammar
t -foo
# the options before the starting points
-O t
-Ox t
-O3 t -maxdepth 0
-D nonsense,stat t -maxdepth 0
-D
# -D help lists the flags and ends the run, exit 0 (it walked the tree)
-D help
-D tree,help t
# %Z with no SELinux context kept: GNU's getfilecon message, exit 1 (it
# printed an empty field, exit 0)
t -printf '%p %Z|\n'
-L t -printf '%p %Z|\n'
# (-L, a link that dangles: its own, as GNU's; it said "No such file")
-L z -printf '%p %Z|\n'
t -name
t -a
t -o
t -name x -o
# (after an action but -quit: "invalid expression", GNU's words there)
t -print -o
t -ls ,
t -print !
t -print -a
t -delete -o
t -exec echo {} \; -o
t -quit -o
t -prune -o
# -files0-from without its file after the expression, or in parentheses:
# nothing run (the expression was run)
t -exec echo X {} \; -files0-from
t ( -files0-from
# -path with a pattern ending in '/': said unless POSIXLY_CORRECT, "/" too
t -path /
env POSIXLY_CORRECT=1 t -path x/
# a list that cannot be read (a directory), or opened
-files0-from t/d
-files0-from t/none
# a depth too large: "Numerical result out of range"
t -maxdepth 99999999999999999999
t -mindepth 2147483648
t -maxdepth 2147483647 -name nothing
t !
t -not
t -not -not
t \( \)
t -name x \)
t \) -name x
t -a -name x
t -name x -a
t ,
t -name x ,
t \( -name x
t \(
t ! -o -name x
t ! \)
t \( ! \)
t \( -o \)
t -name x -o \)
t -name x , \)
t \( \( -name x \)
t -name x \) \)
t -print \(
t \( , \)
t -name x y
t -name a.c b.c
t -name x t
t -quit -x
-HL t
# arguments of tests
t -size
t -size 5x
t -size +
t -size 5.5k
t -size ''
t -type
t -type ''
t -type q
t -type f,
t -type ff
t -type f,,d
t -type d,d
t -type f,d,f
t -xtype d,d
t -xtype z
t -perm 999
t -perm +111
t -perm u+q
t -perm /
t -perm -
t -perm ''
t -user ''
t -user nosuchuser
t -user 2147483648
t -group 4294967295
t -user 99999999999999999999
t -user 2147483647
t -group ''
t -group nosuchgroup
t -uid x
t -gid x
t -links x
t -links +-1
t -inum 1x
t -uid 1.5
t -mtime x
t -mmin x
t -atime ''
t -mtime
t -newer
t -newer nosuch
t -anewer nosuch
# -newerXY: letters, references, dates
t -newermt
t -newerma
t -newerXt x
t -newermx t/f
t -newertm t/f
t -newerm t/f
t -newermmm t/f
t -newermm nosuch
t -newerct garbage
t -newermt 2020-13-01
t -newermt 2020-02-30
t -newermt '2020-01-01 25:00'
t -newermt @12x
t -newermt 2020-01-01T
t -newermt @
t -newermt noon
t -maxdepth ' 0'
t -mindepth '+1'
t -mtime '0 '
t -mtime ''
t -mmin ' '
t -newermt '2020-01-01 00:00:60'
t -newermt 'Jan'
t -newermt '2 fortnights ago ago'
t -newermt 'monday tuesday'
t -newermt '13pm'
# -used, -d, -follow
t -used
t -used x
t -used 1e400
t -used ' 1'
t -warn -name x -d
t -warn -maxdepth 0 -follow -d
t -warn -follow -maxdepth 0
t -warn -daystart -maxdepth 0
t -uid -+1
t -gid -+1
t -uid +-1
t -uid -+
t -links ' 1'
t -links '+ 1'
t -inum ++1
t -size -+1
t -links '-+ 1'
t -size '-+ 1'
t -samefile nosuch
t -regex '\('
t -regex '['
t -iregex 'a\{1'
t -maxdepth
t -maxdepth -1
t -maxdepth x
t -mindepth x
t -name
t -lname
# actions
t -printf
t -fprint
t -fprint0
t -fls
t -fprintf x
t -fprint /nonexistent/dir/file
t -printf '%'
t -printf 'a\'
t -printf '%o %x\n'
t -printf '%T'
t -printf '%A'
t -printf '%{'
t -type f t/f
t -print t/f
t -maxdepth 1 t/f
t '(' -print ')' t/f
t -print -o t/f
t -type f nonexistent
t -printf '%['
t -printf '%(x'
t -printf '%5%\n'
t -printf '%-5%x\n'
t -printf '\q\e\x41\n'
t -exec
t -exec echo {} \; x
t -exec \;
t -exec echo {} {} +
t -exec echo {}x +
t -exec echo {} x +
t -ok echo {} +
t -okdir echo +
t -execdir
t -delete -prune
t -prune -delete
t -depth -name nothing -prune -delete
# warnings: on with -warn (or a terminal), off with -nowarn
t -warn -name 'a/b'
t -warn -iname 'x/'
t -nowarn -name 'a/b'
t -warn -path 't/'
t -warn -name x -maxdepth 1
t -warn -name x -o -mindepth 1
t -warn -print -depth
t -warn -name x -xdev
t -perm /0 -name nothing
t -perm /u= -name nothing
# starting points that are not there
nosuch t
t nosuch/ -name f
''
-L t/l nosuch
TABLE

# -context: where SELinux is not enabled GNU find refuses it, and so does
# sweep-find (which reads no contexts; where SELinux is on, GNU find would
# take it and the two differ on purpose: not checked)
if [ ! -e /sys/fs/selinux/enforce ]; then
	check t -context system_u:object_r:tmp_t:s0
	check t -name f -context '*'
	check t -context
fi

# -execdir refuses a PATH with the current or a relative directory (GNU's
# check comes before the command's own faults, once it has a word)
# GNU's quote() in a UTF-8 locale: curly quotes around the fixed words too
check env LC_ALL=C.UTF-8 t -exec echo x{} +
check env LC_ALL=C.UTF-8 t -warn -name a/b
check env LC_ALL=C.UTF-8 t -warn -iname a/b
check env PATH="$PATH:" t -execdir echo {} \;
check env PATH=".:$PATH" t -okdir echo {} \;
check env PATH="$PATH:bin" t -execdir echo {} +
check env PATH="$PATH" t -maxdepth 0 -execdir echo {} \;
# ... said before the command's own faults, once it has a word
check env PATH="rel:$PATH" t -okdir echo +
check env PATH="rel:$PATH" t -execdir echo
check env PATH="rel:$PATH" t -execdir echo {} {} +
check env PATH="rel:$PATH" t -execdir

# standard output that cannot be written: full, or closed
for redir in full closed; do
	checks=$((checks + 1))
	if [ $redir = full ]; then
		(exec -a find "$gnu" t > /dev/full) 2> gnu.err; g=$?
		"$ours" t > /dev/full 2> our.err; o=$?
	else
		(exec -a find "$gnu" t >&-) 2> gnu.err; g=$?
		"$ours" t >&- 2> our.err; o=$?
	fi
	sed 's/^sweep-find:/find:/' our.err > our.msgs
	if ! cmp -s gnu.err our.msgs || [ $g != $o ]; then
		failures=$((failures + 1))
		echo "FAIL: find t with standard output $redir (status $g, ours $o)" >&2
		diff gnu.err our.msgs >&2
	fi
done

# a context longer than 256 bytes, where one can be set: read whole (it
# was "Numerical result out of range")
if command -v setfattr >/dev/null &&
	setfattr -n security.selinux -v "$(printf 'x%.0s' $(seq 300))" z 2>/dev/null; then
	check z -maxdepth 0 -printf '%p %Z|\n'
else
	echo "SKIP part: no SELinux context can be set here (setfattr, root)" >&2
fi

# %Z below PATH_MAX's reach: read from the directory, as GNU's (it was
# "File name too long"), the context too where one can be set (GNU's -L
# cannot go there)
long=$(printf 'd%.0s' $(seq 200))
(mkdir deep && cd deep && for _ in $(seq 25); do mkdir "$long" && cd "$long" || exit 1; done
 echo b > xbottom && ln -s xbottom xlink && ln -s nowhere xdangling &&
 { ! command -v setfattr >/dev/null || setfattr -n security.selinux -v ctx-b xbottom 2>/dev/null || :; }) ||
	fail "cannot build the deep tree"
check deep -name 'x*' -printf '%f %Z|\n'

echo "find errors: $checks checks, $failures failed"
[ $failures = 0 ] || fail "$failures of $checks checks differ from GNU find"
