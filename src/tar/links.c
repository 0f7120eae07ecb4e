/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * links.c: hard links that libsweep's pairing by link count gets wrong,
 * settled here by (device, inode):
 *   - under -h one file can be reached by several paths (a symlink to it,
 *     a symlink to a directory holding it) while having one name only, and
 *     with several operands one file can be named twice (a b a, or dir
 *     dir/file): the later paths are stored as hard links, as GNU tar
 *     stores them;
 *   - when the first name of a file with several names cannot be opened,
 *     or is not stored (a name or a size its format cannot hold), libsweep
 *     still hands the later names out as links to it, a member the archive
 *     does not hold: the first later name that opens is stored with the
 *     data instead, and the others link to it, as GNU tar stores them.
 * Only -h, several operands and such failures pay for the table.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "create.h"

/* Values in cr->links: the offset + 1 of the member name (before
 * --transform, whose h expressions apply to it) in cr->link_names
 * that holds the data, or 0 while the first name failed and none does. */

/* e, the first name of a file of several, is not in the archive: its
 * later names must not be links to it. */
static void first_lost(struct create *cr, const struct sweep_entry *e)
{
	uint64_t dev = (uint64_t)e->st.st_dev, ino = (uint64_t)e->st.st_ino;
	if (e->st.st_nlink > 1 && !S_ISDIR(e->st.st_mode) && !keymap_get(&cr->links, dev, ino))
		keymap_put(&cr->links, dev, ino, 0);
}

void links_failed(struct create *cr, const struct sweep_entry *e)
{
	if (e->op == SWEEP_OP_OPEN)
		first_lost(cr, e);
}

/* The name stored without a link is the one meant to hold the data:
 * the first, or a later one take_data() or a track made the holder. */
void links_unstored(struct create *cr, const struct sweep_entry *e)
{
	uint64_t *v = keymap_get(&cr->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino);
	if (v)
		*v = 0;
	else if (!e->link_first)
		first_lost(cr, e);
}

/* Remember that e's data is stored under member. A failure to remember
 * only costs a second copy of the data. */
static void remember(struct create *cr, const struct sweep_entry *e, const char *member)
{
	size_t off = cr->link_names.len;
	if (sb_add(&cr->link_names, member, strlen(member) + 1) == 0 &&
	    keymap_put(&cr->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino, off + 1) < 0)
		cr->link_names.len = off;
}

/* Store e with its data, opened here, as *copy; a fifo or a device as
 * what it is, never opened (a fifo would wait for a writer). */
static const struct sweep_entry *take_data(struct create *cr, const struct sweep_entry *e,
                                           const char *member, struct sweep_entry *copy)
{
	if (!S_ISREG(e->st.st_mode)) {
		*copy = *e;
		copy->link_first = NULL;
		copy->fd = -1;
		remember(cr, e, member);
		return copy;
	}
	int follow = cr->t->opt.dereference ? 0 : O_NOFOLLOW;
	int fd = openat(e->dirfd, e->name, O_RDONLY | O_CLOEXEC | follow);
	if (fd < 0 || fstat(fd, &copy->st) < 0) {
		tar_cannot_read(cr->t, e->path, "open", errno);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct stat st = copy->st;
	*copy = *e;
	copy->st = st;
	copy->kind = SWEEP_DATA;
	copy->fd = fd;
	copy->link_first = NULL;
	remember(cr, e, member);
	return copy;
}

const struct sweep_entry *links_resolve(struct create *cr, const struct sweep_entry *e,
                                        const char *member, struct sweep_entry *copy,
                                        const char **link)
{
	*link = NULL;
	/* --hard-dereference: every name a file of its own, with its data */
	if (cr->t->opt.hard_dereference)
		return e->link_first ? take_data(cr, e, member, copy) : e;
	bool track = cr->track_all && !e->link_first && e->kind == SWEEP_DATA &&
	             e->st.st_nlink <= 1;
	if (!track && (!e->link_first || !cr->links.n))
		return e;
	uint64_t *v = keymap_get(&cr->links, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino);
	if (v && *v) {
		*link = cr->link_names.s + *v - 1;
		return e;
	}
	if (track) {
		remember(cr, e, member);
		return e;
	}
	return v ? take_data(cr, e, member, copy) : e;
}
