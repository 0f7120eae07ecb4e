/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * remove.c: --remove-files. A member is removed from the disk once it is in
 * the archive whole (never when it shrank, grew, changed or could not be
 * read), and only once the archive itself is written and closed: the
 * removals wait until then, in the walk's order (a directory after what it
 * holds), so that an archive that could not be written whole (a full
 * disk, a compressor that failed, data still in a buffer) loses nothing.
 * A directory that still holds something (left out, or not removed) stays,
 * in GNU tar's words, as does everything when a fatal error ended the run.
 *
 * Each removal names its member by its path from the directory its root
 * is relative to (the current one, or a -C one, open until the end), so
 * no descriptor is held per directory; the walk's directory ids lead to
 * that base.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "create.h"

struct deferred {
	int basefd;  /* what path is relative to (AT_FDCWD, or a -C directory) */
	char *path;
	bool dir;
};

/* The base of e's root (what its root is relative to): e's own for a root,
 * else that of its directory, as remove_note_dir() noted it. */
static int base_of(const struct create *cr, const struct sweep_entry *e, uint64_t dir_id)
{
	if (e->depth == 0)
		return e->dirfd;
	const uint64_t *v = keymap_get(&cr->deferred_dirs, dir_id, 0);
	return v ? (int)(*v - 1) + AT_FDCWD : -1;
}

int remove_note_dir(struct create *cr, const struct sweep_entry *e)
{
	if (!cr->t->opt.remove_files)
		return 0;
	int base = base_of(cr, e, e->parent_id);
	return base == -1 ? 0
	       : keymap_put(&cr->deferred_dirs, e->dir_id, 0, (uint64_t)(base - AT_FDCWD) + 1);
}

/* Keep path (from basefd) to remove at the end. */
static void defer(struct create *cr, int basefd, const char *path, bool dir)
{
	if (basefd == -1) {
		tar_fatal(cr->t, 0, "%s: Cannot remove later", tq(cr->t, 0, path));
		return;
	}
	char *copy = strdup(path);
	if (copy && cr->ndeferred == cr->capdeferred) {
		size_t cap = cr->capdeferred ? 2 * cr->capdeferred : 64;
		struct deferred *v = reallocarray(cr->deferred, cap, sizeof(*v));
		if (v) {
			cr->deferred = v;
			cr->capdeferred = cap;
		}
	}
	if (copy && cr->ndeferred < cr->capdeferred) {
		cr->deferred[cr->ndeferred++] = (struct deferred){ basefd, copy, dir };
		return;
	}
	free(copy);
	tar_fatal(cr->t, ENOMEM, "memory exhausted");
}

void remove_entry(struct create *cr, const struct sweep_entry *e)
{
	if (!cr->t->opt.remove_files)
		return;
	bool dir = e->kind == SWEEP_DIR_POST;
	defer(cr, base_of(cr, e, dir ? e->dir_id : e->parent_id), e->path, dir);
}

void remove_held(struct create *cr, const struct sweep_entry *dir, const char *name,
                 const char *path)
{
	(void)name;
	if (!cr->t->opt.remove_files || !dir)
		return;
	defer(cr, base_of(cr, dir, dir->dir_id), path, false);
}

void remove_deferred(struct create *cr, bool act)
{
	struct tar *t = cr->t;
	/* files first, then directories in the walk's order: children first;
	 * nothing after a fatal error (the archive may not hold them) */
	for (int pass = 0; pass < 2 && act && !t->fatal; pass++) {
		for (size_t i = 0; i < cr->ndeferred; i++) {
			struct deferred *d = &cr->deferred[i];
			if (d->dir != (pass == 1) ||
			    unlinkat(d->basefd, d->path, d->dir ? AT_REMOVEDIR : 0) == 0 ||
			    errno == ENOENT)
				continue;
			/* GNU tar's rmdir_error() and unlink_error() */
			tar_cannot(t, d->path, d->dir ? "rmdir" : "unlink",
			           errno == EEXIST ? ENOTEMPTY : errno);
		}
	}
	for (size_t i = 0; i < cr->ndeferred; i++)
		free(cr->deferred[i].path);
	keymap_free(&cr->deferred_dirs);
	free(cr->deferred);
	cr->deferred = NULL;
	cr->ndeferred = cr->capdeferred = 0;
}
