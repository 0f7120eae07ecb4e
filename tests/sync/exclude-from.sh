#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# exclude-from.sh: --exclude-from and --include-from beside rsync: one
# pattern a line, blank lines and '#' or ';' comments skipped, "- " and
# "+ " prefixes, CR-LF line ends, a last line without its newline, the
# rules in the order of the options with --exclude and --include among
# them, standard input as "-", --from0 (NUL-separated), and rsync's
# error (exit 11) for a file that cannot be read.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sync/tree.sh"
mkdir -p "$T/src/a/b/c" "$T/src/b" "$T/src/logs" "$T/src/#x"
for f in a/one.o a/b/two.o a/b/c/three.c b/four.c logs/l1 top.o top.c '#x/in' a/b/logs \
	b/f1 b/f2 ';semi' keep.o; do
	echo "$f" > "$T/src/$f"
done
find "$T/src" -exec touch -d 2011-01-01 {} +
printf '# objects\n*.o\n\n; logs too\nlogs/\n' > "$T/ex"
printf '+ keep.o\n- b/f?\n#x\n' > "$T/prefixed"
printf '*.o\r\nlogs/\r\n' > "$T/crlf"
printf '*.c\n*/' > "$T/inc"
printf '*.o\0logs/\0#x\0' > "$T/nul"
both "exclude-from" -ai --exclude-from=ex src/ DST
both "prefixes" -ai --exclude-from=prefixed --exclude-from=ex src/ DST
both "CR-LF" -ai --exclude-from=crlf src/ DST
both "include-from, then exclude" -ai --include-from=inc --exclude='*' src/ DST
both "in the order given" -ai --include=keep.o --exclude-from=ex src/ DST
WRAP='cat ex |' both "standard input" -ai --exclude-from=- src/ DST
both "--from0" -ai --from0 --exclude-from=nul src/ DST
both "-0 --include-from" -ai -0 --include-from=nul --exclude='*' src/ DST
both "--delete with it" -ai --delete --exclude-from=ex src/ DST
NO_TREE=1 both "a missing file" -ai --exclude-from=missing src/ DST
NO_TREE=1 both "a missing include file" -ai --include-from=missing src/ DST
exit 0
