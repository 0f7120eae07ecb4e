/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.h: what sweep-du remembers of a walk.
 *
 * The walk comes in inode order, so nothing can be printed until it ends.
 * Every directory gets a node; a non-directory gets one only when it may be
 * printed (-a, a root) or may be a second name of something already counted
 * (a hard link, or anything when every file is hashed); every other file
 * just adds its size to its directory's node. Nodes live in one array and
 * refer to each other by index.
 */
#ifndef SWEEP_DU_TREE_H
#define SWEEP_DU_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include "keymap.h"

#define NO_NODE UINT32_MAX

/* node flags */
#define N_DIR   0x01u /* a directory */
#define N_CAND  0x02u /* counted once per (dev, ino): may be a duplicate */
#define N_ALIAS 0x04u /* a directory seen before: not read, shares alias_of's contents */
#define N_SKIP  0x08u /* a duplicate: neither counted nor printed */
#define N_ORDER 0x10u /* its children's order decides which duplicate counts */

struct du_node {
	const char *name;     /* the root as given, or the last component */
	uint64_t bytes;       /* its own size plus that of files without a node */
	uint64_t inodes;      /* likewise, counting entries */
	struct timespec time; /* the newest of those */
	uint64_t dev, ino;
	uint32_t parent, first_child, next_sibling;
	uint32_t next_same;   /* next node with the same (dev, ino) */
	uint32_t alias_of;    /* N_ALIAS: the directory it duplicates */
	uint32_t pos;         /* rank among its siblings in the order GNU du walks */
	uint32_t depth;
	unsigned flags;
};

struct name_chunk;

struct du_tree {
	struct du_node *v;
	uint32_t n, cap;
	uint32_t *roots;        /* root nodes in the order given */
	uint32_t nroots, caproots;
	struct keymap dirs;     /* libsweep directory id -> node */
	struct keymap seen;     /* (dev, ino) -> first node with it */
	bool has_dups;          /* some (dev, ino) has two nodes */
	struct name_chunk *names;
};

/* A new node under parent (NO_NODE for a root) named name; NO_NODE when
 * memory ran out. The pointer returned by tree_node() may move then. */
uint32_t tree_add(struct du_tree *t, uint32_t parent, const char *name, unsigned flags);

static inline struct du_node *tree_node(struct du_tree *t, uint32_t i)
{
	return &t->v[i];
}

/* Note that node i is (dev, ino); chain it to earlier nodes with the same
 * key. Returns the first such node, or NO_NODE for the first one; -1 as
 * *err on memory exhaustion. */
uint32_t tree_same(struct du_tree *t, uint32_t i, int *err);

/* Link every node into its parent's child list, siblings sorted by name.
 * Returns 0, or -1 (ENOMEM). */
int tree_link(struct du_tree *t);

void tree_free(struct du_tree *t);

#endif
