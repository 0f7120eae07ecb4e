/*
 * derefs.c: under -h one file can be reached by several paths (a symlink
 * to it, a symlink to a directory holding it) while having one name only;
 * libsweep pairs names by link count, so these pairs are found here, by
 * (device, inode), and stored as hard links the way GNU tar stores them.
 * Only -h pays for the table.
 */
#include <stdlib.h>
#include <string.h>
#include "create.h"

const char *derefs_first(struct create *cr, const struct sweep_entry *e, const char *member)
{
	if (!cr->t->opt.dereference || e->link_first || e->kind != SWEEP_DATA ||
	    e->st.st_nlink > 1)
		return NULL;
	uint64_t *at = keymap_get(&cr->deref_map, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino);
	if (at)
		return cr->deref_names.s + *at;
	/* Remembered under its member name, offset into one buffer; a failure
	 * to remember only costs a second copy of the data. */
	size_t off = cr->deref_names.len;
	if (sb_add(&cr->deref_names, member, strlen(member) + 1) == 0 &&
	    keymap_put(&cr->deref_map, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino, off) < 0)
		cr->deref_names.len = off;
	return NULL;
}
