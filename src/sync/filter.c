/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter.c: --exclude and --include, with rsync's basic pattern rules: the
 * first rule that matches decides; a trailing '/' matches directories
 * only; a leading '/' anchors the pattern at the transfer's root; a
 * pattern with a '/' or "**" inside is matched against the whole path
 * (unanchored: against any tail of it that starts a component), else
 * against the last component. '*' matches within one component, "**"
 * across them (never a slash less: "a/" two stars "/b" is not a/b; an
 * unanchored pattern that starts with them is matched against the path
 * after a '/', so "**" then "/b" is b too, as in rsync), '?' one
 * character but '/', [...] a class ([:alpha:] and the other POSIX classes
 * inside); a '\' escapes the character after it only in a pattern with
 * one of those, else it is itself; a pattern ending in a slash and three
 * stars matches the directory before them (a directory only) as well as
 * what is below it; in a class a '\\' takes the next character as it is.
 * A pattern, given or read one a line from a file (--exclude-from,
 * --include-from: listfile.c), may start with "- " or "+ ", which make it
 * an exclude or an include whatever option gave it, as in rsync.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

/* A pattern in r ending in a slash and three stars: DIR and two stars,
 * and also DIR itself. Returns 0 or -1 (ENOMEM). */
static int add_self(struct sync_rule *r)
{
	size_t n = strlen(r->pattern);
	r->self = NULL;
	if (n < 4 || strcmp(r->pattern + n - 4, "/***") != 0)
		return 0;
	r->pattern[n - 1] = '\0'; /* the two stars left */
	r->self = strndup(r->pattern, n - 4);
	return r->self ? 0 : -1;
}

int filter_add(struct sync *s, const char *pattern, bool include)
{
	if (strcmp(pattern, "!") == 0) { /* rsync's: the rules so far dropped */
		filter_free(s);
		return 0;
	}
	if ((pattern[0] == '-' || pattern[0] == '+') && pattern[1] == ' ') {
		include = pattern[0] == '+';
		pattern += 2;
	}
	return filter_push(s, pattern, include, RULE_BOTH, false);
}

int filter_push(struct sync *s, const char *pattern, bool include, unsigned char side,
                bool negate)
{
	struct sync_rule *v = reallocarray(s->rules, s->nrules + 1, sizeof(*v));
	if (!v)
		return -1;
	s->rules = v;
	struct sync_rule *r = &v[s->nrules];
	size_t n = strlen(pattern);
	r->include = include;
	r->side = side;
	r->negate = negate;
	r->perishable = false;
	r->dir_only = n > 1 && pattern[n - 1] == '/';
	if (r->dir_only)
		n--;
	r->anchored = pattern[0] == '/';
	if (r->anchored)
		pattern++, n--;
	r->pattern = strndup(pattern, n);
	if (!r->pattern)
		return -1;
	if (add_self(r) < 0) {
		free(r->pattern);
		return -1;
	}
	r->full = r->anchored || strchr(r->pattern, '/') || strstr(r->pattern, "**");
	r->wild = strpbrk(r->pattern, "*?[") != NULL;
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
	if (filter_add(ff->s, line, ff->include) < 0) {
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
	for (size_t i = 0; i < s->nrules; i++) {
		free(s->rules[i].pattern);
		free(s->rules[i].self);
	}
	free(s->rules);
	s->rules = NULL;
	s->nrules = 0;
}

/* The POSIX class "[:NAME:]" at p: its length, and in *hit whether c is
 * in it; 0 where p holds none. */
static size_t posix_class(const char *p, unsigned char c, bool *hit)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
		{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
		{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
		{ "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	if (p[0] != '[' || p[1] != ':')
		return 0;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		size_t n = strlen(classes[i].name);
		if (strncmp(p + 2, classes[i].name, n) == 0 && strncmp(p + 2 + n, ":]", 2) == 0) {
			*hit = *hit || classes[i].is(c);
			return n + 4;
		}
	}
	return 0;
}

/* Match the class at *pp (after '[') against c; *pp moves past ']'.
 * Returns 1, 0, or -1 when there is no ']'. */
static int match_class(const char **pp, char c)
{
	const char *p = *pp;
	bool neg = *p == '!' || *p == '^';
	bool hit = false;
	if (neg)
		p++;
	const char *start = p;
	for (; *p && (*p != ']' || p == start); p++) {
		size_t named = posix_class(p, (unsigned char)c, &hit);
		if (named) {
			p += named - 1;
			continue;
		}
		/* a '\\' takes the next character as it is, a ']' too (rsync's
		 * wildmatch) */
		if (*p == '\\' && p[1])
			p++;
		char lo = *p, hi = *p;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			p += 2;
			if (*p == '\\' && p[1])
				p++;
			hi = *p;
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
			/* (one without its ']' matches nothing, as rsync's) */
			const char *q = p + 1;
			if (match_class(&q, *s) != 1)
				return false;
			p = q;
			continue;
		}
		if (*p == '\\' && !*++p)
			return false; /* (a '\\' at the end: nothing, as rsync's) */
		if (*p != *s)
			return false;
		p++;
	}
	return !*s;
}

/* Whether pattern matches s: as a wildcard, else byte for byte. */
static bool match(const struct sync_rule *r, const char *pattern, const char *s)
{
	return r->wild ? wild(pattern, s) : strcmp(pattern, s) == 0;
}

/* Whether pattern matches path as rule r matches (anchored, against the
 * last component, or against any tail that starts a component). */
static bool pattern_matches(const struct sync_rule *r, const char *pattern, const char *path)
{
	if (r->anchored)
		return match(r, pattern, path);
	/* starting with two stars: against the path after a '/' (rsync's
	 * "**" prefix), so that they may stand for nothing before it */
	if (pattern[0] == '*' && pattern[1] == '*') {
		const char *rest = pattern + strspn(pattern, "*");
		return wild(pattern, path) || (*rest == '/' && wild(rest + 1, path));
	}
	if (!r->full) {
		const char *slash = strrchr(path, '/');
		return match(r, pattern, slash ? slash + 1 : path);
	}
	for (const char *p = path; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (match(r, pattern, p))
			return true;
	}
	return false;
}

static bool rule_matches(const struct sync_rule *r, const char *path, bool dir)
{
	if (r->dir_only && !dir)
		return false;
	/* (DIR and three stars is DIR itself only when a directory: rsync's) */
	return pattern_matches(r, r->pattern, path) ||
	       (r->self && dir && pattern_matches(r, r->self, path));
}

/* Whether rule r speaks for side: a rule of no side speaks for both, but
 * under --delete-excluded for the sender alone (what it leaves out is
 * then deleted, unless a rule of the receiver's protects it). */
static bool speaks_for(const struct sync *s, const struct sync_rule *r, unsigned char side)
{
	return r->side ? r->side == side : side == RULE_SENDER || !s->delete_excluded;
}

/* The first rule for side that matches path decides: 1 when it is an
 * exclude, 0 an include, -1 when none matches. */
static int decided_on(const struct sync *s, unsigned char side, const char *path, bool dir,
                      bool dir_removed)
{
	for (size_t i = 0; i < s->nrules; i++) {
		const struct sync_rule *r = &s->rules[i];
		if (speaks_for(s, r, side) && !(dir_removed && r->perishable) &&
		    rule_matches(r, path, dir) != r->negate)
			return !r->include;
	}
	return -1;
}

static bool excluded_on(const struct sync *s, unsigned char side, const char *path, bool dir,
                        bool dir_removed)
{
	return decided_on(s, side, path, dir, dir_removed) == 1;
}

bool filter_excluded(const struct sync *s, const char *path, bool dir)
{
	return excluded_on(s, RULE_SENDER, path, dir, false);
}

bool filter_protected(const struct sync *s, const char *path, bool dir, bool dir_removed)
{
	int r = decided_on(s, RULE_RECEIVER, path, dir, dir_removed);
	if (r >= 0)
		return r;
	/* -b without --backup-dir: rsync's "P *SUFFIX", after all the others
	 * (an "R *~" of the user's before it comes first) */
	const char *slash = strrchr(path, '/');
	return backups_protected(s, slash ? slash + 1 : path);
}

int filter_text(struct strbuf *sb, const struct sync_rule *r, bool bare)
{
	static const char *const side[] = { "", "s", "r" };
	if (!bare && sb_printf(sb, "%c%s%s%s ", r->include ? '+' : '-', side[r->side],
	                       r->negate ? "!" : "", r->perishable ? "p" : "") < 0)
		return -1;
	/* (a bare pattern starting "- " or "+ " is given one: taken as the rule's) */
	if (bare && (r->pattern[0] == '-' || r->pattern[0] == '+') && r->pattern[1] == ' ' &&
	    !r->anchored && sb_addstr(sb, r->include ? "+ " : "- ") < 0)
		return -1;
	return sb_printf(sb, "%s%s%s%s", r->anchored ? "/" : "", r->pattern, r->self ? "*" : "",
	                 r->dir_only ? "/" : "");
}
