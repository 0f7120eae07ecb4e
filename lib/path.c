/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * path.c: building an entry's path from its chain of parents.
 *
 * Paths are built only when an entry is handed out, into one buffer that
 * grows as needed, so a path may be longer than PATH_MAX: the walk itself
 * never uses it, it opens everything relative to an open parent.
 *
 * A directory's names mostly come one after another, so the buffer keeps
 * the path of the last entry's directory, and the next name in the same
 * one is only copied after it: in a tree of chains 256 deep, building each
 * path from the whole chain of parents took 15% of a warm sweep-du.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* A root given as "dir/" is joined without a second slash, as GNU tools do. */
static size_t sep_after(const char *name, size_t len)
{
	return len && name[len - 1] == '/' ? 0 : 1;
}

/* Name the entry by name alone: the best there is when its path cannot be
 * built, and all there is for a root (its name is the path as given). */
void sw_path_name_only(struct sweep *sw, const char *name, size_t namelen)
{
	sw->ent.path = sw->ent.name = name;
	sw->ent.pathlen = namelen;
}

/* Names the entry name in the directory whose path the buffer holds. */
static void path_in_same_dir(struct sweep *sw, const char *name, size_t namelen)
{
	size_t len = sw->path_dir_len + namelen;
	memcpy(sw->pathbuf + sw->path_dir_len, name, namelen);
	sw->pathbuf[len] = 0;
	sw->ent.path = sw->pathbuf;
	sw->ent.pathlen = len;
	sw->ent.name = sw->pathbuf + sw->path_dir_len;
}

/* Make sw->ent.path the path of name in parent. Returns 0, or -1 (ENOMEM,
 * and the entry is named by name alone, so an error still names it). */
int sw_path_build(struct sweep *sw, const struct sw_dir *parent, const char *name,
                  size_t namelen)
{
	if (parent && parent->id == sw->path_dir && sw->path_dir_len + namelen < sw->pathcap) {
		path_in_same_dir(sw, name, namelen);
		return 0;
	}
	sw->path_dir = 0;
	size_t len = namelen;
	for (const struct sw_dir *d = parent; d; d = d->parent)
		len += d->namelen + sep_after(d->name, d->namelen);
	if (len + 1 > sw->pathcap) {
		size_t cap = sw->pathcap ? sw->pathcap : 256;
		while (cap < len + 1)
			cap *= 2;
		char *p = realloc(sw->pathbuf, cap);
		if (!p && sw_mem_shed(sw))
			p = realloc(sw->pathbuf, cap);
		if (!p) {
			sw_path_name_only(sw, name, namelen);
			errno = ENOMEM;
			return -1;
		}
		sw->pathbuf = p;
		sw->pathcap = cap;
	}
	char *end = sw->pathbuf + len;
	*end = 0;
	end -= namelen;
	memcpy(end, name, namelen);
	for (const struct sw_dir *d = parent; d; d = d->parent) {
		if (sep_after(d->name, d->namelen))
			*--end = '/';
		end -= d->namelen;
		memcpy(end, d->name, d->namelen);
	}
	sw->ent.path = sw->pathbuf;
	sw->ent.pathlen = len;
	sw->ent.name = sw->pathbuf + len - namelen;
	sw->path_dir = parent ? parent->id : 0;
	sw->path_dir_len = len - namelen;
	return 0;
}
