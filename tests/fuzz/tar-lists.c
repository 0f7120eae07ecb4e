/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tar-lists.c: libFuzzer target for the readers of -T (names, and lines
 * of options split into words as GNU tar splits them, with and without
 * --null and --verbatim-files-from, through the command line's parser) and
 * -X (patterns, newline- or NUL-separated). The input is the file; what
 * was read is then matched against a few member names.
 */
#include <stdio.h>
#include "fuzz.h"
#include "tar.h"

static const char *const members[] = { "a", "a/b", "./a/b/", "-C", "" };

static void names(const char *file, const char *how)
{
	struct diag d;
	diag_init(&d, "sweep-tar", QUOTE_SHELL_ALWAYS);
	struct tar t;
	tar_init(&t, &d);
	char *argv[] = { "sweep-tar", "-t", "-f", "/dev/null", (char *)how, "-T", (char *)file,
	                 NULL };
	if (tar_parse_options(&t, 7, argv) < 0)
		for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
			members_select(&t, members[i]);
	tar_free(&t);
	diag_free(&d);
}

static void patterns(const char *file, unsigned flags, char eol)
{
	struct exclude ex = { 0 };
	if (exclude_add_file(&ex, file, flags, eol) == 0)
		for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
			exclude_match(&ex, members[i]);
	exclude_free(&ex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet_stdin;
	/* a "-T -" line reads standard input: empty here, never the runner's */
	if (!quiet_stdin)
		quiet_stdin = freopen("/dev/null", "r", stdin) != NULL;
	const char *file = fuzz_file("list", data, size);
	names(file, "--no-null");
	names(file, "--verbatim-files-from");
	names(file, "--null");
	patterns(file, EXCL_LEADING_DIR, '\n');
	patterns(file, EXCL_LITERAL, '\n');
	patterns(file, EXCL_LEADING_DIR, '\0');
	return 0;
}
