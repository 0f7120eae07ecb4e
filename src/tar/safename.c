/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * safename.c: member names without the parts that would let an archive
 * reach outside the directory it is extracted in, as GNU tar's
 * safer_name_suffix() makes them, on create as on extract.
 *
 * The prefix removed is everything up to the last ".." component and the
 * slashes after it, or the leading slashes. Each distinct prefix is reported
 * once per run ("Removing leading `../' from member names"), which is why
 * the prefixes already reported are kept.
 */
#include <stdlib.h>
#include <string.h>
#include "tar.h"

/* Whether prefix (len bytes) was reported before; remembers it if not. */
static bool seen_prefix(struct tar *t, const char *prefix, size_t len, bool link)
{
	const char *s = sb_str(&t->prefixes);
	const char *end = s + t->prefixes.len;
	while (s < end) {
		size_t n = strlen(s);
		if (n == len + 1 && s[0] == (link ? 'L' : 'M') && memcmp(s + 1, prefix, len) == 0)
			return true;
		s += n + 1;
	}
	/* Memory failure: reporting again is the lesser harm. */
	if (sb_addc(&t->prefixes, link ? 'L' : 'M') == 0 &&
	    sb_add(&t->prefixes, prefix, len) == 0)
		sb_addc(&t->prefixes, 0);
	return false;
}

/* Length of the prefix to remove from name. */
static size_t unsafe_prefix(const char *name, bool *dotdot)
{
	size_t prefix = 0;
	for (const char *p = name; *p;) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == 0)) {
			prefix = (size_t)(p + 2 - name);
			*dotdot = true;
		}
		while (*p && *p++ != '/')
			;
	}
	while (name[prefix] == '/')
		prefix++;
	return prefix;
}

const char *safename(struct tar *t, const char *name, bool link, bool *dotdot)
{
	bool dd = false;
	if (dotdot)
		*dotdot = false;
	if (t->opt.absolute)
		return name;
	size_t prefix = unsafe_prefix(name, &dd);
	if (dotdot)
		*dotdot = dd;
	if (prefix == 0)
		return name;
	if (!seen_prefix(t, name, prefix, link)) {
		char *copy = strndup(name, prefix);
		tar_warn(t, 0, link ? "Removing leading `%s' from hard link targets"
		                    : "Removing leading `%s' from member names",
		         copy ? copy : "/");
		free(copy);
	}
	return name[prefix] ? name + prefix : link ? "." : "./";
}
