#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ignore-case.sh: --ignore-case and --no-ignore-case beside GNU tar. Member
# names after --ignore-case (until --no-ignore-case) match letters of either
# case, literally and as --wildcards patterns, on -t, -x and --delete; an
# --exclude pattern after it leaves out names of either case on -c; before
# it, or after --no-ignore-case, case counts. --no-wildcards and
# --wildcards likewise for the --exclude patterns after them (literal or
# not), and for the member names after them (with
# --[no-]wildcards-match-slash). The same output, messages, status, extracted trees and archive
# members.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar

mkdir -p "$T/src/Dir/Sub" "$T/g" "$T/s"
printf 'a\n' > "$T/src/README.txt"
printf 'b\n' > "$T/src/Dir/Sub/File.C"
printf 'c\n' > "$T/src/Dir/other.c"
(cd "$T/src" && tar --sort=name -cf "$T/in.tar" .) || fail "cannot make the archive"

compare_names 's/^tar:/sweep-tar:/'
list_gnu() { tar -tf "$T/in.tar" "$@"; }
list_our() { sweep_tar -tf "$T/in.tar" "$@"; }
compare_run list_gnu list_our --ignore-case ./readme.TXT
compare_run list_gnu list_our --ignore-case ./dir
compare_run list_gnu list_our --ignore-case --wildcards '*.c'
compare_run list_gnu list_our --wildcards '*.c' --ignore-case '*.TXT'
compare_run list_gnu list_our --ignore-case ./README.txt --no-ignore-case ./dir
compare_run list_gnu list_our ./readme.txt
compare_run list_gnu list_our --ignore-case --no-anchored 'file.c'
# --wildcards, --no-wildcards and --[no-]wildcards-match-slash are
# positional for member names too: a name before --wildcards is literal
compare_run list_gnu list_our './*/other.c' --wildcards
compare_run list_gnu list_our './*/other.c' --wildcards './D*/Sub'
compare_run list_gnu list_our --wildcards './D*' --no-wildcards './D*'
compare_run list_gnu list_our --wildcards --no-wildcards-match-slash './*/other.c' '*/File.C'
compare_run list_gnu list_our --wildcards --no-wildcards-match-slash './*' --wildcards-match-slash '*/File.C'

for args in "--ignore-case ./dir/sub" "--ignore-case --wildcards *.C" "./dir"; do
	rm -rf "$T/g" "$T/s" && mkdir "$T/g" "$T/s"
	start=$(date +%s) # directories implied take the time of each run
	# shellcheck disable=SC2086
	compare_run extract_gnu extract_our -x $args
	[ "$(manifest -R -t "$start" "$T/g")" = "$(manifest -R -t "$start" "$T/s")" ] ||
		fail "-x $args: trees differ"
done

for args in "--ignore-case ./DIR/other.C" "./DIR/other.C"; do
	cp "$T/in.tar" "$T/gd.tar" && cp "$T/in.tar" "$T/sd.tar"
	# shellcheck disable=SC2086
	tar --delete -f "$T/gd.tar" $args 2> "$T/gd.err"; gst=$?
	# shellcheck disable=SC2086
	sweep_tar --delete -f "$T/sd.tar" $args 2> "$T/sd.err"; sst=$?
	[ $gst = $sst ] || fail "--delete $args: status $sst, GNU's $gst"
	cmp -s "$T/gd.tar" "$T/sd.tar" || fail "--delete $args: the archives differ"
done

create_gnu() { (cd "$T/src" && tar -cf - "$@" . | tar -tf - | sort); }
create_our() { (cd "$T/src" && sweep_tar -cf - "$@" . | tar -tf - | sort); }
compare_run -k create_gnu create_our --ignore-case --exclude='*.c'
compare_run -k create_gnu create_our --exclude='*.c'
compare_run -k create_gnu create_our --ignore-case --exclude=dir --no-ignore-case --exclude=readme.txt
compare_run -k create_gnu create_our --no-wildcards --exclude='*/Sub'
compare_run -k create_gnu create_our --no-wildcards --exclude='*/Sub' --wildcards --exclude='*.C'
compare_run -k create_gnu create_our --exclude='*.c' --no-wildcards --exclude='*.C'
compare_run list_gnu list_our --no-wildcards --exclude='*.c'
compare_run list_gnu list_our --no-wildcards --exclude='./Dir/other.c'
compare_summary "tar --ignore-case"
