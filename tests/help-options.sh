#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# help-options.sh: every long option a tool's --help names is one the tool
# knows: given alone (in a scratch directory, with no input), it may fail
# for want of operands, but never as an unrecognized option.
. "$top_srcdir/tests/lib.sh"
need_cmd timeout

cd "$T" || fail "no scratch directory"
for tool in sweep-tar sweep-cp sweep-du sweep-find sweep-sync; do
	"$sweep_tools/$tool" --help > help.txt 2>&1 || fail "$tool --help: exit $?"
	n=0
	: > out.txt
	for option in $(grep -o -- '--[a-z][a-z0-9-]*' help.txt | sort -u); do
		n=$((n + 1))
		echo "== $option" >> out.txt
		timeout 10 "$sweep_tools/$tool" "$option" < /dev/null >> out.txt 2>&1
	done
	unknown=$(awk '/^== --/ { option = $2; next }
		/unrecognized option|unknown option|invalid option/ { print option ", which it does not know: " $0; exit }' out.txt)
	[ -z "$unknown" ] || fail "$tool --help names $unknown"
	# (sweep-find's help names its primaries only in sweep-find(1))
	[ $n -ge 3 ] || [ $tool = sweep-find ] || fail "$tool --help names only $n options"
done
exit 0
