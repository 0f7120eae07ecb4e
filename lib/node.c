/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * node.c: names read from a directory and waiting to be served.
 *
 * A node holds a reference on its parent directory until it is served or
 * released; the memory it takes counts against the metadata side's line
 * (half the bound; a sixteenth while the helper threads work), past which
 * names of directories are set aside (sw_defer_dir) rather than read, since
 * reading a directory adds names while serving frees one.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Where a node keeps a helper's stat: after its name, aligned. */
static size_t stat_offset(size_t namelen)
{
	size_t a = _Alignof(struct stat);
	return (offsetof(struct sw_node, name) + namelen + 1 + a - 1) / a * a;
}

static size_t node_size(size_t namelen, bool with_stat)
{
	if (with_stat)
		return stat_offset(namelen) + sizeof(struct stat);
	return offsetof(struct sw_node, name) + namelen + 1;
}

/* A node for a name, with the stat a helper took of it (st) or none. */
struct sw_node *sw_node_new(struct sweep *sw, struct sw_dir *parent, ino_t ino,
                            unsigned char type, const char *name, size_t namelen,
                            const struct stat *st)
{
	size_t size = node_size(namelen, st);
	struct sw_node *n = sw_alloc(sw, size);
	if (!n)
		return NULL;
	n->ino = ino;
	n->parent = parent;
	n->st = NULL;
	n->basefd = -1;
	n->type = type;
	n->root = false;
	n->namelen = namelen;
	memcpy(n->name, name, namelen + 1);
	if (st) {
		n->st = (struct stat *)((char *)n + stat_offset(namelen));
		*n->st = *st;
	}
	if (parent)
		parent->refs++;
	sw_mem_charge(&sw->mem, size, false);
	return n;
}

void sw_node_free(struct sweep *sw, struct sw_node *n)
{
	sw_mem_uncharge(&sw->mem, node_size(n->namelen, n->st), false);
	free(n);
}

/* Free a node and drop its reference on its parent. */
void sw_node_release(struct sweep *sw, struct sw_node *n)
{
	struct sw_dir *parent = n->parent;
	sw_node_free(sw, n);
	sw_dir_unref(sw, parent);
}

/* What holds v's parent now holds it for something else made of v (a
 * directory, a file waiting for its data), whose reference it becomes. */
void sw_name_take_ref(struct sweep *sw, const struct sw_name *v)
{
	if (v->node)
		sw_node_free(sw, v->node);
	else if (v->parent)
		v->parent->refs++;
}

size_t sw_meta_mem(const struct sw_mem *m)
{
	return m->held - m->data;
}

/* The metadata side's line: half the bound, where the names wait for the
 * elevator (the more it holds, the fewer passes of a disk arm). While the
 * helper threads work, the device was judged not to seek: the order buys
 * little there, and the queue need only keep the threads busy, which a
 * sixteenth does (internal.h). A later root on a disk arm gets the half back. */
size_t sw_meta_line(const struct sweep *sw)
{
	return sw->opt.max_bytes / (sw_warm_working(sw) ? META_SHARE_WARM : 2);
}

/* Whether the metadata side is over its line: names of directories are
 * then set aside (see pick_node). */
bool sw_meta_short(const struct sweep *sw)
{
	return sw_meta_mem(&sw->mem) > sw_meta_line(sw);
}

/* Sets directory node n aside while sw_meta_short(); false where it is to be
 * served now. */
bool sw_defer_dir(struct sweep *sw, struct sw_node *n)
{
	if (n->type != DT_DIR || !sw_meta_short(sw) || sw_heap_push(&sw->deferred, n->ino, n) < 0)
		return false;
	sw->stats.dirs_deferred++;
	return true;
}
