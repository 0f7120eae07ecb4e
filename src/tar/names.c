/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * names.c: the operands of the command line in the order given: names to
 * archive or to select, and -C directories between them (GNU tar's -C is
 * positional and cumulative), with -T lists spliced in where they appear.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tar.h"

int names_add(struct tar_names *ns, const char *name, bool chdir)
{
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? ns->cap * 2 : 16;
		struct tar_name *v = reallocarray(ns->v, cap, sizeof(*v));
		if (!v)
			return -1;
		ns->v = v;
		ns->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return -1;
	ns->v[ns->n++] = (struct tar_name){ .name = copy, .chdir = chdir };
	return 0;
}

/* The directory of a -C line of a list ("-C DIR", "-CDIR", "--directory=DIR"),
 * or NULL for any other option. */
static const char *list_chdir(const char *line)
{
	const char *dir = NULL;
	if (strncmp(line, "--directory=", 12) == 0)
		dir = line + 12;
	else if (strncmp(line, "-C", 2) == 0)
		for (dir = line + 2; *dir == ' '; dir++)
			;
	return dir && *dir ? dir : NULL;
}

/* Add every name in buf (len bytes, separated by sep) from list file; empty
 * ones are skipped as GNU tar skips them; with options, lines that start
 * with '-' are options. */
static int add_list(struct tar *t, const char *file, char *buf, size_t len, char sep,
                    bool options)
{
	char *p = buf, *end = buf + len;
	for (size_t line = 1; p < end; line++) {
		char *stop = memchr(p, sep, (size_t)(end - p));
		if (!stop)
			stop = end;
		*stop = 0;
		const char *dir = options && p[0] == '-' ? list_chdir(p) : NULL;
		if (options && p[0] == '-' && !dir)
			tar_error(t, 0, "%s:%zu: unrecognized option", tq(t, 0, file), line);
		else if (stop > p && names_add(&t->opt.names, dir ? dir : p, dir != NULL) < 0)
			return -1;
		p = stop + 1;
	}
	return 0;
}

int names_add_file(struct tar *t, const char *file)
{
	bool is_stdin = strcmp(file, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(file, "re");
	if (!fp)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	char chunk[16384];
	size_t n;
	int ret = -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		if (sb_add(&sb, chunk, n) < 0)
			goto out;
	if (ferror(fp))
		goto out;
	bool null = t->opt.null;
	ret = sb.len ? add_list(t, file, sb.s, sb.len, null ? '\0' : '\n',
	                        !null && !t->opt.verbatim_files_from) : 0;
out:;
	int err = errno;
	if (!is_stdin)
		fclose(fp);
	sb_free(&sb);
	errno = err;
	return ret;
}

bool names_any(const struct tar_names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		if (!ns->v[i].chdir)
			return true;
	return false;
}

void names_free(struct tar_names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i].name);
	free(ns->v);
	*ns = (struct tar_names){ NULL, 0, 0 };
}
