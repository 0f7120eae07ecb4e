/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exclude.c: shell-pattern exclusion lists.
 *
 * An unanchored pattern matches a name when it matches the whole name or
 * any tail of it that starts right after a '/', so "*.o" and "sub" exclude
 * "dir/x.o" and "dir/sub" whatever the directory: what GNU du and tar do.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "exclude.h"
#include "strbuf.h"

int exclude_add(struct exclude *ex, const char *pattern, unsigned flags)
{
	if (ex->n == ex->cap) {
		size_t cap = ex->cap ? ex->cap * 2 : 8;
		struct exclude_pattern *v = reallocarray(ex->v, cap, sizeof(*v));
		if (!v)
			return -1;
		ex->v = v;
		ex->cap = cap;
	}
	char *copy = strdup(pattern);
	if (!copy)
		return -1;
	ex->v[ex->n++] = (struct exclude_pattern){ copy, flags };
	return 0;
}

/* Split buf (len bytes) at eol and add every pattern. */
static int add_lines(struct exclude *ex, char *buf, size_t len, unsigned flags, char eol)
{
	bool trim = isspace((unsigned char)eol);
	if (len == 0) /* buf is NULL for an empty file: no arithmetic on it */
		return 0;
	char *p = buf, *end = buf + len;
	while (p < end) {
		char *nl = memchr(p, eol, (size_t)(end - p));
		char *stop = nl ? nl : end;
		char *last = stop;
		if (trim)
			while (last > p && isspace((unsigned char)last[-1]))
				last--;
		*last = 0;
		if ((last > p || !trim) && (nl || last > p) && exclude_add(ex, p, flags) < 0)
			return -1;
		p = stop + 1;
	}
	return 0;
}

int exclude_add_file(struct exclude *ex, const char *file, unsigned flags, char eol)
{
	bool is_stdin = strcmp(file, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(file, "re");
	if (!fp)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	char chunk[8192];
	size_t n;
	int ret = -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		if (sb_add(&sb, chunk, n) < 0)
			goto out;
	if (ferror(fp))
		goto out;
	ret = add_lines(ex, sb.s, sb.len, flags, eol);
out:;
	int err = errno;
	if (!is_stdin)
		fclose(fp);
	sb_free(&sb);
	errno = err;
	return ret;
}

static bool match_one(const struct exclude_pattern *p, const char *name)
{
	if (p->flags & EXCL_LITERAL) {
		size_t n = strlen(p->pattern);
		int diff = p->flags & EXCL_CASEFOLD ? strncasecmp(p->pattern, name, n)
		                                    : strncmp(p->pattern, name, n);
		return diff == 0 &&
		       (name[n] == 0 || ((p->flags & EXCL_LEADING_DIR) && name[n] == '/'));
	}
	int fl = 0;
	if (p->flags & EXCL_CASEFOLD)
		fl |= FNM_CASEFOLD;
	if (p->flags & EXCL_LEADING_DIR)
		fl |= FNM_LEADING_DIR;
	if (p->flags & EXCL_PATHNAME)
		fl |= FNM_PATHNAME;
	return fnmatch(p->pattern, name, fl) == 0;
}

static bool match_pattern(const struct exclude_pattern *p, const char *name)
{
	if (match_one(p, name))
		return true;
	if (p->flags & EXCL_ANCHORED)
		return false;
	for (const char *s = name; *s; s++)
		if (s[0] == '/' && s[1] != '/' && match_one(p, s + 1))
			return true;
	return false;
}

bool exclude_match(const struct exclude *ex, const char *name)
{
	for (size_t i = 0; i < ex->n; i++)
		if (match_pattern(&ex->v[i], name))
			return true;
	return false;
}

void exclude_free(struct exclude *ex)
{
	for (size_t i = 0; i < ex->n; i++)
		free(ex->v[i].pattern);
	free(ex->v);
	*ex = (struct exclude)EXCLUDE_INIT;
}
