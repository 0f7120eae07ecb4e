# SPDX-License-Identifier: BSD-2-Clause
# tests/lib.sh: shared by the shell tests. Source it first; it makes a
# scratch directory $T (removed on exit) and provides:
#   skip REASON      exit 77 with REASON on stderr (automake: SKIP)
#   fail MESSAGE     print MESSAGE and exit 1
#   need_root        skip unless running as root
#   need_cmd CMD...  skip unless every CMD is installed
#   check_same A B   fail with a diff unless files A and B are identical
#   shell_quote WORD set quoted to WORD in single quotes, for eval (in the
#                    shell, no sed: tables quote every argument of hundreds
#                    of runs)
#   unprivileged     set AS_USER to the command prefix (words without spaces,
#                    to be used unquoted) that runs without root's powers,
#                    empty when not root; or skip
#   show_diff A B    the start of a diff of files A and B, on stderr
#   build_shim SRC   compile the LD_PRELOAD shim SRC (below top_srcdir,
#                    without the sanitizers' flags: it goes into GNU's tools
#                    too) to $T/NAME.so, NAME its file's, or skip; and let a
#                    sanitized build of ours take it (its runtime first)
#   sanitized TOOL   true if our TOOL (found on PATH, its libsweep with it)
#                    is built with a sanitizer: its shadow memory and
#                    quarantine make memory limits and peaks, and timings,
#                    mean nothing there
#   sweep_tools      the directory of the tools' binaries (tests/uninstalled.sh:
#                    not libtool's wrapper scripts), first on PATH with
#                    sweep_test_tools (walk-dump, devinfo)
# and the harness that runs GNU's tool and ours on the same arguments:
#   compare_run [-z] [-s] [-q] [-k] [-e SED] [-o SED] GNU OURS ARGS...
#                    one check: GNU ARGS and OURS ARGS (each a command of
#                    words without spaces, used unquoted: a program or a
#                    function), standard input /dev/null, must write the
#                    same output and messages and exit with the same status.
#                    Output and messages are compared sorted, as the walks
#                    differ in order (-k: in order; -z: the output's lines
#                    end in NUL), GNU's messages read through the sed script
#                    of compare_names (to name ours). -s squeezes runs of
#                    spaces in the output, -q leaves the messages out, -e
#                    SED edits both sides' messages, -o SED their output. A difference is shown
#                    and counted; returns 1 on it
#   compare_names SED  the sed script that makes GNU's messages name ours,
#                    as ours do (e.g. s/^du:/sweep-du:/)
#   compare_check WHAT CMD...  one check of another kind: unless CMD
#                    succeeds, WHAT is counted and shown as failed
#   compare_summary WHAT  say how many checks failed, and fail if any did
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sweep-test.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
. "$top_srcdir/tests/uninstalled.sh"
uninstalled "$top_builddir"
PATH="$sweep_tools:$sweep_test_tools:$top_builddir:$top_builddir/tests:$PATH"
export LC_ALL=C
# Debian's python3 (.ci/install-deps installs it) where a version manager's
# shim stands before it on PATH: pyenv's costs a shell and a dozen processes
# a run, half a second here, and the tests that script a check in python run
# it dozens of times
[ -x /usr/bin/python3 ] && python3() { /usr/bin/python3 "$@"; }

skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { for c; do command -v "$c" >/dev/null 2>&1 || skip "needs $c"; done; }
build_shim() {
	_so=$T/$(basename "$1" .c).so
	${CC:-cc} -shared -fPIC -o "$_so" "$top_srcdir/$1" -ldl || skip "cannot build the LD_PRELOAD shim $1"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS
}
sanitized() {
	ldd "$(command -v "$1")" 2>/dev/null | grep -q 'lib[at]san\|libubsan'
}
show_diff() { diff -u "$1" "$2" | head -40 | cut -c1-200 >&2; }
check_same() {
	cmp -s "$1" "$2" && return 0
	show_diff "$1" "$2"
	fail "$1 and $2 differ"
}
unprivileged() { # POSIX sh: the tar tests run under dash
	AS_USER=
	[ "$(id -u)" = 0 ] || return 0
	need_cmd setpriv
	id nobody >/dev/null 2>&1 || skip "no user nobody to drop privileges to"
	_group=$(id -gn nobody 2>/dev/null)
	getent group nogroup >/dev/null && _group=nogroup
	AS_USER="setpriv --reuid=nobody --regid=$_group --clear-groups"
	$AS_USER true 2>/dev/null || skip "setpriv cannot drop privileges here"
	$AS_USER "$sweep_tools/sweep-find" --version >/dev/null 2>&1 ||
		skip "nobody cannot run the build's programs (a directory above $top_builddir closed to others?)"
}

shell_quote() {
	quoted= _rest=$1
	while :; do
		case $_rest in
		*\'*)
			quoted="$quoted${_rest%%\'*}'\\''"
			_rest=${_rest#*\'}
			;;
		*)
			quoted="'$quoted$_rest'"
			return
			;;
		esac
	done
}

compare_checks=0 compare_failures=0 _c_names=''
compare_names() { _c_names=$1; }
compare_run() {
	_c_sort=sort _c_msort=sort _c_squeeze='' _c_quiet='' _c_edit='' _c_oedit=''
	while :; do
		case $1 in
		-z) _c_sort="sort -z" ;;
		-s) _c_squeeze=1 ;;
		-q) _c_quiet=1 ;;
		-k) _c_sort=cat _c_msort=cat ;;
		-e) _c_edit=$2; shift ;;
		-o) _c_oedit=$2; shift ;;
		*) break ;;
		esac
		shift
	done
	_c_gnu=$1 _c_ours=$2
	shift 2
	$_c_gnu "$@" > "$T/gnu.out" 2> "$T/gnu.err" < /dev/null
	_c_gst=$?
	$_c_ours "$@" > "$T/our.out" 2> "$T/our.err" < /dev/null
	_c_ost=$?
	# as few processes as do the job: tables run hundreds of checks, and a
	# process costs milliseconds on a loaded machine (more under sanitizers)
	for _c_side in gnu our; do
		_c_in=$T/$_c_side.out
		if [ -n "$_c_squeeze" ]; then
			tr -s ' ' < "$_c_in" > "$T/$_c_side.squeezed"
			_c_in=$T/$_c_side.squeezed
		fi
		if [ -n "$_c_oedit" ]; then
			sed -e "$_c_oedit" "$_c_in" > "$T/$_c_side.edited"
			_c_in=$T/$_c_side.edited
		fi
		$_c_sort < "$_c_in" > "$T/$_c_side.sorted"
	done
	: > "$T/gnu.msgs"
	: > "$T/our.msgs"
	if [ -s "$T/gnu.err" ] || [ -s "$T/our.err" ]; then
		sed -e "$_c_names" -e "$_c_edit" "$T/gnu.err" | $_c_msort > "$T/gnu.msgs"
		sed -e "$_c_edit" "$T/our.err" | $_c_msort > "$T/our.msgs"
	fi
	compare_checks=$((compare_checks + 1))
	if ! cmp -s "$T/gnu.sorted" "$T/our.sorted"; then
		compare_failed "$_c_gnu $* (output)"
		show_diff "$T/gnu.sorted" "$T/our.sorted"
		return 1
	elif [ -z "$_c_quiet" ] && { [ -s "$T/gnu.msgs" ] || [ -s "$T/our.msgs" ]; } &&
		! cmp -s "$T/gnu.msgs" "$T/our.msgs"; then
		compare_failed "$_c_gnu $* (messages)"
		show_diff "$T/gnu.msgs" "$T/our.msgs"
		return 1
	elif [ $_c_gst != $_c_ost ]; then
		compare_failed "$_c_gnu $* (status $_c_gst, ours $_c_ost)"
	fi
}
compare_failed() {
	compare_failures=$((compare_failures + 1))
	echo "FAIL: $*" >&2
	return 1
}
compare_check() {
	_c_what=$1
	shift
	compare_checks=$((compare_checks + 1))
	"$@" || compare_failed "$_c_what"
}
compare_summary() {
	echo "$1: $compare_checks checks, $compare_failures failed"
	[ "$compare_failures" = 0 ] || fail "$compare_failures of $compare_checks checks failed: $1"
}
