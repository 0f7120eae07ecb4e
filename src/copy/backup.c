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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "copyint.h"

/* The highest N of name.~N~ in pfd; 0 when there is none. */
static unsigned long highest(int pfd, const char *name)
{
	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned long max = 0;
	size_t n = strlen(name);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		const char *p = de->d_name;
		if (strncmp(p, name, n) != 0 || strncmp(p + n, ".~", 2) != 0)
			continue;
		char *end;
		unsigned long v = strtoul(p + n + 2, &end, 10);
		if (end != p + n + 2 && strcmp(end, "~") == 0 && v > max)
			max = v;
	}
	closedir(dir);
	return max;
}

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

int copy_backup_move(const struct copy_opts *o, int pfd, const char *name, const char *rel,
                     struct strbuf *shown)
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
	return renameat(pfd, name, bakfd, shown->s);
}

int backup_make(struct copy *c, int pfd, const char *name, const char **shown)
{
	if (c->o->backup_dir) {
		const char *rel = sb_str(&c->drel);
		if (strncmp(rel, "./", 2) == 0)
			rel += 2;
		*shown = sb_str(&c->bshown);
		if (copy_backup_move(c->o, pfd, name, rel, &c->bshown) == 0)
			return 0;
		copy_error(c, errno, "cannot backup %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	struct strbuf bname = STRBUF_INIT;
	unsigned long n = c->o->backup == COPY_BACKUP_SIMPLE ? 0 : highest(pfd, name);
	bool numbered = c->o->backup == COPY_BACKUP_NUMBERED ||
	                (c->o->backup == COPY_BACKUP_EXISTING && n > 0);
	int r = numbered ? sb_printf(&bname, "%s.~%lu~", name, n + 1)
	                 : sb_printf(&bname, "%s%s", name, c->o->suffix ? c->o->suffix : "~");
	sb_reset(&c->bshown);
	const char *dst = sb_str(&c->shown);
	size_t dirlen = strlen(dst) - strlen(name);
	if (r == 0 && (sb_add(&c->bshown, dst, dirlen) < 0 ||
	               sb_addstr(&c->bshown, sb_str(&bname)) < 0))
		r = -1;
	if (r == 0 && renameat(pfd, name, pfd, sb_str(&bname)) < 0) {
		copy_error(c, errno, "cannot backup %s", cq(c, 0, dst));
		r = -2;
	} else if (r == -1) {
		copy_error(c, ENOMEM, "cannot backup %s", cq(c, 0, dst));
	}
	sb_free(&bname);
	*shown = sb_str(&c->bshown);
	return r < 0 ? -1 : 0;
}

int backup_replaced(struct copy *c, int pfd, const char *name)
{
	struct stat st;
	const char *shown;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISDIR(st.st_mode))
		return 0; /* nothing to keep: the rename says what is wrong */
	return backup_make(c, pfd, name, &shown);
}
