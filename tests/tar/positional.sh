#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# positional.sh: creating, GNU tar's name-selecting options act on the
# names after them only ("tar -c a --exclude=x b" leaves out x below b,
# keeps it below a): --exclude, -X, --exclude-vcs, --exclude-tag,
# --[no-]recursion, --anchored; the same options inside -T lists (split
# into words as a shell would, quotes and all; the others refused there;
# a list read twice said, not read again);
# and after the last name GNU's warning that they have no effect, exit 2,
# the archive made all the same. Each against GNU tar on the same tree:
# members, messages, status.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tar/tree.sh"
need_cmd tar perl

src=$T/src
mkdir -p "$src/a/sub" "$src/b/sub" "$src/b/.git" "$src/c/cache"
for f in a/f a/x.o a/sub/g b/f b/x.o b/sub/g b/.git/HEAD c/f c/cache/data; do
	printf '%s\n' "$f" > "$src/$f"
done
printf 'tag\n' > "$src/c/cache/TAG"

# same NAME ARGS...: "tar ARGS" and "sweep-tar ARGS" from $src give the
# same messages and status, and archives with the same members
same() {
	name=$1
	shift
	rm -f "$T/sweep.tar" "$T/gnu.tar"
	compare_run gnu_tar our_tar "$@" || fail "$name"
	[ -s "$T/gnu.tar" ] || return 0
	tar -tf "$T/gnu.tar" | sort > "$T/want"
	tar -tf "$T/sweep.tar" | sort > "$T/got"
	cmp -s "$T/want" "$T/got" || echo "in: $name (members)" >&2
	check_same "$T/want" "$T/got"
}

same "--exclude between names" -c a --exclude=f b c
same "--exclude before, between" -c --exclude='*.o' a --exclude=g b
same "--anchored between" -c a --anchored --exclude=f b --no-anchored --exclude=f c
printf 'x.o\n' > "$T/patterns"
same "-X between names" -c a -X "$T/patterns" b
same "--exclude-vcs between" -c a --exclude-vcs b
same "--exclude-tag between" -c a --exclude-tag=TAG c
same "--no-recursion between" -c --no-recursion a --recursion b
same "-C between excludes" -c a --exclude=g -C b sub
same "a name twice, then excluded" -c a --exclude=f a

# the same in -T lists, and in force after the list
printf 'a\n--exclude=f\nb\n' > "$T/list-exclude"
same "-T: --exclude line" -c -T "$T/list-exclude" c
printf -- "--no-recursion\na\n--recursion\nb\n" > "$T/list-recursion"
same "-T: --no-recursion lines" -c -T "$T/list-recursion"
printf -- "--no-recursion\na\n" > "$T/list-stays"
same "-T: in force after the list" -c -T "$T/list-stays" b
printf -- "--exclude='*.o' --exclude \"f\"\na\n-X %s\nb\n" "$T/patterns" > "$T/list-words"
same "-T: quoted words, -X" -c -T "$T/list-words"
printf -- "--excl=g\na\n" > "$T/list-abbrev"
same "-T: an abbreviated option" -c -T "$T/list-abbrev"
printf -- "-T %s\nc\n" "$T/list-exclude" > "$T/list-nested"
same "-T: a list in a list" -c -T "$T/list-nested"
# a list read twice, or naming itself (read without end, else): said
printf -- "a\n-T %s\n" "$T/list-self" > "$T/list-self"
same "-T: a list naming itself" -c -T "$T/list-self"
same "-T: a list twice" -c -T "$T/list-exclude" -T "$T/list-nested"
for bad in -v --transform=s/a/z/ --one-file-system "--exclude='f" -z; do
	printf -- "%s\na\n" "$bad" > "$T/list-bad"
	same "-T: $bad refused" -c -T "$T/list-bad"
done

# after the last name: GNU's warning, exit 2, the archive made
same "--exclude after the names" -c a --exclude=f
# (a name with a trailing slash, walked without it, is still its own:
# the exclude after it acted on it, the archive came out empty)
same "--exclude after a name with a slash" -c a/ --exclude=a
same "--exclude between names with slashes" -c a// --exclude=f b/
same "--no-recursion after the names" -c a b --no-recursion
same "-C after the names" -c a -C b
same "-X after a list" -c -T "$T/list-stays" -X "$T/patterns"
# ...but not in a list: an option on its last line acts on nothing, in
# silence (it was the warning, exit 2); on the names after the list, on them
printf 'a\n--exclude=f\n' > "$T/list-last"
same "-T: an option after the list's last name" -c -T "$T/list-last"
same "-T: an option on the list's last line, names after" -c -T "$T/list-last" b
same "several after the names" -c a --anchored --exclude-tag=TAG --exclude-vcs
# not creating: excludes are for every member, wherever they stand
(cd "$src" && tar -cf "$T/all.tar" a b)
(cd "$T" && tar -tf all.tar a --exclude=f b | sort) > "$T/want" 2>&1
(cd "$T" && sweep_tar -tf all.tar a --exclude=f b | sort) > "$T/got" 2>&1
check_same "$T/want" "$T/got"
exit 0
