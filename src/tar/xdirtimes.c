/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xdirtimes.c: the times of directories that were there before their
 * member (and, without -p, their modes, which libarchive leaves alone
 * where GNU tar gives the member's, less the umask, to one of the user's).
 * libarchive's disk writer sets the time of a directory it makes
 * at the very end, but that of one it finds at once, so the members
 * extracted into it afterwards (as in GNU tar's archives and incremental
 * dumps, where a directory comes before what it holds) change it again.
 * Those are set once more when all is extracted, as GNU tar sets every
 * directory's.
 */
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"
#include "procfd.h"

int xdirtimes_note(struct extract *x, struct archive_entry *e, const char *name)
{
	const struct tar_opts *o = &x->t->opt;
	struct stat st;
	/* (-h: a link found there leads to the member's directory, xlinks.c) */
	int r = o->dereference ? stat(name, &st) : lstat(name, &st);
	if (archive_entry_filetype(e) != AE_IFDIR || r < 0 || !S_ISDIR(st.st_mode))
		return 0;
	struct dir_attrs a = { .dev = st.st_dev, .ino = st.st_ino,
	                       .set_time = !o->touch && archive_entry_mtime_is_set(e) };
	/* libarchive leaves an existing directory's mode alone; GNU tar
	 * gives it the member's (less the umask, without -p), and says so
	 * when it may not, but under --no-overwrite-dir */
	a.mode = member_mode(x->t, e);
	a.set_mode = a.mode != (st.st_mode & 07777) && !o->no_overwrite_dir;
	if (!a.set_time && !a.set_mode)
		return 0;
	if (a.set_time) {
		a.mtime = (struct timespec){ archive_entry_mtime(e), archive_entry_mtime_nsec(e) };
		/* (set here at the end, and said once: not libarchive's too) */
		archive_entry_unset_mtime(e);
		archive_entry_unset_atime(e);
	}
	if (x->ndirs == x->capdirs) {
		size_t cap = x->capdirs ? 2 * x->capdirs : 16;
		struct dir_attrs *v = reallocarray(x->dir_attrs, cap, sizeof(*v));
		if (!v)
			goto nomem;
		x->dir_attrs = v;
		x->capdirs = cap;
	}
	if (sb_add(&x->dir_names, name, strlen(name) + 1) < 0)
		goto nomem;
	x->dir_attrs[x->ndirs++] = a;
	return 0;
nomem:
	tar_fatal(x->t, ENOMEM, "memory exhausted");
	return -1;
}

void xdirtimes_apply(struct extract *x)
{
	const char *name = sb_str(&x->dir_names);
	for (size_t i = 0; i < x->ndirs; i++, name += strlen(name) + 1) {
		const struct dir_attrs *a = &x->dir_attrs[i];
		/* (named without its trailing slash, as GNU tar names it) */
		char *bare = names_without_slash(name);
		const char *shown = bare ? bare : name;
		/* (the time first, then the mode, as GNU tar's set_stat) */
		/* through the directory noted, never another one a link put in its
		 * place since leads to (an archive can make one there) */
		struct stat now;
		int nofollow = x->t->opt.dereference ? 0 : O_NOFOLLOW;
		int fd = open(shown, O_RDONLY | O_DIRECTORY | nofollow | O_CLOEXEC);
		if (fd < 0) /* (one the user may not read: by its path) */
			fd = open(shown, O_PATH | O_DIRECTORY | nofollow | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &now) == 0 && now.st_dev == a->dev && now.st_ino == a->ino) {
			struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, a->mtime };
			char p[PROCFD_NAME_MAX];
			procfd_name(fd, p);
			if (a->set_time && utimensat(AT_FDCWD, p, times, 0) < 0)
				tar_cannot(x->t, shown, "utime", errno);
			if (a->set_mode && chmod(p, a->mode) < 0)
				tar_cannot_chmod(x->t, shown, a->mode, errno);
		}
		if (fd >= 0)
			close(fd);
		free(bare);
	}
	sb_free(&x->dir_names);
	free(x->dir_attrs);
	x->dir_attrs = NULL;
	x->ndirs = x->capdirs = 0;
}
