/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * find-expr.c: libFuzzer target for sweep-find's command line (leading
 * options, starting points, the expression and every primary's argument
 * parser). The input is the arguments, separated by NUL bytes. Only the
 * parser runs: no walk, no command.
 *
 * Output files named by -fprint, -fls, -fprintf and -fprint0 are opened at
 * parse time; this target is linked with --wrap=fopen so that they all go to
 * /dev/null instead of wherever the input says.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "find.h"
#include "fuzz.h"
#include "output.h"

FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);

FILE *__wrap_fopen(const char *path, const char *mode)
{
	return __real_fopen(strchr(mode, 'r') && !strchr(mode, '+') ? path : "/dev/null", mode);
}

/* glibc's regcomp() takes memory exponential in a run of repetition
 * operators ("a+++++..."); GNU find then says "Memory exhausted" as
 * sweep-find does, but the fuzzer's memory limit would stop first. */
static bool regex_bomb(const uint8_t *data, size_t size)
{
	size_t run = 0;
	for (size_t i = 0; i < size; i++) {
		run = strchr("+*?", data[i]) && data[i] ? run + 1 : 0;
		if (run > 8)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	if (regex_bomb(data, size) || fuzz_argv(&a, "sweep-find", data, size) < 0)
		return -1;
	struct diag d;
	diag_init(&d, "sweep-find", QUOTE_LOCALE);
	struct find f;
	find_init(&f, &d);
	if (out_get(&f, NULL))
		find_parse(&f, a.n, a.v);
	find_free(&f);
	diag_free(&d);
	fuzz_argv_free(&a);
	return 0;
}
