#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/find/compare.sh: sweep-find against GNU find, expression by
# expression, on the generated tree of tests/tree.sh. sweep-find prints
# in disk order, GNU find depth-first, so the outputs are compared sorted
# (NUL-separated where names may hold newlines); messages are compared
# sorted too, and the exit status exactly. The table covers every test,
# operator, option and action, -printf's directives, "-exec ... +" batching
# and -prune; -delete runs on two copies of the tree, compared afterwards.
# And in order: several "-exec ... +" run their last batches in the
# command line's order (they ran last first: "-exec cp -t B {} + -exec rm
# {} +" removed the files before they were copied); a test after an -exec
# that changed the file sees it changed under SWEEP_WARM=on too (libsweep's
# helpers had taken the status before); -daystart and -files0-from put
# nothing in the expression ("! -daystart -print" printed nothing, "(
# -daystart )" was taken); -type D refused as GNU refuses it on Linux; a
# -path pattern ending in '/' said whatever -warn says, unless a starting
# point matches it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tree.sh"
need_cmd find python3
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"
command -v sweep-find >/dev/null || fail "sweep-find not built"

make_tree_in_scratch
day0=$(date +%F)
inum=$(stat -c %i tree/sub/f)
find tree >/dev/null 2>&1 # settle directory access times (relatime)

# check ARGS...: same lines (as sets), same messages, same status. The
# table's lines may start with compare_run's -z (NUL-separated output), -s
# (runs of spaces squeezed: -ls widens columns as it goes, so they depend on
# the order) and -q (messages not compared: -ok's prompts).
compare_names 's/^find:/sweep-find:/'
check() { compare_run find sweep-find "$@"; }
exprs=0

# The table: one expression per line, in shell words, for the root "tree"
# or, after @, another (commands run once per file take a smaller one). A
# line starting with "run:" is a command to run first.
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; run:*) eval "${line#run:}"; continue ;; esac
	eval "set -- $line"
	exprs=$((exprs + 1))
	flags=() root=tree
	while [ "${1:-}" = -z ] || [ "${1:-}" = -s ] || [ "${1:-}" = -q ]; do
		flags+=("$1")
		shift
	done
	case ${1:-} in @*) root=${1#@}; shift ;; esac
	compare_run "${flags[@]}" find sweep-find "$root" "$@"
done <<'TABLE'
# names and paths
-name f
-name '*.link'
-name '[bs]*'
-name '.*'
-z -name 'new*' -print0
-name 'e1?' -o -name 'e10??'
-iname upper.txt
-iname '*.TXT'
-name '*\*'
-path '*/deeper/*'
-path 'tree/a/*'
-wholename '*odd*'
-ipath '*ODD/*SPACE*'
-iwholename 'TREE/LINKS/*'
-regex '.*/s[0-9]+'
-regex '.*\(link\|lnk\)'
-iregex '.*upper.*'
-regex 'tree/a.*'
-z -regex '.*new.line' -print0
-regex '.*/e[0-9]\{5\}'
-regex '.*/e1[[:digit:]]'
-regex 'tree/odd/new.line'
-regex 'tree/odd/new[^a]line'
-lname '*sub*'
-ilname '*SUB*'
-lname '*'
# types
-type f
-type d
-type l
-type p
-type s
-type c
-type b
-type f,l
-type d,p,s
-xtype l
-xtype d
-xtype f
# sizes
-size 0
-size -1
-size +1
-size 1
-size +1k
-size -5k
-size 1M
-size +2M
-size 20000c
-size +100w
-size +1G
-size 1G
-size -1G -size +10M
-empty
-empty -type d
-not -empty -type f
# times (the minutes are set again here: -mmin 11 holds for 30 seconds)
run:touch -d '-10 minutes -30 seconds' tree/times/min10; touch -a -d '-5 days' tree/times/min10
-newer tree/times/ref
! -newer tree/times/ref
-anewer tree/times/ref
-cnewer tree/times/ref
# -newerXY with files and dates (local time), to the second and below
run:touch -d '2020-01-01 12:00' tree/times/noon; touch -d '2020-01-01 12:00:30.25' tree/times/later
run:touch -a -d @1600000000 tree/times/noon
-newermm tree/times/ref
-newerma tree/times/ref
-newercm tree/times/ref
-newermc tree/times/ref
-newerac tree/times/min10
-newerca tree/times/min10
-newermt '2020-01-01 12:00'
-newermt '2020-01-01 12:00:30'
-newermt '2020-01-01 12:00:30.3'
! -newermt '2020-01-01T12:00:30.2'
-newermt 2020-01-01 ! -newermt ' 2020-01-02 '
-newerat @1600000000
-newerat @1599999999.5
! -newerat @1600000000.000000001
-newerct @0
-newermt ''
# GNU's other date forms (parse_datetime's): relative items, names of
# months and days, zones, pure numbers
-newermt 'Jan 1 2020 12:00'
-newermt '1 Jan 2020 12:00:30'
! -newermt '01/01/2020 12:00:31'
-newermt 20200101
-newermt '2020-01-01 12:00 UTC'
-newermt '2020-01-01 13:00 +0100'
-newermt '2020-1-1 11:00 pm yesterday'
-newermt '00:00 10 years ago'
-newermt 'yesterday 00:00'
-newermt 'last monday'
-newermt 'TZ="UTC" 2020-01-01 12:00'
-newermt '@ 1600000000'
-mtime 0
-mtime -1
-mtime +1
-mtime 3
-mtime +30
-mtime -2.5
-mtime +399
-atime +4
-atime -1
-ctime -1
-ctime +0
-mmin -30
-mtime ' 0'
-mtime ' -1'
-mmin '+ 60'
-mmin '- 120'
-mmin +60
-mmin -120
run:touch -d '-10 minutes -30 seconds' tree/times/min10; touch -a -d '-5 days' tree/times/min10
-mmin 11
run:touch -d '-90 minutes' tree/times/min90
-mmin +20 -mmin -100
-amin +100
-cmin -120
# "-N" days is under N days and a second, as GNU find's (a file a day and
# a fifth of a second old is less than a day old; sweep-find left it out)
run:touch -d "@$(awk -v t="$(date +%s.%N)" 'BEGIN { printf "%.3f", t - 86400.2 }')" tree/times/day1
run:touch -a -d "@$(awk -v t="$(date +%s.%N)" 'BEGIN { printf "%.3f", t - 172800.2 }')" tree/times/day1
-mtime -1
-atime -2
# -daystart: from the coming midnight, for the time tests after it only
run:touch -d 'today 00:00:30' tree/times/today; touch -d 'yesterday 23:59:30' tree/times/yesterday
run:find tree/times >/dev/null
-daystart -mtime 0
-daystart -mtime 1
-daystart -mtime +1
-daystart -mtime -3
-daystart -mmin +1400
-daystart -amin -3000
-mtime 0 -daystart -mtime 1
-daystart -daystart -mtime 2
! -daystart -print
( -daystart ) -print
-daystart -o -print
! -daystart
-daystart , -print
-daystart
-print -daystart
-type D
-type f,D
-xtype D
-path 'tree/a/'
-nowarn -path 'tree/a/'
@tree/ -warn -maxdepth 0 -path 'tree/'
-daystart -newermt ''
# -used: accessed N days after the last change (future access times)
run:for d in 0 1 2 3 -1; do touch tree/times/used$d; touch -a -d "$d days" tree/times/used$d; done
run:touch tree/times/used36h; touch -a -d '+36 hours' tree/times/used36h
# (the directory's access time settled again, or GNU's reading would move it)
run:find tree/times >/dev/null
-used 1
-used 2
-used 3
-used 0
-used +0
-used +1
-used -2
-used -0
-used 1.5
-used +1.5
# owners
-user root
-user nobody
-user 12345
-uid 0
-uid +100
-uid -1
-uid -+1
-uid -+0
-gid -+1
-gid -+01
-group root
-group nogroup
-gid 23456
-gid +0
-nouser
-nogroup
# permissions
-perm 644
-perm -644
-perm /111
-perm -u+s
-perm /g+s
-perm -1000
-perm /o=w
-perm u=rwx,go=rx
-perm -a+r
-perm 0
-perm /0
-perm -g=w
-perm /u+x,g+x
-perm -u=x,o-x
-perm +w
-perm -a+X
-perm /a=X
# links, inodes, identities, access
-links 2
-links +2
-links -2
-inum "$inum"
-inum -1000
-samefile tree/sub/f
# the file system's type (the tmpfs at tree/mnt, when root mounted it)
-fstype tmpfs
! -fstype tmpfs
-fstype nfs -prune -o -print
-fstype ext4 -o -fstype xfs -o -fstype btrfs
-readable
-writable
-executable
! -readable
-true
-false
# operators
-name f -o -name g
-name f -or -type d
! -type d
-not -type f
-type f -a -size +1
-type f -and -empty
\( -name f -o -name g \) -print
-name f , -name g
-name f -print , -name g -print
\( -type d -o -type l \) -a ! -name '*e*'
-type f \( -name 'e1*' -o -name '*.link' \)
! \( -type f -o -type d \)
-not \( -name '*e*' -or -name '*a*' \) -type f
# options
-maxdepth 0
-maxdepth 1
-maxdepth 2 -type d
-mindepth 1 -maxdepth 1
-mindepth 3
-d -name '*1*'
@tree/links -follow -printf '%p %y %Y\n'
@tree/links -name 'to-*' -follow -type d
-mindepth 2 -maxdepth 3 -name '*.link'
-depth
-depth -type d
-depth -maxdepth 2
-xdev
-mount -type d
-noleaf -name g
-ignore_readdir_race -name g
-warn -name g
-nowarn -name f
# -prune and -quit
-name big -prune -o -print
-path tree/deep -prune -o -type f -print
-type d -name 'b*' -prune
-name sub -prune -o -name f -print
-depth -name sub -prune
-name e1234 -quit
-name s4097 -print -quit
-print -quit
-name e1234 -print -quit -print
# actions
-z -print0
-printf '%p\n'
-printf '%p|%P|%f|%h|%H|%d\n'
-printf '%s %k %b %m %#m %M %y %Y %n %i\n'
-printf '%u %g %U %G\n'
-printf '%l\n'
-printf '%t %a %c\n'
-printf '%T@ %A@ %C@\n'
-printf '%TY-%Tm-%Td %TH:%TM:%TS %Tk %Tj %Ta %Tb %TZ %T+ %TT %TX %Tc %Ts\n'
-printf '%AF %AR %CD %Cr\n'
-printf '%10p|%-10f|%5s|%-6m|%05d|%+3d|%.3f|%8.2h|%-4y|%3n\n'
-printf 'a\tb\\c\0d\101\15\n'
-printf '%D %S\n'
-printf '%p %F\n'
-printf '%p\n\c y\n'
-printf '%% %p %%\n'
-s -ls
-s -type l -ls
@tree/odd -exec echo {} \;
@tree/a -type f -exec printf '<%s>\n' {} \;
-exec printf '%s\n' {} +
@tree/links -exec printf '%s\n' {} +
@tree/sub -type d -exec printf 'x{}y{}\n' \;
@tree/odd -execdir printf '%s\n' {} \;
-execdir printf '%s\n' {} +
@tree/a -type d -execdir pwd \;
@tree/sub -name f -exec false \; -o -print
@tree/links -exec test -d {} \; -print
@tree/a -type f -exec sh -c 'exit 1' \;
-name f -exec sh -c 'exit 3' {} +
@tree/a -print -exec sh -c 'kill -9 $$' \; -print
@tree/odd -exec nosuchcommand {} \;
@tree/odd -exec nosuchcommand {} +
TABLE

# Starting points: several, with slashes, ".", symbolic links, missing.
check tree/a tree/sub
check tree/a/ tree//sub -printf '%p|%f|%h|%P|%H\n'
# (%h of a starting point with trailing slashes: GNU 4.9 tells one-letter
# names from longer ones)
cd tree && mkdir -p x && ln -s a y
check a/ sub// ./ .// . a/../sub/ x/ x// y/ links/ -maxdepth 1 -printf '%p|%f|%h|%P|%H\n'
rmdir x && rm y && cd ..
check / // -maxdepth 0 -printf '%p|%f|%h|%P|%H\n'
check tree/sub/f tree/links/to-dir tree/links/dangling
check -H tree/links/to-dir tree/links/to-file tree/links/dangling tree/links/self
check -P tree/links/to-dir tree/links/to-file -type l
check -H tree/links -follow -type l
check -P tree/links/to-file -follow -type f
check tree/nowhere tree/sub
check -O3 tree/a -name '*1*'
check -- tree/a -type f
check '' tree/sub
check tree/odd -name '*' -printf '%f\n'
# (not in a subshell, where the failures would go uncounted)
cd tree || fail "no tree"
check -name f
check . -maxdepth 1 -printf '%p|%f|%h|%P\n'
check sub links -name '*f*'
cd ..
# -L: GNU find cannot follow into paths beyond PATH_MAX: not the deep part
for L in -L -H -P; do
	check $L tree/a tree/sub tree/links tree/odd
	check $L tree/a tree/links -type l
	check $L tree/a tree/links -xtype l
	check $L tree/links -printf '%p %y %Y %l\n'
	check $L tree/links tree/a/b -samefile tree/sub/f
	check $L tree/links -newer tree/sub/f
done
check -L tree/links tree/a -type d -empty

# -ok and -okdir read their answer from standard input.
for answer in y n; do
	yes $answer | find tree/a -ok echo ok {} \; > gnu.ok 2>/dev/null
	yes $answer | sweep-find tree/a -ok echo ok {} \; > our.ok 2>/dev/null
	sort -o gnu.ok gnu.ok; sort -o our.ok our.ok
	compare_check "find tree/a -ok echo ok {} ; (answer $answer)" cmp -s gnu.ok our.ok
	yes $answer | find tree/sub -okdir echo {} \; > gnu.ok 2>/dev/null
	yes $answer | sweep-find tree/sub -okdir echo {} \; > our.ok 2>/dev/null
	sort -o gnu.ok gnu.ok; sort -o our.ok our.ok
	compare_check "find tree/sub -okdir echo {} ; (answer $answer)" cmp -s gnu.ok our.ok
done

# "-exec ... +": as few commands as fit, the same names in all of them.
find tree/a -exec sh -c 'echo $#' sh {} + > gnu.batches
sweep-find tree/a -exec sh -c 'echo $#' sh {} + > our.batches
compare_check "find tree/a -exec sh -c 'echo \$#' sh {} + (batches)" cmp -s gnu.batches our.batches
find tree -exec sh -c 'echo $#' sh {} + | awk '{ n += $1 } END { print n }' > gnu.total
sweep-find tree -exec sh -c 'echo $#' sh {} + > our.batches
awk '{ n += $1 } END { print n }' our.batches > our.total
compare_check "find tree -exec sh -c 'echo \$#' sh {} + (names in batches)" \
	sh -c 'cmp -s gnu.total our.total && [ "$(wc -l < our.batches)" -gt 1 ]'

# Several "-exec ... +": their last batches run in the command line's
# order, and what the first copies the second may then remove.
find tree/a -exec echo first {} + -exec echo second {} + | cut -d' ' -f1 > gnu.order
sweep-find tree/a -exec echo first {} + -exec echo second {} + | cut -d' ' -f1 > our.order
compare_check "find tree/a -exec echo first {} + -exec echo second {} + (order)" \
	cmp -s gnu.order our.order
rm -rf bk && mkdir -p bk/src bk/saved && echo data > bk/src/a && echo more > bk/src/b
sweep-find bk/src -type f -exec cp -t bk/saved {} + -exec rm {} +
compare_check "-exec cp -t SAVED {} + -exec rm {} + (the files saved)" \
	sh -c '[ "$(cat bk/saved/a bk/saved/b)" = "$(printf "data\nmore")" ] && [ -z "$(ls bk/src)" ]'

# A command that changes the file, then a test of its status: the status
# after the command, also from libsweep's helper threads (SWEEP_WARM=on).
for warm in off on; do
	for side in gnu our; do
		rm -rf "st.$side" && mkdir "st.$side" && for i in 1 2 3; do echo xxxx > "st.$side/f$i"; done
		chmod 664 st.$side/f*
	done
	find st.gnu -type f -exec truncate -s 0 {} \; -printf '%s %f\n' -exec chmod g-w {} \; \
		-perm /g+w -printf 'still %f\n' | sort > gnu.st
	SWEEP_WARM=$warm sweep-find st.our -type f -exec truncate -s 0 {} \; -printf '%s %f\n' \
		-exec chmod g-w {} \; -perm /g+w -printf 'still %f\n' | sort > our.st
	compare_check "SWEEP_WARM=$warm: -exec truncate, then -printf %s, -exec chmod, then -perm" \
		cmp -s gnu.st our.st
	# (a directory's status, a starting point's and a followed link's GNU
	# has before the command: not taken again)
	for side in gnu our; do
		mkdir "st.$side/sub" && ln -s f1 "st.$side/l1" && chmod 775 "st.$side" "st.$side/sub"
		chmod 664 st.$side/f*
	done
	find st.gnu -exec chmod g-w {} \; -perm /g+w -printf 'still %p\n' | sort > gnu.st
	SWEEP_WARM=$warm sweep-find st.our -exec chmod g-w {} \; -perm /g+w -printf 'still %p\n' |
		sed 's/st.our/st.gnu/' | sort > our.st
	compare_check "SWEEP_WARM=$warm: -exec chmod on directories and files, then -perm" \
		cmp -s gnu.st our.st
	chmod 664 st.gnu/f* st.our/f*
	find -H st.gnu/l1 -exec chmod g-w {} \; -perm /g+w -printf 'still %p\n' > gnu.st
	SWEEP_WARM=$warm sweep-find -H st.our/l1 -exec chmod g-w {} \; -perm /g+w -printf 'still %p\n' |
		sed 's/st.our/st.gnu/' > our.st
	compare_check "SWEEP_WARM=$warm: -H LINK -exec chmod, then -perm" cmp -s gnu.st our.st
done

# -fprint and friends write to files, a file named twice once.
for act in "-fprint F" "-fprint0 F" "-fprintf F %p|%s\n" "-fls F" "-fprint F -fprint F"; do
	# shellcheck disable=SC2086
	(set -f; find tree ${act//F/gnu.file} > /dev/null)
	# shellcheck disable=SC2086
	(set -f; sweep-find tree ${act//F/our.file} > /dev/null)
	sorter=(sort)
	case $act in -fprint0*) sorter=(sort -z) ;; esac
	tr -s ' ' < gnu.file | "${sorter[@]}" > gnu.sorted
	tr -s ' ' < our.file | "${sorter[@]}" > our.sorted
	compare_check "find tree $act" cmp -s gnu.sorted our.sorted
done

# -delete on two fresh trees: what is left must be the same (their large
# directory of 2,000 entries, not 10,050: ten trees are made here; still
# more than one 32 KiB read of names, so that names are deleted while the
# directory's later blocks are still to be read)
for expr in "-name *.link -delete" "-type f -name e1* -delete" "-path tree/a* -delete" \
            "-depth -empty -delete" "-delete"; do
	rm -rf g o && mkdir g o && (make_tree g/tree 2000 && make_tree o/tree 2000) >/dev/null ||
		fail "cannot build trees for -delete"
	# shellcheck disable=SC2086
	(set -f; cd g && find tree ${expr} > ../gnu.out 2> ../gnu.err; echo $? > ../gnu.st)
	# shellcheck disable=SC2086
	(set -f; cd o && sweep-find tree ${expr} > ../our.out 2> ../our.err; echo $? > ../our.st)
	(cd g && find . -print0 | sort -z) > gnu.left
	(cd o && find . -print0 | sort -z) > our.left
	compare_check "find tree $expr (what is left, or the status)" \
		sh -c 'cmp -s gnu.left our.left && cmp -s gnu.st our.st'
done

# Birth times: GNU find here is built without them ("This system does not
# provide a way..."), so sweep-find is checked against stat(1) instead.
born=$(stat -c %W tree/times/noon)
if [ "${born:-0}" -gt 0 ]; then
	compare_check "find -newerBt (just before, just after the birth)" sh -c '
		[ "$(sweep-find tree/times/noon -newerBt @$(('"$born"' - 1)))" = tree/times/noon ] &&
		[ -z "$(sweep-find tree/times/noon -newerBt @$(('"$born"' + 1)))" ]'
	compare_check "find -newerBm, -newermB (born after its 2020 time)" sh -c '
		[ "$(sweep-find tree/times/noon -newerBm tree/times/noon)" = tree/times/noon ] &&
		[ -z "$(sweep-find tree/times/noon -newermB tree/times/noon)" ]'
fi

# -s: depth-first, siblings by name, checked against a listing made
# independently of sweep-find (directories opened from their parent, since
# paths may exceed PATH_MAX)
python3 - tree > expected.order <<'PY' || fail "cannot list the tree"
import os, stat, sys
def walk(dfd, path, out):
    out.append(path)
    for n in sorted(os.listdir(dfd), key=os.fsencode):
        p = os.path.join(path, n)
        st = os.stat(n, dir_fd=dfd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            sub = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=dfd)
            walk(sub, p, out)
            os.close(sub)
        else:
            out.append(p)
out = []
walk(os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY), sys.argv[1], out)
sys.stdout.buffer.write(b"".join(os.fsencode(p) + b"\0" for p in out))
PY
sweep-find -s tree -print0 > our.order 2>/dev/null
compare_check "find -s tree -print0 (order)" cmp -s expected.order our.order

# With libsweep's helper threads, which start by themselves only on a cold
# cache: in inode order the walk serves names straight from their tasks,
# and where most entries' status is wanted they stat every name ahead
# (SWEEP_STAT_AHEAD); -name first needs no status, -L stats links anew.
for order in inode disk name; do
	export SWEEP_WARM=on SWEEP_ORDER=$order
	check tree
	check tree -size +1k
	check tree -type f -size -2
	check tree -name '*1*' -size -2
	check tree -empty -o -links +2
	check tree -newer tree/sub/f
	check tree -printf '%p|%s|%n|%m|%U|%T@|%y\n'
	compare_run -s find sweep-find tree -ls
	check -L tree/links -printf '%p %y %Y %s\n'
done
unset SWEEP_WARM SWEEP_ORDER

# -ls: a date up to an hour ahead, or back to 180 days before, shows its
# time, not its year, both ends counted in (tried again when the second
# turned between the two runs)
mkdir -p lsdates
same_second=
for try in 1 2 3 4 5 6 7 8 9 10; do
	n=$(date +%s)
	for off in 3599 3600 3601 -15551999 -15552000 -15552001; do
		touch -d "@$((n + off))" "lsdates/f$off"
	done
	find lsdates -name 'f*' -ls | awk '{ print $NF, $(NF-3), $(NF-2), $(NF-1) }' | sort > ls.gnu
	sweep-find lsdates -name 'f*' -ls | awk '{ print $NF, $(NF-3), $(NF-2), $(NF-1) }' | sort > ls.our
	[ "$(date +%s)" = "$n" ] && same_second=1 && break
done
[ -z "$same_second" ] ||
	compare_check "-ls, dates at the ends of recent" cmp -s ls.gnu ls.our

echo "find: $exprs expressions in the table"
# (the dates relative to today, -daystart: the day must not have turned
# between the two runs of a check)
[ "$compare_failures" = 0 ] || [ "$(date +%F)" = "$day0" ] || skip "the date changed during the test"
compare_summary "sweep-find against GNU find"
