#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# checkpoint.sh: --checkpoint[=N] and --checkpoint-action beside GNU tar, on
# a tree whose archive has a known number of records (17 of 10 KiB, in the
# gnu format): "Write/Read checkpoint N" by default, dot (on standard output,
# or standard error when the archive goes there), echo=STRING with %u and
# %s, exec=COMMAND with GNU's environment, several actions in order, an
# action alone (every 10 records), compressed archives (the tar stream's
# records), -t and -x, and the errors for a bad N or action.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar gzip

mkdir -p "$T/src/d/sub"
i=0
while [ $i -lt 30 ]; do
	head -c 5000 /dev/zero > "$T/src/d/f$i"
	i=$((i + 1))
done
printf 'small\n' > "$T/src/d/sub/s"
(cd "$T/src" && tar -cf "$T/in.tar" d) || fail "GNU tar -c"

c() { # WHAT ARGS...: a -c with ARGS, compared in order
	what=$1
	shift
	compare_run -k gnu_tar our_tar --format=gnu "$@" -c d || fail "$what"
}
c "--checkpoint" --checkpoint
c "--checkpoint=5 dot" --checkpoint=5 --checkpoint-action=dot
c "--checkpoint=5 ." --checkpoint=5 --checkpoint-action=.
c "echo=STRING" --checkpoint=5 '--checkpoint-action=echo=at %u (%s), %x and %%'
c "echo then dot" --checkpoint=4 --checkpoint-action=echo --checkpoint-action=dot
c "an action alone" --checkpoint-action=dot
c "exec=COMMAND" --checkpoint=3 \
	'--checkpoint-action=exec=echo $TAR_CHECKPOINT $TAR_SUBCOMMAND $TAR_BLOCKING_FACTOR $TAR_FORMAT %u'
c "-b 4" -b 4 --checkpoint=7
c "-z" -z --checkpoint=4
c "--checkpoint=0" --checkpoint=0
# --checkpoint=.N: GNU tar's old way to ask for dots, an action in its
# place among the others; N as C reads it
c "--checkpoint=.N" --checkpoint=.5
c "--checkpoint=." --checkpoint=.
c ".N, then echo" --checkpoint=.4 '--checkpoint-action=echo=at %u'
c ".N, then another N" --checkpoint=.4 --checkpoint=3
c "0, then an action" --checkpoint=0 --checkpoint-action=dot
c "N in octal and hex" --checkpoint=010 --checkpoint=0x3
c "a bad N after a dot" --checkpoint=.x
c "a bad N" --checkpoint=x
c "a bad action" --checkpoint-action=bell2
# the archive on standard output: dots on standard error
gnu_out() { within src tar --format=gnu "$@" | cat > /dev/null; }
our_out() { within src sweep_tar --format=gnu "$@" | cat > /dev/null; }
compare_run -k gnu_out our_out -cf - --checkpoint=5 --checkpoint-action=dot d ||
	fail "dots with the archive on standard output"
# reading: the same archive, GNU tar's
gnu_in() { within src tar -f "$T/in.tar" "$@"; }
our_in() { within src sweep_tar -f "$T/in.tar" "$@"; }
mkdir "$T/src/x"
compare_run -k gnu_in our_in -t --checkpoint=3 || fail "-t"
compare_run -k gnu_in our_in -x -C x --checkpoint=4 --checkpoint-action=dot || fail "-x dot"
compare_run -k gnu_in our_in -t --checkpoint-action='echo=%s %u' || fail "-t echo"
exit 0
