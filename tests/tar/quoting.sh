#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# quoting.sh: --quoting-style (each of GNU tar's ten styles), --quote-chars
# and --no-quote-chars beside GNU tar: names with spaces, quotes, a colon,
# a newline, a tab, a backslash, an invalid byte and UTF-8, as -t and -tv
# list them and as messages name them, in C and UTF-8 locales; an unknown
# style is GNU's fatal error. (They were "unrecognized option", exit 64:
# a script that lists with --quoting-style=literal stopped there.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar
mkdir -p "$T/src/d"
for n in "sp ace" "qu'ote" 'dq"x' "co:lon" "$(printf 'nl\nx')" "$(printf 'b\377d')" \
	"$(printf 'tab\tx')" 'back\slash' plain "é"; do
	: > "$T/src/d/$n"
done
(cd "$T/src" && tar -cf "$T/q.tar" d) || fail "GNU tar -c"
# quoted STYLE LOCALE [OPTIONS]: the listing and a message, compared
quoted() {
	style=$1 loc=$2
	shift 2
	(export LC_ALL=$loc
	 compare_run -k "within src tar" "within src sweep_tar" --quoting-style=$style "$@" \
		-tvf "$T/q.tar" &&
	 compare_run -k "within src tar" "within src sweep_tar" --quoting-style=$style "$@" \
		-cf /dev/null no:pe d/co:lon) || fail "--quoting-style=$style $*, $loc"
}
for style in literal shell shell-always shell-escape shell-escape-always c c-maybe escape \
	locale clocale; do
	quoted $style C.UTF-8
done
# what the locale changes: the quotes, what is printable
for style in shell-escape c-maybe locale clocale; do
	quoted $style C
done
# (GNU escapes --quote-chars within double quotes in the -always shell
# styles, a quirk of its own: not compared)
for style in shell c-maybe escape locale; do
	quoted $style C.UTF-8 --quote-chars=do --no-quote-chars=o
done
compare_run -k "within src tar" "within src sweep_tar" --quoting-style=bogus -tf "$T/q.tar" ||
	fail "an unknown style"
exit 0
