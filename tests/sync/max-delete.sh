#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# max-delete.sh: --max-delete=NUM, the guard backup scripts put on a
# mirror's deletions, beside rsync: at most NUM entries deleted, the rest
# left and counted ("Deletions stopped due to --max-delete limit (N
# skipped)"), exit 25 unless something worse happened; 0 deletes nothing
# and says what it kept; a negative limit is none. Under each deletion
# time, a dry run, pushed and pulled over a remote shell; a directory whose
# contents a filter protects, two levels down ("cannot delete non-empty
# directory", twice for the lower one, as rsync says it).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
local_rsh
# deleting in a directory that stays moves its time to that moment
TIMES=no
mkdir -p "$T/src/keep"
printf 'k\n' > "$T/src/keep/k"
find "$T/src" -exec touch -h -d '2010-05-06 07:08:09' {} +
extra='rsync -a ../src/ dst/ && mkdir -p dst/x/y dst/keep/z && echo 1 > dst/a && echo 2 > dst/b &&
	echo 3 > dst/x/y/c && echo 4 > dst/x/d && echo 5 > dst/keep/z/e && ln -s a dst/l &&
	touch -h -d 2011-01-01 dst/a dst/b dst/x/y/c dst/x/d dst/keep/z/e dst/l &&
	touch -d 2011-01-01 dst dst/keep dst/x dst/x/y dst/keep/z'

for n in 0 1 2 3 5 8 20 -1 010 0x2 ''; do
	PREPARE=$extra both "--max-delete=$n" -av --delete --max-delete=$n src/ DST
done
for when in --delete-before --delete-during --delete-after --delete-delay; do
	for n in 0 2 4; do
		PREPARE=$extra both "$when --max-delete=$n" -ai $when --max-delete=$n src/ DST
	done
done
PREPARE=$extra both "-n --max-delete=2" -ain --delete --max-delete=2 src/ DST
PREPARE=$extra both "--stats --max-delete=3" -a --stats --delete --max-delete=3 src/ DST

# protected below: the directories above it stay, said twice for the
# lower one (rsync's rmdir of it says it again)
protect='rsync -a ../src/ dst/ && mkdir -p dst/x/y && echo o > dst/x/y/p.o && echo c > dst/x/y/c &&
	touch -d 2011-01-01 dst/x/y/p.o dst/x/y/c dst/x/y dst/x dst'
PREPARE=$protect both "protected two levels down" -av --delete --exclude='*.o' src/ DST
PREPARE=$protect both "protected, --max-delete=0" -av --delete --exclude='*.o' --max-delete=0 src/ DST

# a worse error wins: an unreadable source file is 23 (as root only)
if [ "$(id -u)" = 0 ]; then
	unprivileged
	mkdir -p "$T/u/src"
	printf 'x\n' > "$T/u/src/locked"
	chmod 000 "$T/u/src/locked"
	chmod -R a+rwX "$T/R" "$T/O" 2>/dev/null
	chmod 755 "$T" "$T/u" "$T/u/src"
	chown -R nobody "$T/u"
	for prog in rsync sweep-sync; do
		rm -rf "$T/u/dst" && mkdir "$T/u/dst" && echo 1 > "$T/u/dst/a" && echo 2 > "$T/u/dst/b"
		chown -R nobody "$T/u/dst"
		# (an I/O error turns deletions off: --ignore-errors is not
		# there, so the limit is met before the error, by --delete-before)
		(cd "$T/u" && $AS_USER "$(command -v $prog)" -a --delete-before --max-delete=1 src/ dst/) \
			> /dev/null 2>&1
		echo $? > "$T/u/$prog.status"
	done
	check_same "$T/u/rsync.status" "$T/u/sweep-sync.status"
else
	echo "SKIP part: an unreadable file needs root to make it" >&2
fi

# pushed and pulled: the far end deletes, and its count and status come back
PREPARE=$extra both "push --max-delete=2" -av --delete --max-delete=2 -e "$RSH" src/ localhost:DST
PREPARE=$extra both "pull --max-delete=2" -av --delete --max-delete=2 -e "$RSH" localhost:src/ DST
PREPARE=$extra both "push --max-delete=0 --delete-after" -ai --delete-after --max-delete=0 -e "$RSH" src/ localhost:DST

# not a number: a usage error
for prog in rsync sweep-sync; do
	$prog -a --delete --max-delete=many "$T/src/" "$T/none/" > /dev/null 2>&1
	echo $? > "$T/$prog.usage"
	[ ! -e "$T/none" ] || fail "$prog --max-delete=many: made DEST"
done
check_same "$T/rsync.usage" "$T/sweep-sync.usage"
exit 0
