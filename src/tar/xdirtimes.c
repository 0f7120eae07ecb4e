/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xdirtimes.c: the times of directories that were there before their
 * member. libarchive's disk writer sets the time of a directory it makes
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
#include "extract.h"

int xdirtimes_note(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st;
	if (x->t->opt.touch || archive_entry_filetype(e) != AE_IFDIR ||
	    !archive_entry_mtime_is_set(e) || lstat(name, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (x->ndirs == x->capdirs) {
		size_t cap = x->capdirs ? 2 * x->capdirs : 16;
		struct timespec *v = reallocarray(x->dir_mtimes, cap, sizeof(*v));
		if (!v)
			goto nomem;
		x->dir_mtimes = v;
		x->capdirs = cap;
	}
	if (sb_add(&x->dir_names, name, strlen(name) + 1) < 0)
		goto nomem;
	x->dir_mtimes[x->ndirs++] = (struct timespec){ archive_entry_mtime(e),
	                                               archive_entry_mtime_nsec(e) };
	return 0;
nomem:
	tar_fatal(x->t, ENOMEM, "memory exhausted");
	return -1;
}

void xdirtimes_apply(struct extract *x)
{
	const char *name = sb_str(&x->dir_names);
	for (size_t i = 0; i < x->ndirs; i++, name += strlen(name) + 1) {
		struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, x->dir_mtimes[i] };
		if (utimensat(AT_FDCWD, name, times, AT_SYMLINK_NOFOLLOW) < 0)
			tar_cannot(x->t, name, "utime", errno);
	}
	sb_free(&x->dir_names);
	free(x->dir_mtimes);
	x->dir_mtimes = NULL;
	x->ndirs = x->capdirs = 0;
}
