/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tar-args.c: libFuzzer target for sweep-tar's command line: old-style
 * bundles ("cvf x"), short and long options and their arguments, operands.
 * The input is the arguments, separated by NUL bytes. Only the parser runs
 * (it reads -T and -X files, no archive).
 */
#include <stdlib.h>
#include "fuzz.h"
#include "tar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	if (fuzz_argv(&a, "sweep-tar", data, size) < 0)
		return -1;
	struct diag d;
	diag_init(&d, "sweep-tar", QUOTE_SHELL_ALWAYS);
	struct tar t;
	tar_init(&t, &d);
	int n;
	char **args = oldargs_expand(a.n, a.v, &n);
	if (args)
		tar_parse_options(&t, n, args);
	if (args != a.v)
		free(args);
	tar_free(&t);
	diag_free(&d);
	fuzz_argv_free(&a);
	return 0;
}
