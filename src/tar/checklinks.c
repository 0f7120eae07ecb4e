/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * checklinks.c: -l, --check-links: once the archive is written, each file
 * of several names that it does not hold under all of them is said
 * ("Missing links to 'NAME'.", by the name stored first, as a hard link
 * to it names it), as GNU tar says it, after the totals; a warning, the
 * status left alone. A backup that must restore a tree
 * of hard links whole learns what it lacks. One record a file of several
 * names, only under -l.
 */
#include <stdlib.h>
#include <string.h>
#include "create.h"

struct link_count {
	size_t name;            /* offset of its first name in cr->checked_names */
	nlink_t left;           /* names not yet stored */
};

/* GNU tar counts the names of regular files and symbolic links only, and
 * none under --hard-dereference, where no name links to another. */
void checklinks_note(struct create *cr, const struct sweep_entry *e)
{
	struct tar *t = cr->t;
	if (!t->opt.check_links || t->opt.hard_dereference || e->st.st_nlink < 2 ||
	    !(S_ISREG(e->st.st_mode) || S_ISLNK(e->st.st_mode)))
		return;
	uint64_t *i = keymap_get(&cr->checked, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino);
	if (i) {
		struct link_count *c = &cr->counts[*i - 1];
		c->left -= c->left > 0;
		return;
	}
	if (cr->ncounts == cr->capcounts) {
		size_t cap = cr->capcounts ? 2 * cr->capcounts : 64;
		struct link_count *v = realloc(cr->counts, cap * sizeof(*v));
		if (!v)
			return; /* no memory: that file goes unchecked */
		cr->counts = v;
		cr->capcounts = cap;
	}
	/* named as a hard link to it would name it (GNU keeps that name) */
	struct strbuf named = STRBUF_INIT;
	const char *name = xform_apply(t, XFORM_HARDLINK, safename(t, e->path, true, NULL),
	                               &named);
	size_t off = cr->checked_names.len;
	int r = name ? sb_add(&cr->checked_names, name, strlen(name) + 1) : -1;
	sb_free(&named);
	if (r < 0)
		return;
	cr->counts[cr->ncounts] = (struct link_count){ off, e->st.st_nlink - 1 };
	if (keymap_put(&cr->checked, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino,
	               cr->ncounts + 1) < 0) {
		cr->checked_names.len = off;
		return;
	}
	cr->ncounts++;
}

void checklinks_report(struct create *cr)
{
	for (size_t i = 0; i < cr->ncounts; i++)
		if (cr->counts[i].left)
			tar_warn(cr->t, 0, "Missing links to %s.",
			         tquote(cr->t, 0, cr->checked_names.s + cr->counts[i].name));
}

void checklinks_free(struct create *cr)
{
	keymap_free(&cr->checked);
	sb_free(&cr->checked_names);
	free(cr->counts);
}
