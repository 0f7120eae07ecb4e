#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# totals-signal.sh: --totals=SIGNAL beside GNU tar: each signal GNU tar
# takes (HUP, QUIT, INT, USR1, USR2, with or without SIG), sent while the
# archive is written to or read from a fifo, gives one line of GNU's form
# ("Total bytes written: N (SIZE, RATE/s)") and the run goes on to exit 0;
# no line at the end when no signal came; GNU's error for other names.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/d"
head -c 2000000 /dev/zero > "$T/src/d/big"
printf 'small\n' > "$T/src/d/small"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c"
mkfifo "$T/fifo"

# Whether process $1 catches signal $2 (its handler is set): /proc's
# SigCgt mask, its low 32 bits.
catches() {
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	mask=${mask#????????}
	[ -n "$mask" ] && [ $(( (0x$mask >> ($2 - 1)) & 1 )) = 1 ]
}

# TOOL SIGNAL NUMBER MODE: TOOL's run with --totals=SIGNAL on the fifo,
# sent signal NUMBER once its handler is set, says one line of totals
signalled() {
	tool=$1 name=$2 num=$3 mode=$4
	case $mode in
	c) (cd "$T/src" && exec $tool -cf "$T/fifo" --totals="$name" d) 2> "$T/err" &
	   ;;
	x) $tool -xOf "$T/fifo" --totals="$name" > /dev/null 2> "$T/err" &
	   ;;
	esac
	pid=$!
	n=0
	until catches $pid $num; do
		n=$((n + 1))
		[ $n -lt 100 ] || { kill $pid; fail "$tool --totals=$name: no handler for $num"; }
		sleep 0.1
	done
	kill -s "$num" $pid
	if [ $mode = c ]; then cat "$T/fifo" > /dev/null; else cat "$T/in.tar" > "$T/fifo"; fi
	wait $pid || { cat "$T/err" >&2; fail "$tool --totals=$name -$mode: exit $?"; }
	what=written
	[ $mode = x ] && what=read
	re="^Total bytes $what: [0-9]* ([0-9.]*[KMGT]*i*B, [0-9.]*[KMGT]*i*B/s)\$"
	[ "$(grep -c "$re" "$T/err")" = 1 ] && [ "$(wc -l < "$T/err")" = 1 ] ||
		{ cat "$T/err" >&2; fail "$tool --totals=$name -$mode: not one line of totals"; }
}

for tool in tar sweep-tar; do
	signalled $tool SIGUSR1 10 c
	signalled $tool USR2 12 c
	signalled $tool SIGHUP 1 c
	signalled $tool QUIT 3 c
	signalled $tool SIGINT 2 c
	signalled $tool SIGUSR2 12 x
done

# no signal: no line
compare_run gnu_tar our_tar --totals=SIGUSR1 -c d || fail "--totals=SIGUSR1, no signal"
compare_run gnu_tar our_tar --totals=USR2 -c d || fail "--totals=USR2, no signal"
# names GNU tar does not take
for bad in SIGFOO 10 SIGTERM TERM usr1 ''; do
	compare_run gnu_tar our_tar --totals="$bad" -c d || fail "--totals=$bad"
done
exit 0
