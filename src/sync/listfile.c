/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listfile.c: the files of --exclude-from, --include-from and
 * --files-from, read as rsync reads them: "-" is standard input; a line
 * ends at '\n' or '\r' (at '\0' with --from0); empty lines are skipped,
 * and, when the caller asks, lines that start with '#' or ';' (comments).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sync.h"

/* Hand the line in sb, if it counts, to each. */
static int take_line(struct strbuf *sb, bool comments, int (*each)(void *, const char *),
                     void *arg)
{
	const char *line = sb_str(sb);
	int r = 0;
	if (*line && !(comments && (*line == '#' || *line == ';')))
		r = each(arg, line);
	sb_reset(sb);
	return r;
}

int listfile_read(const char *path, bool nul, bool comments,
                  int (*each)(void *arg, const char *line), void *arg)
{
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "re");
	if (!f)
		return -1;
	struct strbuf line = STRBUF_INIT;
	int c, r = 0;
	while (r == 0 && (c = getc(f)) != EOF) {
		bool end = nul ? c == '\0' : c == '\n' || c == '\r';
		if (end)
			r = take_line(&line, comments, each, arg);
		else if (sb_addc(&line, (char)c) < 0)
			r = -1, errno = ENOMEM;
	}
	int err = errno;
	if (r == 0 && ferror(f))
		r = -1;
	else if (r == 0)
		r = take_line(&line, comments, each, arg);
	else
		errno = err;
	sb_free(&line);
	if (!std)
		fclose(f);
	return r;
}
