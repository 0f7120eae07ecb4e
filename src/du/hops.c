/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hops.c: symbolic links followed on the way down, under -L.
 *
 * GNU du -L stats each file by its whole path, which the kernel resolves
 * following at most 40 symbolic links (MAXSYMLINKS); below a chain of
 * linked directories it thus meets "Too many levels of symbolic links".
 * libsweep opens each directory from its parent, so no resolution ever
 * passes the limit, and the count is kept here instead: for each directory
 * being walked, the links followed to reach it (those above it and its own
 * name's, or for a starting point the links among its path's components).
 * A link counts once, whatever links its target passes through.
 * Only directories reached through a link are remembered, until their
 * walk ends.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "du.h"

#define HOPS_MAX 40 /* the kernel's MAXSYMLINKS */

static uint64_t parent_hops(const struct keymap *m, const struct sweep_entry *e)
{
	const uint64_t *v = e->depth > 0 ? keymap_get(m, e->parent_id, 0) : NULL;
	return v ? *v : 0;
}

/* Whether e's own name is a symbolic link (that -L followed). */
static bool is_link(const struct sweep_entry *e)
{
	struct stat st;
	return fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

/* The symbolic links among the components of a starting point's path
 * (each prefix that ends a component). */
static uint64_t links_in_path(const char *path)
{
	char *p = strdup(path);
	uint64_t n = 0;
	if (!p)
		return 0;
	for (char *end = p + 1; ; end++) {
		if (*end && *end != '/')
			continue;
		char c = *end;
		*end = 0;
		struct stat st;
		n += end[-1] != '/' && lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
		if (!c)
			break;
		*end = c;
	}
	free(p);
	return n;
}

int hops_check(struct keymap *m, const struct sweep_entry *e)
{
	uint64_t hops = parent_hops(m, e);
	if (e->kind != SWEEP_DIR && e->depth > 0 && hops < HOPS_MAX)
		return 0; /* a file's own link cannot pass the limit yet */
	hops += e->depth == 0 ? links_in_path(e->path) : is_link(e);
	if (hops > HOPS_MAX)
		return HOPS_TOO_MANY;
	if (e->kind == SWEEP_DIR && hops > 0 && keymap_put(m, e->dir_id, 0, hops) < 0)
		return -1;
	return 0;
}

void hops_done(struct keymap *m, const struct sweep_entry *e)
{
	keymap_del(m, e->dir_id, 0);
}
