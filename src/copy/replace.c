/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replace.c: a destination name that exists already, for anything but a
 * directory source. GNU cp's rules, in its order: a directory is never
 * overwritten by a non-directory; a destination that is the source itself
 * is an error; -n keeps it; -u keeps it unless it is older; -i asks; a
 * backup moves it aside; --remove-destination, or a source that is not a
 * regular file (a link, a fifo, a device cannot be written into), removes
 * it; a regular file otherwise is written into where it is (through a
 * symbolic link, as POSIX asks of cp; never through a dangling one).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "copyint.h"

int replace_remove(struct copy *c, int pfd, const char *name)
{
	if (unlinkat(pfd, name, 0) == 0) {
		if (c->o->verbose)
			printf("removed %s\n", cq(c, 0, sb_str(&c->shown)));
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	copy_error(c, errno, "cannot remove %s", cq(c, 0, sb_str(&c->shown)));
	return -1;
}

static bool older(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Whether e and the destination st are one file. */
static bool same_file(const struct sweep_entry *e, const struct stat *st)
{
	return e->st.st_dev == st->st_dev && e->st.st_ino == st->st_ino;
}

/* For a regular file written into an existing destination: whether that
 * destination can be written through. */
static enum dest_state writable_through(struct copy *c, int pfd, const char *name,
                                        const struct stat *lst)
{
	struct stat st;
	if (!S_ISLNK(lst->st_mode))
		return DEST_EXISTS;
	if (fstatat(pfd, name, &st, 0) < 0) {
		copy_error(c, 0, "not writing through dangling symlink %s",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (S_ISDIR(st.st_mode)) {
		copy_error(c, 0, "cannot overwrite directory %s with non-directory",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	return DEST_EXISTS;
}

enum dest_state replace_prepare(struct copy *c, const struct sweep_entry *e, int pfd,
                                const char *name, const char **backup)
{
	const struct copy_opts *o = c->o;
	struct stat st;
	*backup = NULL;
	if (destdir_fresh(c, e))
		return DEST_NEW; /* as GNU cp's in a directory it made */
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return DEST_NEW;
		copy_error(c, errno, "cannot stat %s", cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (S_ISDIR(st.st_mode)) {
		copy_error(c, 0, "cannot overwrite directory %s with non-directory",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (same_file(e, &st)) {
		copy_error(c, 0, "%s and %s are the same file", cq(c, 0, e->path),
		           cq(c, 1, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (o->exist == COPY_NO_CLOBBER)
		return DEST_SKIP;
	if (o->update && !older(&st.st_mtim, &e->st.st_mtim))
		return DEST_SKIP;
	if (o->exist == COPY_INTERACTIVE && o->ask && !o->ask(o->arg, cq(c, 0, sb_str(&c->shown))))
		return DEST_SKIP;
	if (o->backup)
		return backup_make(c, pfd, name, backup) < 0 ? DEST_FAIL : DEST_NEW;
	bool regular = S_ISREG(e->st.st_mode) && !o->hard_link && !o->symbolic_link;
	/* sweep-sync, as rsync, puts a file where a non-file was; writing
	 * into a fifo would hang, into a device would send it the bytes */
	bool sync_nonfile = o->decide && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode);
	if (o->remove_destination || sync_nonfile || (!regular && !o->hard_link && !o->symbolic_link) ||
	    ((o->hard_link || o->symbolic_link) && o->force) ||
	    (o->preserve_links && st.st_nlink > 1 && regular))
		return replace_remove(c, pfd, name) < 0 ? DEST_FAIL : DEST_NEW;
	if (!regular)
		return DEST_NEW; /* the link call says "File exists", as GNU's */
	return writable_through(c, pfd, name, &st);
}
