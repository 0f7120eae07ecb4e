/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter.c: --exclude and --include, with rsync's basic pattern rules: the
 * first rule that matches decides; a trailing '/' matches directories
 * only; a leading '/' anchors the pattern at the transfer's root; a
 * pattern with a '/' or "**" inside is matched against the whole path
 * (unanchored: against any tail of it that starts a component), else
 * against the last component. '*' matches within one component, "**"
 * across them, '?' one character but '/', [...] a class.
 * --exclude-from and --include-from read one pattern a line (listfile.c),
 * where "- " and "+ " before it make it an exclude or an include.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

int filter_add(struct sync *s, const char *pattern, bool include)
{
	struct sync_rule *v = reallocarray(s->rules, s->nrules + 1, sizeof(*v));
	if (!v)
		return -1;
	s->rules = v;
	struct sync_rule *r = &v[s->nrules];
	size_t n = strlen(pattern);
	r->include = include;
	r->dir_only = n > 1 && pattern[n - 1] == '/';
	if (r->dir_only)
		n--;
	r->anchored = pattern[0] == '/';
	if (r->anchored)
		pattern++, n--;
	r->pattern = strndup(pattern, n);
	if (!r->pattern)
		return -1;
	r->full = r->anchored || strchr(r->pattern, '/') || strstr(r->pattern, "**");
	s->nrules++;
	return 0;
}

struct from_file {
	struct sync *s;
	bool include;
};

static int add_line(void *arg, const char *line)
{
	struct from_file *ff = arg;
	bool include = ff->include;
	if ((line[0] == '-' || line[0] == '+') && line[1] == ' ') {
		include = line[0] == '+';
		line += 2;
	}
	if (filter_add(ff->s, line, include) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int filter_add_file(struct sync *s, const char *path, bool include)
{
	struct from_file ff = { s, include };
	if (listfile_read(path, s->from0, true, add_line, &ff) == 0)
		return 0;
	report_error(s, errno, "[client] failed to open %s file %s",
	             include ? "include" : "exclude", path);
	return -2;
}

void filter_free(struct sync *s)
{
	for (size_t i = 0; i < s->nrules; i++)
		free(s->rules[i].pattern);
	free(s->rules);
}

/* Match the class at *pp (after '[') against c; *pp moves past ']'.
 * Returns 1, 0, or -1 when there is no ']' (then '[' is literal). */
static int match_class(const char **pp, char c)
{
	const char *p = *pp;
	bool neg = *p == '!' || *p == '^';
	bool hit = false;
	if (neg)
		p++;
	const char *start = p;
	for (; *p && (*p != ']' || p == start); p++) {
		char lo = *p, hi = *p;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
	}
	if (!*p)
		return -1;
	*pp = p + 1;
	return hit != neg && c != '/';
}

static bool wild(const char *p, const char *s)
{
	for (; *p; s++) {
		if (*p == '*') {
			bool any = p[1] == '*';
			while (*p == '*')
				p++;
			for (;; s++) {
				if (wild(p, s))
					return true;
				if (!*s || (*s == '/' && !any))
					return false;
			}
		}
		if (!*s)
			return false;
		if (*p == '?') {
			if (*s == '/')
				return false;
			p++;
			continue;
		}
		if (*p == '[') {
			const char *q = p + 1;
			int m = match_class(&q, *s);
			if (m == 0)
				return false;
			if (m == 1) {
				p = q;
				continue;
			}
		}
		if (*p == '\\' && p[1])
			p++;
		if (*p != *s)
			return false;
		p++;
	}
	return !*s;
}

static bool rule_matches(const struct sync_rule *r, const char *path, bool dir)
{
	if (r->dir_only && !dir)
		return false;
	if (r->anchored)
		return wild(r->pattern, path);
	if (!r->full) {
		const char *slash = strrchr(path, '/');
		return wild(r->pattern, slash ? slash + 1 : path);
	}
	for (const char *p = path; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (wild(r->pattern, p))
			return true;
	}
	return false;
}

bool filter_excluded(const struct sync *s, const char *path, bool dir)
{
	for (size_t i = 0; i < s->nrules; i++)
		if (rule_matches(&s->rules[i], path, dir))
			return !s->rules[i].include;
	return false;
}
