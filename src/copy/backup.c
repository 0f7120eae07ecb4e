/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backup.c: --backup: an existing destination renamed aside before it is
 * replaced, as name + suffix (simple) or name.~N~ (numbered, N one more
 * than the highest there), or numbered only where numbered backups exist
 * already (existing, GNU's default CONTROL "existing"/"nil"). For
 * sweep-sync's --backup-dir, a simple backup goes below that directory
 * instead, under its path below the destination, the directories on the
 * way made with the modes of the destination's, as rsync makes them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "copyint.h"

/* Make directory path (its first len bytes) below bakfd, and its parents,
 * where missing, each with the mode of the destination directory it
 * stands for: dirfd, and the parents of dirfd. Returns 0 or -1. */
static int make_dirs(int bakfd, const char *path, size_t len, int dirfd)
{
	char *p = strndup(path, len);
	struct stat st;
	int r = -1;
	if (!p || fstatat(bakfd, p, &st, 0) == 0 || errno != ENOENT) {
		r = p && S_ISDIR(st.st_mode) ? 0 : -1;
		goto out;
	}
	const char *slash = memrchr(path, '/', len);
	if (slash) {
		int up = openat(dirfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		r = up >= 0 ? make_dirs(bakfd, path, (size_t)(slash - path), up) : -1;
		if (up >= 0)
			close(up);
		if (r < 0)
			goto out;
	}
	r = fstat(dirfd, &st) == 0 && mkdirat(bakfd, p, 0700) == 0 &&
	    fchmodat(bakfd, p, st.st_mode & 07777, 0) == 0 ? 0 : -1;
out:
	free(p);
	return r;
}

/* Copy the regular file name in pfd to "to" in tofd, bytes, mode, owner
 * (where it may) and times, in place of any file there. Returns 0, or -1
 * with errno (nothing left under "to"). */
static int copy_aside(int pfd, const char *name, int tofd, const char *to)
{
	struct stat st;
	int sfd = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (sfd < 0 || fstat(sfd, &st) < 0) {
		if (sfd >= 0)
			close(sfd);
		return -1;
	}
	if (unlinkat(tofd, to, 0) < 0 && errno != ENOENT) {
		close(sfd);
		return -1;
	}
	int dfd = openat(tofd, to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
	                 0600);
	int r = dfd < 0 ? -1 : 0;
	char buf[65536];
	for (ssize_t n; r == 0 && (n = read(sfd, buf, sizeof(buf))) != 0;) {
		if (n < 0 && errno == EINTR)
			continue;
		for (ssize_t done = 0, w; r == 0 && n > 0 && done < n; done += w)
			if ((w = write(dfd, buf + done, (size_t)(n - done))) < 0)
				r = -1;
		if (n < 0)
			r = -1;
	}
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	if (r == 0 && fchown(dfd, st.st_uid, st.st_gid) < 0 && errno != EPERM)
		r = -1;
	if (r == 0 && (fchmod(dfd, st.st_mode & 07777) < 0 || futimens(dfd, times) < 0))
		r = -1;
	int err = errno;
	if (dfd >= 0 && close(dfd) < 0 && r == 0) {
		err = errno;
		r = -1;
	}
	close(sfd);
	if (r < 0 && dfd >= 0)
		unlinkat(tofd, to, 0);
	errno = err;
	return r;
}

/* Put name in pfd aside as "to" in tofd: moved, or (by_copy: a regular
 * file to be written in place) copied. Returns 1 when copied, 0 when
 * moved, -1 with errno. */
static int aside(int pfd, const char *name, int tofd, const char *to, bool by_copy)
{
	struct stat st;
	if (by_copy && fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		return copy_aside(pfd, name, tofd, to) < 0 ? -1 : 1;
	return renameat(pfd, name, tofd, to) < 0 ? -1 : 0;
}

/* copy_backup_move, or (by_copy) a regular file copied there. Returns as
 * aside(). */
static int backup_aside(const struct copy_opts *o, int pfd, const char *name, const char *rel,
                        struct strbuf *shown, bool by_copy)
{
	const char *suffix = o->suffix ? o->suffix : o->backup_dir ? "" : "~";
	int bakfd = o->backup_dir ? o->backup_dir(o->arg) : pfd;
	const char *slash = strrchr(rel, '/');
	sb_reset(shown);
	if (sb_printf(shown, "%s%s", o->backup_dir ? rel : name, suffix) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (bakfd < 0 ||
	    (o->backup_dir && slash && make_dirs(bakfd, rel, (size_t)(slash - rel), pfd) < 0))
		return -1;
	return aside(pfd, name, bakfd, shown->s, by_copy);
}

int copy_backup_move(const struct copy_opts *o, int pfd, const char *name, const char *rel,
                     struct strbuf *shown)
{
	return backup_aside(o, pfd, name, rel, shown, false);
}

int backup_make(struct copy *c, int pfd, const char *name, const char **shown, bool by_copy)
{
	if (c->o->backup_dir) {
		const char *rel = sb_str(&c->drel);
		if (strncmp(rel, "./", 2) == 0)
			rel += 2;
		*shown = sb_str(&c->bshown);
		int r = backup_aside(c->o, pfd, name, rel, &c->bshown, by_copy);
		if (r == 0 && c->o->backed_up)
			c->o->backed_up(c->o->arg, sb_str(&c->rel));
		if (r >= 0)
			return r;
		copy_error(c, errno, "cannot backup %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	struct strbuf bname = STRBUF_INIT;
	int r = backup_name(pfd, name, c->o->backup, c->o->suffix, &bname);
	sb_reset(&c->bshown);
	const char *dst = sb_str(&c->shown);
	size_t dirlen = strlen(dst) - strlen(name);
	if (r == 0 && (sb_add(&c->bshown, dst, dirlen) < 0 ||
	               sb_addstr(&c->bshown, sb_str(&bname)) < 0))
		r = -1;
	if (r == 0 && (r = aside(pfd, name, pfd, sb_str(&bname), by_copy)) < 0) {
		copy_error(c, errno, "cannot backup %s", cq(c, 0, dst));
		r = -2;
	} else if (r == -1) {
		copy_error(c, ENOMEM, "cannot backup %s", cq(c, 0, dst));
	}
	sb_free(&bname);
	*shown = sb_str(&c->bshown);
	if (r == 0 && c->o->backed_up)
		c->o->backed_up(c->o->arg, sb_str(&c->rel));
	return r < 0 ? -1 : r;
}

int backup_replaced(struct copy *c, int pfd, const char *name)
{
	struct stat st;
	const char *shown;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISDIR(st.st_mode))
		return 0; /* nothing to keep: the rename says what is wrong */
	return backup_make(c, pfd, name, &shown, false);
}
