/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xnames.c: which members -t and -x take, and under which names: made safe
 * as GNU tar makes them (safename.c), selected by the operands
 * (members.c), left out by --exclude or -N, edited by --transform, shortened by
 * --strip-components; a hard link's target goes through the same.
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

/* raw, a member name as stored, through --transform's r expressions and
 * then made safe: GNU tar selects members by the stored name, and edits
 * it, trailing '/' left out, before making it safe. NULL when memory ran
 * out (reported). */
static const char *transformed(struct extract *x, const char *raw)
{
	if (!xform_member(x->t, raw, &x->xname)) {
		tar_fatal(x->t, ENOMEM, "memory exhausted");
		return NULL;
	}
	return safename(x->t, x->xname.s, false, NULL);
}

/* --one-top-level: x->name under DIR, unless it is DIR or lies below it
 * already (leading '/' and '.' aside), "." components and doubled '/'
 * dropped, as GNU tar puts it. Returns 0 or -1 (ENOMEM). */
static int top_level(struct extract *x)
{
	const char *dir = x->t->opt.one_top_level, *name = x->name.s, *p = name;
	size_t len = strlen(dir);
	while (*p == '/' || *p == '.')
		p++;
	if (*p && strncmp(p, dir, len) == 0 && (p[len] == '/' || p[len] == 0))
		return 0;
	struct strbuf out = STRBUF_INIT;
	if (sb_addstr(&out, dir) < 0)
		goto fail;
	for (const char *c = *p ? name : ""; *c;) {
		size_t n = strcspn(c, "/");
		bool dot = n == 1 && c[0] == '.';
		if (n && !dot && (sb_addc(&out, '/') < 0 || sb_add(&out, c, n) < 0))
			goto fail;
		c += n;
		if (*c == '/' && !c[1] && sb_addc(&out, '/') < 0)
			goto fail;
		while (*c == '/')
			c++;
	}
	sb_reset(&x->name);
	if (sb_add(&x->name, out.s, out.len) < 0)
		goto fail;
	sb_free(&out);
	return 0;
fail:
	sb_free(&out);
	return -1;
}

/* -N, --newer-mtime: whether the member's time is before the date, as GNU
 * tar reads it (whole seconds; a directory too). Not while verifying what
 * was just written (-W), which GNU tar compares whole. */
static bool before_date(const struct tar *t, struct archive_entry *e)
{
	const struct tar_opts *o = &t->opt;
	if (!o->set_newer || t->verifying)
		return false;
	time_t m = archive_entry_mtime(e);
	return m < o->newer.tv_sec || (m == o->newer.tv_sec && o->newer.tv_nsec > 0);
}

/* The name a member is listed or extracted as, or NULL when it is left
 * out: not selected, excluded, older than -N's date, stripped to nothing,
 * or unsafe. */
const char *xnames_member(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_pathname(e);
	bool dotdot;
	if (!raw)
		return NULL;
	/* selected by the name as stored ("/etc/x" names a member stored
	 * so, not "etc/x"), as GNU tar selects it; only then made safe, so
	 * a member left out says nothing of its leading '/' or '..' */
	if (!members_select(t, raw) || excluded(t, raw) || before_date(t, e))
		return NULL;
	const char *safe = safename(t, raw, false, &dotdot);
	if (dotdot && t->opt.mode == MODE_EXTRACT) {
		tar_error(t, 0, "%s: Member name contains '..'", tq(t, 0, raw));
		return NULL;
	}
	if (t->opt.xform.n && !(safe = transformed(x, raw)))
		return NULL;
	const char *s = strip(safe, t->opt.strip);
	/* stripped to nothing, GNU tar still lists it (by its own name), and
	 * under --one-top-level it is the top directory itself */
	if (!s && (t->opt.mode == MODE_LIST || t->opt.one_top_level))
		s = t->opt.mode == MODE_LIST ? safe : "";
	sb_reset(&x->name);
	if (!s || sb_addstr(&x->name, s) < 0)
		return NULL;
	if (t->opt.one_top_level && top_level(x) < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return NULL;
	}
	return x->name.s;
}

/* Make a hard link's target safe and stripped like member names, as GNU
 * tar lists and extracts it: a leading part up to its last ".." is
 * removed, and said ("Removing leading `../' from hard link targets"), so
 * that it names a file below the extraction's top. Returns false when the
 * member is not to be extracted (reported). */
bool xnames_hardlink(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_hardlink(e);
	bool extracting = t->opt.mode == MODE_EXTRACT;
	if (!raw)
		return true;
	const char *safe = safename(t, raw, true, NULL);
	const char *s = strip(safe, t->opt.strip);
	if (!s && extracting) {
		/* GNU tar tries the empty name, and says so. */
		tar_error(t, ENOENT, "%s: Cannot hard link to %s", tq(t, 0, x->name.s),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, ""));
		return false;
	}
	sb_reset(&x->link);
	if (sb_addstr(&x->link, s ? s : "") < 0)
		return false;
	archive_entry_copy_hardlink(e, x->link.s);
	return true;
}

bool xnames_targets(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *hard = archive_entry_hardlink(e), *sym = archive_entry_symlink(e);
	if (!t->opt.xform.n || (!hard && !sym))
		return true;
	const char *to = xform_apply(t, hard ? XFORM_HARDLINK : XFORM_SYMLINK,
	                             hard ? hard : sym, &x->xname);
	if (!to) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return false;
	}
	if (hard)
		archive_entry_copy_hardlink(e, to);
	else
		archive_entry_copy_symlink(e, to);
	return true;
}
