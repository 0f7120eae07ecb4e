# SPDX-License-Identifier: BSD-2-Clause
# tests/uninstalled.sh: where a build tree's programs are, for the suite
# (tests/lib.sh) and the benchmark (bench/lib.sh). POSIX sh: the tar tests
# run under dash.
#
# In a shared build libtool leaves a wrapper script in place of each program
# that links libsweep; it sets LD_LIBRARY_PATH and runs .libs/PROGRAM, and
# costs a bash and a handful of seds every run (70 ms here, more with a cold
# cache, where bash and sed are read from the disk). The suite runs the
# tools thousands of times and the benchmark times them, so both run the
# binaries themselves, with the library path the wrapper would set: the
# programs run as installed ones do.
#
#   uninstalled BUILD  set sweep_tools (sweep-tar and its siblings) and
#                      sweep_test_tools (walk-dump, devinfo) to the
#                      directories of BUILD's binaries; export LD_LIBRARY_PATH
#                      with BUILD's libsweep first when they need it
uninstalled() {
	sweep_tools=$1 sweep_test_tools=$1/tests
	case $(head -c2 "$1/sweep-find" 2>/dev/null) in
	'#!') ;;
	*) return 0 ;; # a static build, or nothing built yet
	esac
	sweep_tools=$1/.libs sweep_test_tools=$1/tests/.libs
	LD_LIBRARY_PATH=$1/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
}
