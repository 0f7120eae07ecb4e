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

/* An option line of a list split into words as GNU tar splits it (blanks
 * between words; '...' taken as it is; "..." and bare words with a
 * backslash escaping the next character), each NUL-terminated in words,
 * pointed to by v[0..*n-1] (at most max). Returns 0; -1: too many words,
 * or no memory; -2: a quote not closed. */
static int split_words(const char *line, struct strbuf *words, char **v, size_t max, size_t *n)
{
	size_t starts[max];
	*n = 0;
	sb_reset(words);
	for (const char *p = line; *p;) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (*n == max)
			return -1;
		starts[(*n)++] = words->len;
		char quote = 0;
		for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
			if (!quote && (*p == '\'' || *p == '"')) {
				quote = *p;
			} else if (quote && *p == quote) {
				quote = 0;
			} else if (*p == '\\' && quote != '\'' && p[1]) {
				if (sb_addc(words, *++p) < 0)
					return -1;
			} else if (sb_addc(words, *p) < 0) {
				return -1;
			}
		}
		if (quote)
			return -2;
		if (sb_addc(words, 0) < 0)
			return -1;
	}
	for (size_t i = 0; i < *n; i++)
		v[i] = words->s + starts[i];
	return 0;
}

/* A line of list file (lineno) that starts with '-': an option, to the
 * hook; one it does not take is reported. */
static void list_option(struct tar *t, const struct names_hooks *h, const char *file,
                        size_t lineno, const char *line)
{
	struct strbuf words = STRBUF_INIT;
	char *v[8];
	size_t n;
	int r = split_words(line, &words, v, 8, &n);
	if (r == -2) /* GNU tar's wordsplit gives up there */
		tar_fatal(t, 0, "cannot split string '%s': missing closing quote", line);
	else if (r < 0 || h->option(h->arg, v, n) < 0)
		tar_error(t, 0, "%s:%zu: unrecognized option", tq(t, 0, file), lineno);
	sb_free(&words);
}

/* Add every name in buf (len bytes, separated by sep) from list file; empty
 * ones are skipped as GNU tar skips them; with options, lines that start
 * with '-' are options. The options of a line may change sep and options
 * for the lines after it (--null, --verbatim-files-from). */
static int add_list(struct tar *t, const struct names_hooks *h, const char *file, char *buf,
                    size_t len)
{
	char *p = buf, *end = buf + len;
	for (size_t line = 1; p < end && !t->fatal; line++) {
		bool null = t->opt.null, options = !null && !t->opt.verbatim_files_from;
		char *stop = memchr(p, null ? '\0' : '\n', (size_t)(end - p));
		if (!stop)
			stop = end;
		*stop = 0;
		if (options && p[0] == '-')
			list_option(t, h, file, line, p);
		else if (stop > p && names_add_name(t, p, null) < 0)
			return -1;
		if (stop > p)
			h->added(h->arg);
		p = stop + 1;
	}
	return 0;
}

int names_add_file(struct tar *t, const char *file, const struct names_hooks *h)
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
	ret = sb.len ? add_list(t, h, file, sb.s, sb.len) : 0;
out:;
	int err = errno;
	if (!is_stdin)
		fclose(fp);
	sb_free(&sb);
	errno = err;
	return ret;
}

/* The character escape c (after a backslash) stands for, or -1. */
static int escaped(char c)
{
	static const char from[] = "\\abfnrtv?", to[] = "\\\a\b\f\n\r\t\v\177";
	const char *p = c ? strchr(from, c) : NULL;
	return p ? (unsigned char)to[p - from] : -1;
}

/* Unquote s in place, as GNU tar's unquote_string(): an unknown escape
 * stays as it is. */
static void unquote(char *s)
{
	char *out = s;
	for (const char *p = s; *p;) {
		if (*p != '\\') {
			*out++ = *p++;
			continue;
		}
		p++;
		int c = escaped(*p);
		if (c >= 0) {
			*out++ = (char)c;
			p++;
		} else if (*p >= '0' && *p <= '7') {
			int v = 0;
			for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++)
				v = v * 8 + *p++ - '0';
			*out++ = (char)v;
		} else {
			*out++ = '\\';
			if (*p)
				*out++ = *p++;
		}
	}
	*out = 0;
}

int names_add_name(struct tar *t, const char *name, bool verbatim)
{
	if (names_add(&t->opt.names, name, false) < 0)
		return -1;
	if (!verbatim && !t->opt.no_unquote)
		unquote(t->opt.names.v[t->opt.names.n - 1].name);
	return 0;
}

size_t names_bare_len(const char *name)
{
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '/')
		n--;
	return n;
}

char *names_without_slash(const char *name)
{
	return strndup(name, names_bare_len(name));
}

/* name as the member it becomes is named, roughly: no leading '/',
 * nothing up to a ".." component (GNU tar strips it), no "." components,
 * no doubled or trailing '/' ("." is ""), then --transform's rules. */
static char *member_key(struct tar *t, const char *name)
{
	char *key = malloc(strlen(name) + 1), *k = key;
	if (!key)
		return NULL;
	while (*name) {
		while (*name == '/')
			name++;
		size_t len = strcspn(name, "/");
		bool dots = len == 2 && name[0] == '.' && name[1] == '.';
		if (len == 1 && *name == '.') {
			name++;
			continue;
		}
		if (dots)
			k = key;
		else if (len && k > key)
			*k++ = '/';
		if (!dots) {
			memcpy(k, name, len);
			k += len;
		}
		name += len;
	}
	*k = 0;
	if (!t->opt.xform.n)
		return key;
	struct strbuf out = STRBUF_INIT;
	const char *x = xform_apply(t, XFORM_NAME, key, &out);
	char *made = x ? strdup(x) : NULL;
	sb_free(&out);
	free(key);
	return made;
}

/* Member keys in an order where a name's own subtree follows it at once:
 * '/' before every other byte. */
static int key_cmp(const void *pa, const void *pb)
{
	const unsigned char *a = *(const unsigned char *const *)pa;
	const unsigned char *b = *(const unsigned char *const *)pb;
	for (;; a++, b++) {
		int x = *a == '/' ? 1 : *a ? *a + 1 : 0;
		int y = *b == '/' ? 1 : *b ? *b + 1 : 0;
		if (x != y || !x)
			return x - y;
	}
}

bool names_overlap(struct tar *t)
{
	const struct tar_names *ns = &t->opt.names;
	char **keys = calloc(ns->n ? ns->n : 1, sizeof(*keys));
	size_t n = 0;
	bool overlap = !keys; /* (no memory: the safe answer) */
	for (size_t i = 0; !overlap && i < ns->n; i++)
		if (!ns->v[i].chdir && !(keys[n++] = member_key(t, ns->v[i].name)))
			overlap = true;
	if (!overlap)
		qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 1; !overlap && i < n; i++) {
		size_t len = strlen(keys[i - 1]);
		overlap = !len || (strncmp(keys[i - 1], keys[i], len) == 0 &&
		                   (keys[i][len] == '/' || !keys[i][len]));
	}
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
	return overlap;
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
