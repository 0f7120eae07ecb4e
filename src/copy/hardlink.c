/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hardlink.c: with --preserve=links (-a, -d), a file with several names in
 * the source has one inode with as many names in the copy. The first name
 * copied is remembered by the source's (st_dev, st_ino); later ones are
 * linked to it with linkat() from a descriptor of its directory, opened
 * from its tree's top one component at a time (its path may exceed
 * PATH_MAX). Only files with a link count above one pay for the table,
 * but where links are followed (-L everywhere, -H for the operands): one
 * file may then be met under two names whatever its count, and GNU cp
 * links them (rsync -LH does not).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "copyint.h"

bool hardlink_tracked(const struct copy *c, const struct sweep_entry *e)
{
	/* (not sweep-sync's: rsync -H links only files of several names) */
	return c->o->preserve_links && !S_ISDIR(e->st.st_mode) &&
	       (e->st.st_nlink > 1 || (!c->o->decide && copy_follows(c, e)));
}

void hardlink_remember(struct copy *c, const struct sweep_entry *e)
{
	if (!hardlink_tracked(c, e) ||
	    keymap_get(&c->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino))
		return;
	size_t off = c->link_names.len;
	unsigned tree = c->tree;
	/* a failure to remember costs a second copy of the data only */
	if (sb_add(&c->link_names, &tree, sizeof(tree)) < 0 ||
	    sb_add(&c->link_names, c->drel.s, c->drel.len + 1) < 0 ||
	    sb_add(&c->link_names, c->shown.s, c->shown.len + 1) < 0 ||
	    keymap_put(&c->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino, off + 1) < 0)
		c->link_names.len = off;
}

/* The first name remembered of e's file: its path from its tree's top
 * (the top's name first), and its tree in *tree; NULL when there is none. */
static const char *first_record(const struct copy *c, const struct sweep_entry *e, unsigned *tree)
{
	uint64_t *v = hardlink_tracked(c, e) ? keymap_get(&c->links, (uint64_t)e->st.st_dev,
	                                         (uint64_t)e->st.st_ino) : NULL;
	if (!v)
		return NULL;
	const char *rec = c->link_names.s + *v - 1;
	memcpy(tree, rec, sizeof(*tree));
	return rec + sizeof(*tree);
}

int hardlink_later(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	unsigned tree;
	const char *drel = first_record(c, e, &tree);
	if (!drel)
		return 0;
	const char *first_shown = drel + strlen(drel) + 1;
	const char *slash = strrchr(drel, '/');
	const char *backup;
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	if (s == DEST_SKIP || s == DEST_FAIL)
		return 1;
	if (s == DEST_EXISTS && replace_remove(c, pfd, name) < 0)
		return 1;
	int ofd = destdir_walk(c->tops[tree], drel, slash ? (size_t)(slash - drel) : 0);
	if (ofd < 0 || linkat(ofd, slash ? slash + 1 : drel, pfd, name, 0) < 0)
		copy_error(c, errno, "cannot create hard link %s to %s", cq(c, 0, sb_str(&c->shown)),
		           cq(c, 1, first_shown));
	else {
		replace_made(c, e, pfd, name);
		c->made = true;
	}
	if (ofd >= 0)
		close(ofd);
	return 1;
}

const char *hardlink_first(struct copy *c, const struct sweep_entry *e)
{
	unsigned tree;
	const char *drel = first_record(c, e, &tree);
	if (!drel)
		return NULL;
	size_t top = strlen(c->top_name);
	/* drel is the top's name, then '/' and the path below the root */
	if (tree != c->tree || strncmp(drel, c->top_name, top) != 0)
		return NULL;
	return drel[top] == '/' ? drel + top + 1 : drel[top] ? NULL : "";
}

const char *hardlink_first_elsewhere(struct copy *c, const struct sweep_entry *e)
{
	unsigned tree;
	const char *drel = first_record(c, e, &tree);
	if (!drel || tree == c->tree)
		return NULL;
	return strncmp(drel, "./", 2) == 0 ? drel + 2 : drel;
}

bool hardlink_known(const struct copy *c, const struct sweep_entry *e)
{
	return hardlink_tracked(c, e) &&
	       keymap_get(&c->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino) != NULL;
}

bool hardlink_same(struct copy *c, const struct sweep_entry *e, const struct stat *dst)
{
	unsigned tree;
	const char *drel = dst ? first_record(c, e, &tree) : NULL;
	if (!drel)
		return false;
	const char *slash = strrchr(drel, '/');
	int ofd = destdir_walk(c->tops[tree], drel, slash ? (size_t)(slash - drel) : 0);
	struct stat st;
	bool same = ofd >= 0 && fstatat(ofd, slash ? slash + 1 : drel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	            same_inode(&st, dst);
	if (ofd >= 0)
		close(ofd);
	return same;
}
