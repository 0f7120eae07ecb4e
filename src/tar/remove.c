/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * remove.c: --remove-files. A member is removed from the disk once it is in
 * the archive whole: after its data, never when it shrank, grew, changed or
 * could not be read. Directories come after everything below them (the walk
 * is in post-order), so a directory is removed after its contents were; one
 * that still holds something (left out, or not removed) stays, in GNU tar's
 * words, as does everything a fatal error stopped before.
 *
 * A file with several names is removed only at the end: the walk counts a
 * file's names when it opens it, and one whose other name was removed
 * before would be stored whole again instead of as a hard link. A
 * directory that is not empty while such removals wait, waits for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "create.h"

struct deferred {
	int dirfd;  /* its directory's (deferred_dirs owns it), or AT_FDCWD */
	char *name;
	char *path;
	bool dir;
};

/* Remove name from dirfd. Returns 0, or the errno of a directory that is
 * not empty (not reported: the caller decides). */
static int remove_at(struct create *cr, int dirfd, const char *name, const char *path, bool dir)
{
	struct tar *t = cr->t;
	if (t->fatal || unlinkat(dirfd, name, dir ? AT_REMOVEDIR : 0) == 0 || errno == ENOENT)
		return 0;
	int err = errno == EEXIST ? ENOTEMPTY : errno;
	if (dir && err == ENOTEMPTY && cr->ndeferred)
		return err;
	/* GNU tar's rmdir_error() and unlink_error() */
	tar_cannot(t, path, dir ? "rmdir" : "unlink", err);
	return 0;
}

/* A descriptor of e's directory to remove e by at the end: one for all of
 * a directory's names, however many files with several names it holds.
 * -1 with errno when there is none. */
static int dir_fd_for(struct create *cr, const struct sweep_entry *e)
{
	if (e->dirfd == AT_FDCWD)
		return AT_FDCWD;
	/* roots (parent 0) by the descriptor they are relative to (-C) */
	uint64_t other = e->parent_id ? 0 : (uint64_t)e->dirfd + 1;
	uint64_t *kept = keymap_get(&cr->deferred_dirs, e->parent_id, other);
	if (kept)
		return (int)(*kept - 1);
	int fd = fcntl(e->dirfd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0 && keymap_put(&cr->deferred_dirs, e->parent_id, other, (uint64_t)fd + 1) < 0) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	return fd;
}

/* Keep e to remove at the end. Returns 0 or -1 (reported: fatal). */
static int defer(struct create *cr, const struct sweep_entry *e, bool dir)
{
	int fd = dir_fd_for(cr, e);
	struct deferred d = { .dirfd = fd,
	                      .name = strdup(e->name), .path = strdup(e->path), .dir = dir };
	if (d.dirfd != -1 && d.name && d.path && cr->ndeferred == cr->capdeferred) {
		size_t cap = cr->capdeferred ? 2 * cr->capdeferred : 16;
		struct deferred *v = reallocarray(cr->deferred, cap, sizeof(*v));
		if (v) {
			cr->deferred = v;
			cr->capdeferred = cap;
		}
	}
	if (d.dirfd != -1 && d.name && d.path && cr->ndeferred < cr->capdeferred) {
		cr->deferred[cr->ndeferred++] = d;
		return 0;
	}
	int err = d.dirfd == -1 ? errno : ENOMEM;
	free(d.name);
	free(d.path);
	tar_fatal(cr->t, err, "%s: Cannot remove later", tq(cr->t, 0, e->path));
	return -1;
}

void remove_entry(struct create *cr, const struct sweep_entry *e)
{
	if (!cr->t->opt.remove_files)
		return;
	bool dir = e->kind == SWEEP_DIR_POST;
	if (!dir && e->st.st_nlink > 1) {
		defer(cr, e, false);
		return;
	}
	if (remove_at(cr, e->dirfd, e->name, e->path, dir))
		defer(cr, e, true);
}

void remove_deferred(struct create *cr)
{
	/* files first, then directories in the walk's order: children first */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < cr->ndeferred; i++) {
			struct deferred *d = &cr->deferred[i];
			if (d->dir != (pass == 1))
				continue;
			int err = remove_at(cr, d->dirfd, d->name, d->path, d->dir);
			if (err)
				tar_cannot(cr->t, d->path, "rmdir", err);
		}
	}
	for (size_t i = 0; i < cr->ndeferred; i++) {
		free(cr->deferred[i].name);
		free(cr->deferred[i].path);
	}
	for (size_t i = 0; i < cr->deferred_dirs.cap; i++)
		if (cr->deferred_dirs.slots[i].used)
			close((int)(cr->deferred_dirs.slots[i].value - 1));
	keymap_free(&cr->deferred_dirs);
	free(cr->deferred);
	cr->deferred = NULL;
	cr->ndeferred = cr->capdeferred = 0;
}

void remove_held(struct create *cr, const struct sweep_entry *dir, const char *name,
                 const char *path)
{
	if (!cr->t->opt.remove_files || !dir)
		return;
	/* the directory's own descriptor is gone: name the link under it */
	sb_reset(&cr->rmname);
	if (sb_addstr(&cr->rmname, dir->name) < 0 || sb_addc(&cr->rmname, '/') < 0 ||
	    sb_addstr(&cr->rmname, name) < 0) {
		tar_fatal(cr->t, ENOMEM, "memory exhausted");
		return;
	}
	remove_at(cr, dir->dirfd, cr->rmname.s, path, false);
}
