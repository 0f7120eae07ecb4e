#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# regextype.sh: -regextype and -files0-from beside GNU find. Every type GNU
# find knows, with patterns that tell the syntaxes apart (groups and
# alternation with and without backslashes, intervals, + and ?, classes,
# '.' against a newline in a name, -iregex), each type applying to the
# -regex after it; GNU's error for an unknown type. -files0-from: names
# from a file and from standard input, an unended last name, an empty name
# (reported with its place), an empty list (nothing walked), a missing
# file, operands beside it, -ok beside standard input. Output (sorted,
# NUL-separated), messages and status compared.
. "$top_srcdir/tests/lib.sh"
need_cmd find
find --version 2>/dev/null | grep -q 'GNU findutils' || skip "needs GNU find"

mkdir -p "$T/t/sub" "$T/t/abab"
for f in abc ABC a.b aab aaab 'a+b' 'a?b' 'a|b' '(a)' 'x{2}' xx sub/abc sub/x1 'new
line'; do
	: > "$T/t/$f"
done
cd "$T" || fail "no scratch directory"
compare_names 's/^find:/sweep-find:/'
check() { compare_run -z find sweep-find t "$@" -print0 || fail "$*"; }

types="findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic posix-egrep
       egrep posix-extended posix-minimal-basic sed"
for type in $types; do
	for re in '.*/a\(b\|c\)' '.*/a(b|c)' '.*/a\{2\}b' '.*/a{2}b' '.*/a+b' '.*/a\+b' \
	          '.*/a?b' '.*/a\?b' '.*/a|b' '.*/[[:alpha:]]*' '.*/x{2}' '.*/\(a\)' \
	          '.*/(a)' '.*new.line' '.*/a.b' '.*/a\.b' '.*[0-9]' '.*/a*b' '.*/\w+'; do
		check -regextype "$type" -regex "$re"
	done
	check -regextype "$type" -iregex '.*/abc'
done
# the type applies to the -regex after it, the last one given
check -regex '.*/a\(b\|c\)' -o -regextype posix-extended -regex '.*/x{2}'
check -regextype posix-extended -regextype emacs -regex '.*/a\(b\|c\)'
check -name abc -regextype posix-extended
for bad in foo POSIX-basic ''; do
	compare_run find sweep-find t -regextype "$bad" -regex x || fail "-regextype $bad"
done
compare_run find sweep-find t -regextype || fail "-regextype without a type"

# -files0-from
printf 't/abc\0t/sub\0\0t/none\0t/a.b' > list
: > empty
f0() { compare_run "$@" || fail "-files0-from: $*"; }
f0 find sweep-find -files0-from list
f0 find sweep-find -files0-from list -name '*b*'
f0 find sweep-find -files0-from empty
f0 find sweep-find -files0-from missing
f0 find sweep-find t -files0-from list
f0 find sweep-find -files0-from
gnu_stdin() { find "$@" < list; }
our_stdin() { sweep-find "$@" < list; }
f0 gnu_stdin our_stdin -files0-from - -print
f0 gnu_stdin our_stdin -files0-from - -ok echo '{}' ';'
exit 0
