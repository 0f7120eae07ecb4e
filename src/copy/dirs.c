/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dirs.c: directories. Made (or found) when the metadata phase meets them,
 * given their mode, owner and times when the walk is done with them
 * (SWEEP_DIR_POST), after everything inside: a directory that is to be
 * read-only is made writable for the copy, and stays so until its
 * contents are in. In a dry run an existing directory is only opened (for
 * the decide hook's look at what it holds) and a new one is not made.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "copyint.h"

mode_t omitted_mode(const struct copy *c, const struct stat *st)
{
	/* as GNU cp: no one else gets in before the owner is right (a copy
	 * with the default modes never has more than the umask allows) */
	if (c->o->no_preserve_mode)
		return 0;
	if (c->o->preserve_owner)
		return st->st_mode & (S_IRWXG | S_IRWXO);
	if (c->o->preserve_mode)
		return st->st_mode & (S_IWGRP | S_IWOTH);
	return 0;
}

mode_t create_mode(const struct copy *c, const struct stat *st)
{
	if (c->o->no_preserve_mode)
		return S_ISDIR(st->st_mode) ? 0777 : 0666;
	/* set-id bits only with the mode (the kernel keeps a directory's
	 * sticky bit and takes its set-group-id from the parent) */
	mode_t bits = S_ISDIR(st->st_mode) || c->o->preserve_mode ? 07777 : 0777;
	return st->st_mode & bits & ~omitted_mode(c, st);
}

/* Make the directory for e at name in pfd, or find the one there. Returns
 * its descriptor, or -1 (reported); -2 in a dry run when there is none. */
static int make_dir(struct copy *c, const struct sweep_entry *e, int pfd, const char *name,
                    unsigned *flags, mode_t *mode)
{
	struct stat st;
	const char *backup = NULL;
	bool make = false;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (c->o->dry_run && !S_ISDIR(st.st_mode))
			return -2;
		if (!S_ISDIR(st.st_mode) && c->o->replace_nondir) {
			if (replace_remove(c, pfd, name) < 0)
				return -1;
		} else if (!S_ISDIR(st.st_mode) && !c->o->backup) {
			copy_error(c, 0, "cannot overwrite non-directory %s with directory %s",
			           cq(c, 0, sb_str(&c->shown)), cq(c, 1, e->path));
			return -1;
		} else if (!S_ISDIR(st.st_mode) && backup_make(c, pfd, name, &backup) < 0) {
			return -1;
		}
		make = !S_ISDIR(st.st_mode);
	} else if (errno == ENOENT) {
		if (c->o->dry_run)
			return -2;
		make = true;
	} else {
		copy_error(c, errno, "cannot stat %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	if (make) {
		/* searchable and writable by us until its contents are in: made
		 * so, not changed later, which would leave a moment when the
		 * copy cannot open it */
		if (mkdirat(pfd, name, create_mode(c, &e->st) | S_IRWXU) < 0) {
			copy_error(c, errno, "cannot create directory %s", cq(c, 0, sb_str(&c->shown)));
			return -1;
		}
		*flags |= DIR_CREATED;
		copy_verbose(c, e, backup);
	}
	int fd = destdir_openat(c, pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0 || fstat(fd, &st) < 0) {
		copy_error(c, errno, "cannot access %s", cq(c, 0, sb_str(&c->shown)));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*mode = st.st_mode & 07777;
	mode_t want = create_mode(c, &e->st) & ~c->umask & S_IRWXU;
	if ((*flags & DIR_CREATED) && want != S_IRWXU) {
		*mode = (*mode & ~(mode_t)S_IRWXU) | want;
		*flags |= DIR_RESTORE;
	}
	return fd;
}

void dirs_enter(struct copy *c, const struct sweep_entry *e)
{
	const char *name;
	unsigned flags = 0;
	mode_t mode = 0;
	errno = 0;
	int pfd = destdir_parent(c, e, &name);
	if (pfd < 0 && c->o->dry_run)
		return; /* inside a directory a real run would make */
	int fd = pfd < 0 ? -1 : make_dir(c, e, pfd, name, &flags, &mode);
	if (fd == -2)
		return;
	if (pfd < 0)
		copy_error(c, errno, "cannot create directory %s", cq(c, 0, sb_str(&c->shown)));
	if (fd < 0 || destdir_add(c, e->dir_id, fd, flags, mode) < 0) {
		if (fd >= 0)
			copy_error(c, ENOMEM, "%s", cq(c, 0, e->path));
		/* nothing below it can be made: do not read it */
		copy_prune(c, e);
	}
}

/* The source directory, for its extended attributes; -1 when it cannot be
 * opened (the attributes are then left alone). */
static int open_source(struct copy *c, const struct sweep_entry *e)
{
	int nofollow = copy_follows(c, e) ? 0 : O_NOFOLLOW;
	return openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | nofollow);
}

void dirs_leave(struct copy *c, const struct sweep_entry *e)
{
	unsigned flags;
	mode_t mode;
	int fd = destdir_take(c, e->dir_id, sb_str(&c->drel), &flags, &mode);
	if (fd == -2)
		return; /* never made: reported */
	if (fd < 0) {
		copy_error(c, errno, "cannot access %s", cq(c, 0, sb_str(&c->shown)));
		return;
	}
	if (c->o->dry_run) {
		close(fd);
		return;
	}
	int sfd = c->o->preserve_xattr || c->o->preserve_mode || c->o->preserve_acl
	          ? open_source(c, e) : -1;
	/* after the files the writer thread may still be finishing in it
	 * (sweep-sync renames them into place: the directory's times move) */
	if (writer_give_dir(c, e, fd, sfd, flags, mode))
		return;
	attrs_fd(c, fd, sfd, &e->st, flags & DIR_CREATED, mode, flags);
	if (sfd >= 0)
		close(sfd);
	close(fd);
}
