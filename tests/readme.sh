#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# readme.sh: what README.md shows a reader works. Every command of its usage
# blocks (a "<!-- usage -->" line before a sh block) runs with the tools of
# this build, /tmp standing for a scratch directory, and ends with status 0
# and nothing on standard error; every relative link of README.md and
# bench/README.md names a file of the tree.
. "$top_srcdir/tests/lib.sh"
need_cmd python3

python3 - "$top_srcdir" "$T" <<'PY' > "$T/commands" || fail "cannot read README.md"
import re, sys
top, scratch = sys.argv[1], sys.argv[2]
text = open(top + '/README.md').read()
blocks = re.findall(r'<!-- usage -->\n```sh\n(.*?)```', text, re.S)
assert blocks, 'no usage block'
for block in blocks:
    for line in block.splitlines():
        if line.strip():
            print(line.replace('/tmp/', scratch + '/'))
PY
n=0
while IFS= read -r command; do
	n=$((n + 1))
	case $command in
	*" / etc"*) [ "$(id -u)" = 0 ] || { echo "SKIP part: '$command' reads all of /etc: root only" >&2; continue; } ;;
	esac
	(cd "$T" && sh -c "$command") > /dev/null 2> "$T/err" || fail "README command $n failed: $command: $(cat "$T/err")"
	[ -s "$T/err" ] && fail "README command $n said something: $command: $(cat "$T/err")"
done < "$T/commands"
[ $n -ge 5 ] || fail "only $n README commands found"

# relative links: [text](path) and ![alt](path), not URLs or anchors
for doc in README.md bench/README.md; do
	python3 - "$top_srcdir" "$doc" <<'PY' || fail "$doc has a broken link"
import os, re, sys
top, doc = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.join(top, doc))
bad = 0
for target in re.findall(r'\]\(([^)\s]+)\)', open(os.path.join(top, doc)).read()):
    if re.match(r'[a-z]+:', target) or target.startswith('#'):
        continue
    if not os.path.exists(os.path.join(here, target.split('#')[0])):
        print('%s: no %s' % (doc, target), file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
done
exit 0
