/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xnames.c: which members -t and -x take, and under which names: made safe
 * as GNU tar makes them (safename.c), selected by the operands
 * (members.c), left out by --exclude, shortened by --strip-components; a
 * hard link's target goes through the same.
 */
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "extract.h"

/* name without its first n components; NULL when nothing is left. */
static const char *strip(const char *name, int n)
{
	for (; n > 0; n--) {
		const char *slash = strchr(name, '/');
		if (!slash)
			return NULL;
		name = slash + 1;
		while (*name == '/')
			name++;
	}
	return *name ? name : NULL;
}

/* Whether --exclude leaves name out; a directory's trailing '/' is not
 * part of what patterns see. */
static bool excluded(struct tar *t, const char *name)
{
	if (!t->opt.exclude.n)
		return false;
	size_t n = strlen(name);
	if (n < 2 || name[n - 1] != '/')
		return exclude_match(&t->opt.exclude, name);
	char *copy = strndup(name, n - 1);
	bool r = copy ? exclude_match(&t->opt.exclude, copy) : false;
	free(copy);
	return r;
}

/* The name a member is listed or extracted as, or NULL when it is left
 * out: not selected, excluded, stripped to nothing, or unsafe. */
const char *xnames_member(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_pathname(e);
	bool dotdot;
	if (!raw)
		return NULL;
	const char *safe = safename(t, raw, false, &dotdot);
	if (dotdot && t->opt.mode == MODE_EXTRACT) {
		tar_error(t, 0, "%s: Member name contains '..'", tq(t, 0, raw));
		return NULL;
	}
	if (!members_select(t, safe) || excluded(t, safe))
		return NULL;
	const char *s = strip(safe, t->opt.strip);
	sb_reset(&x->name);
	if (!s || sb_addstr(&x->name, s) < 0)
		return NULL;
	return x->name.s;
}

/* Make a hard link's target safe and stripped like member names. Returns
 * false when the member is to be left out. */
bool xnames_hardlink(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_hardlink(e);
	bool dotdot;
	if (!raw)
		return true;
	const char *safe = safename(t, raw, true, &dotdot);
	if (dotdot && t->opt.mode == MODE_EXTRACT) {
		tar_error(t, 0, "%s: Member name contains '..'", tq(t, 0, raw));
		return false;
	}
	const char *s = strip(safe, t->opt.strip);
	if (!s) {
		/* GNU tar tries the empty name, and says so. */
		tar_error(t, ENOENT, "%s: Cannot hard link to %s", tq(t, 0, x->name.s),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, ""));
		return false;
	}
	sb_reset(&x->link);
	if (sb_addstr(&x->link, s) < 0)
		return false;
	archive_entry_copy_hardlink(e, x->link.s);
	return true;
}
