/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tar-lists.c: libFuzzer target for the readers of -T (names, "-C DIR"
 * lines, with and without --null and --verbatim-files-from) and -X
 * (patterns, newline- or NUL-separated). The input is the file; what was
 * read is then matched against a few member names.
 */
#include "fuzz.h"
#include "tar.h"

static const char *const members[] = { "a", "a/b", "./a/b/", "-C", "" };

static void names(const char *file, bool null, bool verbatim, bool wildcards)
{
	struct diag d;
	diag_init(&d, "sweep-tar", QUOTE_SHELL_ALWAYS);
	struct tar t;
	tar_init(&t, &d);
	t.opt.null = null;
	t.opt.verbatim_files_from = verbatim;
	t.opt.wildcards = wildcards;
	if (names_add_file(&t, file) == 0)
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
	const char *file = fuzz_file("list", data, size);
	names(file, false, false, false);
	names(file, false, true, true);
	names(file, true, false, false);
	patterns(file, EXCL_LEADING_DIR, '\n');
	patterns(file, EXCL_LITERAL, '\n');
	patterns(file, EXCL_LEADING_DIR, '\0');
	return 0;
}
