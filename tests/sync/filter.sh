#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# filter.sh: --filter (-f) beside rsync, here, pushed and pulled over a
# remote shell (where the far end must take the rules with their sides):
# exclude, include, hide, show, protect and risk, long and short, the
# modifiers '!', 's', 'r' and 'p', clear, merge files (comments, nested,
# bare patterns with '-' and '+'), --delete with each side's rules and
# --delete-excluded; rsync's messages and status for a rule that is
# wrong, a merge file missing or merged into itself. dir-merge (and -F)
# is refused with status 1 and nothing copied.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a" "$T/src/b"
for f in a/1.o a/2.c b/3.log top.c keep.o; do echo "$f" > "$T/src/$f"; done
find "$T/src" -exec touch -d 2011-01-01 {} +
printf '# a comment\n+ a/\n- *.o\n; another\n\n. %s/inner\n' "$T" > "$T/rules"
printf -- '- *.log\n' > "$T/inner"
printf 'top.c\nb/\n' > "$T/bare"
printf '. %s/self\n' "$T" > "$T/self"
printf -- '- *.c\nP *.o\n' > "$T/sided"
printf -- '- *.o\n' > "$T/objects"
printf -- 'H *.o\n' > "$T/hides"
printf -- '-sr *.o\n' > "$T/bothsides"
# what --delete meets: names the source lacks, one of a rule's kind, in a
# directory the source lacks too
PREPARE='mkdir -p dst/a dst/b dst/gone/sub; echo x > dst/extra.o; echo y > dst/a/keep1
echo z > dst/b/other; echo old > dst/b/3.log; echo q > dst/gone/x.o; echo q > dst/gone/sub/y.c
find dst -exec touch -d 2011-01-01 {} +'
# (a directory kept with some of what it held gone has the time of the run)
AFTER='[ ! -d dst/gone ] || touch -d 2011-01-01 dst/gone'
# a link where DEST has a directory, a file where DEST has one, names with
# brackets (the rules must judge by the source's kind: sweep-sync's
# receiver took DEST's, and deleted the directory under 'H build/')
mkdir -p "$T/src3"
ln -s elsewhere "$T/src3/build"
echo a-big-script > "$T/src3/tool"
echo k > "$T/src3/keep"
find "$T/src3" -exec touch -h -d 2011-01-01 {} +
P3='mkdir -p dst/build dst/tool; echo precious > dst/build/artifact; echo p > dst/tool/x
echo p > "dst/x]"; echo p > "dst/log[1]"; echo p > "dst/a[b"; echo p > "dst/x\\"
find dst -exec touch -d 2011-01-01 {} +'
local_rsh
for via in here push pull; do
	src=src/ dst=DST rsh=
	[ $via = push ] && dst=localhost:DST rsh="-e $RSH"
	[ $via = pull ] && src=localhost:$T/src/ rsh="-e $RSH"
	# shellcheck disable=SC2086
	{
	both "$via: exclude" -ai $rsh -f'- *.o' $src $dst
	both "$via: long names" -ai $rsh -f'include a/' -f'exclude *.o' -f'exclude_*.log' $src $dst
	both "$via: '!': all but" -ai $rsh -f'+ */' -f'-! *.c' $src $dst
	both "$via: clear" -ai $rsh -f'- *.o' -f'!' -f'clear' -f'- *.c' $src $dst
	both "$via: show, hide" -ai --delete $rsh -f'show *.c' -f'S */' -f'hide *' $src $dst
	both "$via: protect" -ai --delete $rsh -f'P keep*' -f'protect other' $src $dst
	both "$via: hide: deleted there" -ai --delete $rsh -f'H *.log' $src $dst
	both "$via: receiver's exclude" -ai --delete $rsh -f'-r *.log' -f'-r gone/' $src $dst
	both "$via: sender's exclude" -ai --delete $rsh -f'-s *.log' $src $dst
	both "$via: risk" -ai --delete $rsh -f'R extra.o' -f'- *.o' $src $dst
	both "$via: --delete-excluded, protect" -ai --delete --delete-excluded $rsh \
		-f'- *.o' -f'P extra*' -f'- gone/' $src $dst
	both "$via: not perishable" -ai --delete $rsh -f'- *.o' $src $dst
	both "$via: perishable" -ai --delete $rsh -f'-p *.o' $src $dst
	both "$via: perishable protect" -ai --delete $rsh -f'Pp *.c' -f'P *.o' $src $dst
	both "$via: merge" -ai --delete $rsh -f"merge $T/rules" $src $dst
	both "$via: merge, bare excludes" -ai $rsh -f". $T/inner" -f".- $T/bare" $src $dst
	both "$via: merge, bare includes" -ai $rsh -f"merge,+ $T/bare" -f'- *' $src $dst
	both "$via: merge, the sender's" -ai --delete $rsh -f".s $T/objects" $src $dst
	both "$via: merge, perishable" -ai --delete $rsh -f".p $T/objects" $src $dst
	both "$via: merge a directory, an empty rule" -ai $rsh -f". $T" -f '' -f'- *.c' $src $dst
	both "$via: --exclude with /***" -ai $rsh --exclude='b/***' -f'- a/***' $src $dst
	both "$via: an exclude of --exclude-from and a rule" -ai $rsh --exclude-from="$T/bare" \
		-f'+ *.c' -f'- *' $src $dst
	# DIR/*** is DIR itself only for a directory: a file of that name is
	# sent, kept (it was deleted); '\]' in a class is a ']' (the rule
	# protected nothing: x] and log[1] deleted)
	both "$via: --delete-excluded, DIR/*** and a file DIR" -ai --delete-excluded $rsh \
		--exclude='top.c/***' $src $dst
	both "$via: '-!' DIR/*** and a file DIR" -ai --delete $rsh -f'-! top.c/***' -f'+ *' $src $dst
	src3=src3/
	[ $via = pull ] && src3=localhost:$T/src3/
	PREPARE=$P3 both "$via: an escaped ']' in a class" -ai --delete $rsh --exclude='*[\]]' $src3 $dst
	PREPARE=$P3 both "$via: a class without ']', a '\' at the end: no match" -ai --delete \
		$rsh --exclude='a[b' --exclude='*\' $src3 $dst
	PREPARE=$P3 both "$via: a hide rule for directories, a link there" -rti --delete $rsh \
		-f'H build/' $src3 $dst
	PREPARE=$P3 both "$via: the sender's rule, a file not sent" -ai --delete --max-size=5 $rsh \
		-f'-s tool/' -f'-s build/' $src3 $dst
	PREPARE=$P3 both "$via: a hide rule, --ignore-existing" -ai --delete --ignore-existing $rsh \
		-f'H */' $src3 $dst
	}
done

# several SRC: a name another brings is kept from --delete only when the
# rules let it be sent (a hidden one was kept)
mkdir -p "$T/m1" "$T/m2"
echo 1 > "$T/m1/one"
echo 2 > "$T/m2/top2"
find "$T/m1" "$T/m2" -exec touch -d 2011-01-01 {} +
PREPARE='mkdir dst && echo old > dst/top2 && touch -d 2011-01-01 dst/top2 dst' AFTER=
for via in here push; do
	dst=DST rsh=
	[ $via = push ] && dst=localhost:DST rsh="-e $RSH"
	# shellcheck disable=SC2086
	{
	both "$via: several SRC, a hidden name" -ai --delete $rsh -f'H top2' m1/ m2/ $dst
	both "$via: several SRC, --delete-excluded" -ai --delete --delete-excluded $rsh \
		-f'- top2' m1/ m2/ $dst
	}
done
# a name the rules leave out in one SRC takes no place: another SRC's of
# that name is sent (a directory excluded in the first kept the second's
# file from being copied, exit 0)
mkdir -p "$T/n1/d/s" "$T/n2/d"
echo hello > "$T/n2/d/s"
find "$T/n1" "$T/n2" -exec touch -d 2011-01-01 {} +
PREPARE= TIMES=no both "several SRC, one name left out in the first" -ai -f'- /d/s/' n1/d n2/d DST

# wrong rules: rsync's words and status 1, nothing copied
PREPARE= AFTER=
for rule in 'bogus x' 'excludex y' '-Q x' '!x' '! x' '-' 'merge' 'H' 'Hr x' 'hide,s x' 'Ps x' \
	'!s' 'clear,s' '!,s' ".-+ $T/bare" ".s $T/sided" "merge,r $T/sided" ".sr $T/hides" \
	".s $T/bothsides" 'H,C x'; do
	both "wrong: $rule" -a -f"$rule" src/ DST
done
both "a merge file missing" -a -f'merge /nonexistent/rules' src/ DST
both "an include merge file missing" -a -f'.+ /nonexistent/rules' src/ DST

# merged into itself: rsync's limit, status 11 (the messages differ after
# the file's name: rsync names it through every level)
for prog in rsync sweep-sync; do
	(cd "$T" && "$prog" -a -f". $T/self" src/ "$prog.self") > "$T/self.out" 2>&1
	echo "$?" > "$T/$prog.status"
	grep -q "^\[client\] merge-file include depth limit (32) exceeded at " "$T/self.out" ||
		fail "$prog: no depth limit message: $(cat "$T/self.out")"
	[ ! -e "$T/$prog.self" ] || fail "$prog: copied past a rule that was wrong"
done
[ "$(cat "$T/sweep-sync.status")" = "$(cat "$T/rsync.status")" ] ||
	fail "merged into itself: status $(cat "$T/sweep-sync.status"), rsync $(cat "$T/rsync.status")"

# dir-merge and -F: refused, said, nothing copied
for rule in "-f: .rsync-filter" "-fdir-merge .rsync-filter" -F -FF "-f:- .gitignore"; do
	rm -rf "$T/refused"
	# (one word each, spaces and all; -FF: two)
	if [ "$rule" = -FF ]; then set -- -F -F; else set -- "$rule"; fi
	(cd "$T" && sweep-sync -a "$@" src/ refused) > "$T/refused.out" 2>&1 && r=0 || r=$?
	[ "$r" = 1 ] || fail "$rule: status $r, not 1"
	grep -q "per-directory merge files .* are not supported" "$T/refused.out" ||
		fail "$rule: no message: $(cat "$T/refused.out")"
	[ ! -e "$T/refused" ] || fail "$rule: copied all the same"
done
