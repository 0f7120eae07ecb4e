/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * members.c: which members -t, -x and --delete select, and the members
 * each of -u's names selects. With no names, all of them; a
 * name selects the member of that name and, when it is a directory,
 * everything below it (not with --no-recursion); with --wildcards a name is
 * a shell pattern that may match any leading part of the member's path, as
 * in GNU tar.
 */
#include <fnmatch.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include "tar.h"

/* Whether member is name (give or take a trailing '/') or, unless below
 * is false, lies below it; in either case under casefold. */
static bool literal_match(const char *name, const char *member, bool below, bool casefold)
{
	size_t n = names_bare_len(name);
	if (n == 0)
		return false;
	if ((casefold ? strncasecmp(name, member, n) : strncmp(name, member, n)) != 0)
		return false;
	if (member[n] == 0 || (member[n] == '/' && member[n + 1] == 0))
		return true;
	return below && (member[n] == '/' || name[n - 1] == '/');
}

static bool anchored_match(const struct tar *t, const char *name, unsigned how,
                           const char *member)
{
	bool below = !t->opt.no_recursion, casefold = how & MATCH_CASEFOLD;
	if (how & MATCH_WILDCARDS)
		return fnmatch(name, member, (below ? FNM_LEADING_DIR : 0) |
		                             (casefold ? FNM_CASEFOLD : 0) |
		                             (how & MATCH_NO_SLASH ? FNM_PATHNAME : 0)) == 0;
	return literal_match(name, member, below, casefold);
}

/* Unanchored (--no-anchored), the name may match the member's name from
 * any of its components on, as gnulib's exclude_fnmatch() tries them. */
static bool one_match(const struct tar *t, const char *name, unsigned how, const char *member)
{
	if (anchored_match(t, name, how, member))
		return true;
	for (const char *p = member; (how & MATCH_UNANCHORED) && *p; p++)
		if (*p == '/' && p[1] != '/' && anchored_match(t, name, how, p + 1))
			return true;
	return false;
}

/* GNU tar's rule for an empty name: first in the list, it selects every
 * member and the other names are never reported missing; anywhere else it
 * selects nothing. Neither way is it reported missing itself. */
static bool empty_name_first(const struct tar_names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		if (!ns->v[i].chdir)
			return ns->v[i].name[0] == 0;
	return false;
}

/* Member without its trailing slashes (GNU tar matches a directory's name
 * so): member itself, or a copy left in *bare for the caller to free. */
static const char *bare_member(const char *member, char **bare)
{
	size_t len = strlen(member);
	*bare = NULL;
	if (len <= 1 || member[len - 1] != '/')
		return member;
	while (len > 1 && member[len - 1] == '/')
		len--;
	*bare = strndup(member, len);
	return *bare ? *bare : member;
}

/* name matched member: counted, as GNU tar counts (the members below a
 * directory it names count once, with the first), and whether member is
 * taken: under --occurrence=N, the Nth only. */
static bool counted(const struct tar *t, struct tar_name *name, const char *member)
{
	size_t len = strlen(name->name);
	bool below = strncmp(member, name->name, len) == 0 && member[len] == '/';
	if (!below || name->found == 0)
		name->found++;
	return !t->opt.occurrence || name->found == t->opt.occurrence;
}

bool members_select(struct tar *t, const char *member)
{
	struct tar_names *ns = &t->opt.names;
	bool any = false, hit = false;
	if (empty_name_first(ns))
		return true;
	char *bare;
	member = bare_member(member, &bare);
	/* the first name that matches takes the member, as in GNU tar: a name
	 * given again, or one a name before it covers, is "Not found" */
	for (size_t i = 0; i < ns->n && !hit; i++) {
		if (ns->v[i].chdir)
			continue;
		any = true;
		if (one_match(t, ns->v[i].name, name_match_how(&ns->v[i]), member))
			hit = counted(t, &ns->v[i], member);
	}
	free(bare);
	return !any || hit;
}

bool members_match(const struct tar *t, const char *name, unsigned how, const char *member)
{
	char *bare;
	member = bare_member(member, &bare);
	bool hit = name[0] && one_match(t, name, how, member);
	free(bare);
	return hit;
}

/* Whether name has shell pattern characters (a '\\' escapes the next). */
static bool has_wildcards(const char *name)
{
	for (const char *p = name; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (strchr("?*[]", *p))
			return true;
	}
	return false;
}

void members_report_missing(struct tar *t)
{
	struct tar_names *ns = &t->opt.names;
	if (empty_name_first(ns))
		return;
	for (size_t i = 0; i < ns->n; i++) {
		uintmax_t wanted = t->opt.occurrence ? t->opt.occurrence : 1;
		if (ns->v[i].chdir || ns->v[i].found >= wanted || !ns->v[i].name[0])
			continue;
		/* GNU tar's hint, for each such name, when neither
		 * --wildcards nor --no-wildcards was given */
		if (!t->opt.wildcards_set && has_wildcards(ns->v[i].name)) {
			tar_warn(t, 0, "Pattern matching characters used in file names");
			tar_warn(t, 0, "Use --wildcards to enable pattern matching, or "
			               "--no-wildcards to suppress this warning");
		}
		/* (named as GNU tar names it, without its trailing slashes) */
		char *bare = names_without_slash(ns->v[i].name);
		tar_error(t, 0, "%s: %s", tq(t, 0, bare ? bare : ns->v[i].name),
		          ns->v[i].found ? "Required occurrence not found in archive"
		                         : "Not found in archive");
		free(bare);
	}
}
