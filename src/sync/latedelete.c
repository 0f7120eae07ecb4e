/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * latedelete.c: --delete-after over a remote shell. The receiver has no
 * source tree to go down after the transfer, as deletepass.c does for a
 * local run; so, as each directory is decided, it keeps what the sender
 * said of it (its sorted names, W_NAMES, and its time) with its path
 * below the tree's top, as the engine names it ("" for the top). Once
 * the tree is in, each kept directory, in the order they came, loses
 * what it holds beyond those names (delete_extraneous, as in a local
 * run), and gets its source's time back if that moved it. A
 * directory is opened one component at a time below the top, following no
 * symbolic link: what the transfer made may have been swapped since.
 * Memory: the names of the source's directories, as rsync's file list.
 * --delete-before has the sender go over its directories first, each
 * directory's names then its path (W_PREDELETE): each is deleted in as it
 * comes (late_delete_dir), before the transfer, with nothing kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

struct late_dir {
	size_t rel, names, nnames; /* offsets in the blob; names sorted */
	struct timespec mtime;
};

void late_deletes_init(struct late_deletes *l)
{
	memset(l, 0, sizeof(*l));
	l->blob = (struct strbuf)STRBUF_INIT;
}

void late_deletes_free(struct late_deletes *l)
{
	free(l->dirs);
	free(l->index);
	sb_free(&l->blob);
	late_deletes_init(l);
}

int late_deletes_keep(struct late_deletes *l, const char *rel, const char *const *names,
                      size_t n, const struct timespec *mtime)
{
	if (l->ndirs == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct late_dir *v = reallocarray(l->dirs, cap, sizeof(*v));
		if (!v)
			return -1;
		l->dirs = v;
		l->cap = cap;
	}
	struct late_dir *d = &l->dirs[l->ndirs];
	d->rel = l->blob.len;
	if (sb_add(&l->blob, rel, strlen(rel) + 1) < 0)
		return -1;
	d->names = l->blob.len;
	for (size_t i = 0; i < n; i++)
		if (sb_add(&l->blob, names[i], strlen(names[i]) + 1) < 0)
			return -1;
	d->nnames = n;
	d->mtime = *mtime;
	l->ndirs++;
	return 0;
}

/* The names of d, split, into s->src_names. Returns 0 or -1 (ENOMEM). */
static int index_dir(struct sync *s, struct late_deletes *l, const struct late_dir *d)
{
	if (d->nnames + 1 > l->index_cap) { /* never NULL: NULL says "not read" */
		const char **v = reallocarray(l->index, d->nnames + 1, sizeof(*v));
		if (!v)
			return -1;
		l->index = v;
		l->index_cap = d->nnames + 1;
	}
	const char *p = l->blob.s + d->names;
	for (size_t i = 0; i < d->nnames; i++, p += strlen(p) + 1)
		l->index[i] = p;
	s->src_names = l->index;
	s->nsrc_names = d->nnames;
	return 0;
}

/* After the deletions, the directory's time is its source's again. */
static void restore_time(const struct sync *s, int pfd, const char *name,
                         const struct timespec *mtime)
{
	if (!s->times || s->copy.omit_dir_times || s->dry_run)
		return;
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && sync_cmp_mtime(s, &st.st_mtim, mtime)) {
		struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, *mtime };
		futimens(fd, times);
	}
	close(fd);
}

/* The parent of directory rel (below the tree's top, name in dfd; "" is
 * the top) and its name there. Returns the parent's fd or -1. */
static int open_parent(int dfd, const char *name, const char *rel, const char **last)
{
	if (!*rel) {
		*last = name;
		return dup(dfd);
	}
	int top = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (top < 0)
		return -1;
	const char *slash = strrchr(rel, '/');
	*last = slash ? slash + 1 : rel;
	int pfd = destdir_walk(top, rel, slash ? (size_t)(slash - rel) : 0);
	close(top);
	return pfd;
}

void late_delete_dir(struct sync *s, int dfd, const char *name, const char *rel,
                     const struct timespec *mtime)
{
	const char *last;
	struct stat st;
	int pfd = open_parent(dfd, name, rel, &last);
	if (pfd < 0)
		return; /* gone, or made a link since: nothing of ours */
	if (fstatat(pfd, last, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
		close(pfd); /* not a directory here (yet): nothing in it to delete */
		return;
	}
	/* named as a local run names it: below DEST */
	const char *shown = sync_relname(s, rel);
	if (!s->src_names)
		report_error(s, ENOMEM, "[receiver] --delete in %s", shown);
	else
		delete_extraneous(s, -1, NULL, pfd, last, shown);
	if (mtime)
		restore_time(s, pfd, last, mtime);
	close(pfd);
}

void late_deletes_run(struct sync *s, struct late_deletes *l, int dfd, const char *name)
{
	for (size_t i = 0; i < l->ndirs; i++) {
		const struct late_dir *d = &l->dirs[i];
		if (index_dir(s, l, d) < 0)
			s->src_names = NULL;
		late_delete_dir(s, dfd, name, l->blob.s + d->rel, &d->mtime);
	}
	s->src_names = NULL;
	l->ndirs = 0;
	sb_reset(&l->blob);
}
