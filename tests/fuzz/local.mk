# SPDX-License-Identifier: BSD-2-Clause
# tests/fuzz: libFuzzer targets and their seed corpora (tests/fuzz/seeds,
# one directory per target). Built with ./configure --enable-fuzz CC=clang; "make fuzz" runs
# each for FUZZ_SECONDS on one core and fails on a crash, a leak or a hang.
FUZZ_TARGETS = \
	tests/fuzz/find-expr \
	tests/fuzz/tar-args \
	tests/fuzz/tar-archive \
	tests/fuzz/tar-lists
FUZZ_SECONDS = 60
FUZZ_SEEDS = \
	tests/fuzz/seeds/find-expr/name tests/fuzz/seeds/find-expr/or-not \
	tests/fuzz/seeds/find-expr/printf tests/fuzz/seeds/find-expr/sizes \
	tests/fuzz/seeds/find-expr/exec tests/fuzz/seeds/find-expr/depth \
	tests/fuzz/seeds/tar-args/old tests/fuzz/seeds/tar-args/old-more \
	tests/fuzz/seeds/tar-args/create tests/fuzz/seeds/tar-args/list \
	tests/fuzz/seeds/tar-args/extract tests/fuzz/seeds/tar-args/block \
	tests/fuzz/seeds/tar-archive/gnu.tar tests/fuzz/seeds/tar-archive/ustar.tar \
	tests/fuzz/seeds/tar-archive/pax.tar tests/fuzz/seeds/tar-archive/sparse-gnu.tar \
	tests/fuzz/seeds/tar-archive/sparse-pax.tar \
	tests/fuzz/seeds/tar-archive/longnames-gnu.tar \
	tests/fuzz/seeds/tar-archive/longnames-pax.tar \
	tests/fuzz/seeds/tar-lists/names tests/fuzz/seeds/tar-lists/nul \
	tests/fuzz/seeds/tar-lists/patterns tests/fuzz/seeds/tar-lists/empty
EXTRA_DIST += $(FUZZ_SEEDS)

FUZZ_COMMON = tests/fuzz/fuzz.c tests/fuzz/fuzz.h
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/common -I$(top_srcdir)/tests/fuzz
tests_fuzz_find_expr_SOURCES = tests/fuzz/find-expr.c $(FUZZ_COMMON)
tests_fuzz_find_expr_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/src/find
# output files named in the input go to /dev/null (see find-expr.c)
tests_fuzz_find_expr_LDFLAGS = -fsanitize=fuzzer -Wl,--wrap=fopen
tests_fuzz_find_expr_LDADD = src/find/libfind.la
tests_fuzz_tar_args_SOURCES = tests/fuzz/tar-args.c $(FUZZ_COMMON)
tests_fuzz_tar_args_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/src/tar
tests_fuzz_tar_args_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_tar_args_LDADD = src/tar/libtar.la
tests_fuzz_tar_archive_SOURCES = tests/fuzz/tar-archive.c $(FUZZ_COMMON)
tests_fuzz_tar_archive_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/src/tar
tests_fuzz_tar_archive_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_tar_archive_LDADD = src/tar/libtar.la
tests_fuzz_tar_lists_SOURCES = tests/fuzz/tar-lists.c $(FUZZ_COMMON)
tests_fuzz_tar_lists_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/src/tar
tests_fuzz_tar_lists_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_tar_lists_LDADD = src/tar/libtar.la

if FUZZ
noinst_PROGRAMS += $(FUZZ_TARGETS)

# Each target on one core, from its seeds; new inputs go to a corpus in the
# build tree, a crashing input to tests/fuzz/crash-TARGET-*. Standard input
# is /dev/null: "-T -" must not wait for a terminal.
fuzz: $(FUZZ_TARGETS)
	@fail=0; for t in $(FUZZ_TARGETS); do \
		name=$${t#tests/fuzz/}; \
		mkdir -p "$$t.corpus"; \
		echo "fuzz: $$name for $(FUZZ_SECONDS)s"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 \
			-close_fd_mask=3 -print_final_stats=0 \
			-artifact_prefix="tests/fuzz/crash-$$name-" \
			"$$t.corpus" "$(srcdir)/tests/fuzz/seeds/$$name" < /dev/null \
			> "$$t.log" 2>&1 || { fail=1; tail -60 "$$t.log"; }; \
		grep -E '^Done|^#[0-9]+.*DONE' "$$t.log" | tail -1; \
	done; exit $$fail
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz CC=clang first" >&2; exit 1
endif
.PHONY: fuzz

clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/*.corpus tests/fuzz/*.log tests/fuzz/crash-*
.PHONY: clean-fuzz
