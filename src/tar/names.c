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

/* Add every name in buf (len bytes, separated by sep); empty ones are
 * skipped as GNU tar skips them. */
static int add_list(struct tar_names *ns, char *buf, size_t len, char sep)
{
	char *p = buf, *end = buf + len;
	while (p < end) {
		char *stop = memchr(p, sep, (size_t)(end - p));
		if (!stop)
			stop = end;
		*stop = 0;
		if (stop > p && names_add(ns, p, false) < 0)
			return -1;
		p = stop + 1;
	}
	return 0;
}

int names_add_file(struct tar_names *ns, const char *file, bool null)
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
	ret = sb.len ? add_list(ns, sb.s, sb.len, null ? '\0' : '\n') : 0;
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
