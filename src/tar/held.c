/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * held.c: symbolic links kept back until their directory is stored.
 *
 * GNU tar extracts a symbolic link whose target is absolute or climbs with
 * ".." as a placeholder file and makes the real link at the very end; it
 * sets the directory's time after that only if the directory was pending
 * when the placeholder was made: if its member, or a member that created
 * it, came with no member from outside it in between. In disk order members
 * of other directories come in between all the time, and the directory
 * would keep the time of the extraction. bsdtar, for its part, sets the
 * time of a directory that exists already as soon as it meets its member,
 * so nothing may be created in it after that (why create.c stores each
 * directory after its contents).
 *
 * Such links are therefore held until their directory's member is stored,
 * then stored, then the directory's member once more: GNU tar finds the
 * directory pending, and bsdtar sets its time again after the links.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "create.h"

struct held_link {
	uint64_t dir_id;             /* the directory it waits for */
	struct archive_entry *entry; /* its header, ready to write */
	char *path;                  /* for messages */
	char *name;                  /* in its directory, for --remove-files */
	char *shown;                 /* for -v */
};

/* Whether target has a ".." component, as GNU tar checks. */
static bool climbs(const char *target)
{
	for (const char *p = target; *p;) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == 0))
			return true;
		const char *slash = strchr(p, '/');
		if (!slash)
			break;
		p = slash + 1;
	}
	return false;
}

bool held_wanted(const struct create *cr, const struct sweep_entry *e, const char *link)
{
	if (!S_ISLNK(e->st.st_mode) || link || e->link_first || e->st.st_nlink > 1 ||
	    !e->parent_id)
		return false;
	const char *target = archive_entry_symlink(cr->entry);
	return target && (target[0] == '/' || climbs(target));
}

static void held_free_one(struct held_link *h)
{
	archive_entry_free(h->entry);
	free(h->path);
	free(h->name);
	free(h->shown);
}

int held_keep(struct create *cr, const struct sweep_entry *e)
{
	struct held_link h = {
		.dir_id = e->parent_id,
		.entry = archive_entry_clone(cr->entry),
		.path = strdup(e->path),
		.name = strdup(e->name),
		.shown = strdup(cr->shown.s),
	};
	if (h.entry && h.path && h.name && h.shown && cr->nheld == cr->capheld) {
		size_t cap = cr->capheld ? 2 * cr->capheld : 16;
		struct held_link *v = reallocarray(cr->held, cap, sizeof(*v));
		if (v) {
			cr->held = v;
			cr->capheld = cap;
		}
	}
	if (!h.entry || !h.path || !h.name || !h.shown || cr->nheld == cr->capheld) {
		held_free_one(&h);
		tar_fatal(cr->t, ENOMEM, "memory exhausted");
		return -1;
	}
	if (keymap_put(&cr->held_dirs, h.dir_id, 0, 1) < 0) {
		held_free_one(&h);
		tar_fatal(cr->t, ENOMEM, "memory exhausted");
		return -1;
	}
	cr->held[cr->nheld++] = h;
	return 0;
}

int held_after_dir(struct create *cr, const struct sweep_entry *dir)
{
	if (!keymap_get(&cr->held_dirs, dir->dir_id, 0))
		return 0;
	if (held_release(cr, dir->dir_id, dir) < 0)
		return -1;
	/* cr->entry still holds the directory's header; -v lists it once */
	return create_write_header(cr, cr->entry, dir->path, NULL) < 0 ? -1 : 0;
}

int held_release(struct create *cr, uint64_t dir_id, const struct sweep_entry *dir)
{
	if (dir_id && !keymap_get(&cr->held_dirs, dir_id, 0))
		return 0;
	if (dir_id)
		keymap_del(&cr->held_dirs, dir_id, 0);
	int r = 0;
	size_t kept = 0;
	for (size_t i = 0; i < cr->nheld; i++) {
		struct held_link *h = &cr->held[i];
		if (dir_id && h->dir_id != dir_id) {
			cr->held[kept++] = *h;
			continue;
		}
		int w = r == 0 ? create_write_header(cr, h->entry, h->path, h->shown) : 0;
		if (w < 0)
			r = -1;
		else if (w > 0)
			remove_held(cr, dir, h->name, h->path);
		held_free_one(h);
	}
	cr->nheld = kept;
	return r;
}

void held_free(struct create *cr)
{
	for (size_t i = 0; i < cr->nheld; i++)
		held_free_one(&cr->held[i]);
	free(cr->held);
	cr->held = NULL;
	cr->nheld = cr->capheld = 0;
	keymap_free(&cr->held_dirs);
}
