/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.h: what sweep-du remembers of a walk.
 *
 * The walk comes in inode order, so nothing can be printed until it ends.
 * Every directory down to the depth printed gets a node (below it, only
 * one that may be counted twice, or every one under -S: the others count
 * in the node above, walk.c); a non-directory gets one only when it is a
 * root or may be a second name of something already counted (a hard link,
 * or anything when every file is hashed); every other file just adds its
 * size to its directory's node, and with -a leaves its line apart, in
 * bounded memory (leaves.h). Nodes live in one array and refer to each
 * other by index; their names are packed in large chunks.
 *
 * A node below the depth printed (-s, --max-depth) keeps no name: on a
 * deep tree of a million entries, nodes and names were most of what
 * sweep-du held. Nothing below that depth is printed, and which of two
 * names of a file GNU du counts (dedup.c) shows only where the two part
 * under a printed directory, whose children are named (under -S, their
 * children too: a printed line holds its own files, not its
 * subdirectories').
 *
 * A node holds only what every node needs: 40 bytes (from 88 when it held
 * everything), the size sweep-du's memory grows with, by directories and
 * hard links. The rest lives beside it where
 * it is wanted: the identity (device, inode, twins) only of directories
 * and of files that may be counted twice (struct du_ident), times only
 * with --time, and GNU du's walk order only after the walk, for the
 * directories where it decides which twin counts (dedup.c, reread.c).
 */
#ifndef SWEEP_DU_TREE_H
#define SWEEP_DU_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include "keymap.h"

#define NO_NODE UINT32_MAX

/* node flags */
#define N_DIR   0x01u /* a directory */
#define N_CAND  0x02u /* counted once per (dev, ino): may be a duplicate */
#define N_ALIAS 0x04u /* a directory seen before: not read, shares alias_of's contents */
#define N_SKIP  0x08u /* a duplicate: neither counted nor printed */
#define N_ORDER 0x10u /* its children's order decides which duplicate counts */
#define N_GONE  0x20u /* a directory no longer at its path when its walk ended */

struct du_node {
	const char *name;     /* the root as given, or the last component;
	                         NULL below the depth printed (walk.c's
	                         keeps_name()) */
	uint64_t bytes;       /* its own size plus that of files without a node */
	uint32_t inodes;      /* likewise, counting entries (one directory's
	                         entries fit: no file system holds 2^32) */
	uint32_t parent, first_child, next_sibling;
	uint32_t ident;       /* its identity in du_tree.idents, or NO_NODE */
	unsigned flags;
};

/* What a directory, or a file that may be counted twice, is. */
struct du_ident {
	uint64_t dev, ino;
	uint32_t next_same;   /* next node with the same (dev, ino) */
	uint32_t alias_of;    /* N_ALIAS: the directory it duplicates */
};

struct name_chunk;

struct du_tree {
	struct du_node *v;
	uint32_t n, cap;
	bool keep_times;        /* --time: set before the first tree_add() */
	struct timespec *times; /* then, beside v: the newest time of what
	                           each node holds */
	struct du_ident *idents;
	uint32_t nidents, capidents;
	uint32_t *pos;          /* after the walk, where GNU du's order matters
	                           (reread.c): each node's rank among its
	                           siblings, UINT32_MAX where unknown */
	uint32_t *roots;        /* root nodes in the order given */
	uint32_t nroots, caproots;
	uint32_t *dir_nodes;    /* libsweep directory id -> node (NO_NODE for
	                           none): the ids count up from 1 */
	size_t capdirs;
	struct keymap seen;     /* (dev, ino) -> first node with it */
	bool has_dups;          /* some (dev, ino) has two nodes */
	struct name_chunk *names;
};

/* A new node under parent (NO_NODE for a root) named name (NULL: none
 * yet); NO_NODE when memory ran out. The pointer returned by tree_node()
 * may move then. */
uint32_t tree_add(struct du_tree *t, uint32_t parent, const char *name, unsigned flags);

/* The node of libsweep's directory dir_id, or NO_NODE. */
static inline uint32_t tree_dir_node(const struct du_tree *t, uint64_t dir_id)
{
	return dir_id < t->capdirs ? t->dir_nodes[dir_id] : NO_NODE;
}

/* Remember node i as that of libsweep's directory dir_id. Returns 0, or
 * -1 (ENOMEM). */
int tree_dir_put(struct du_tree *t, uint64_t dir_id, uint32_t i);

/* Order of two siblings' names: named ones by name, before the nameless,
 * which go by node number. */
int tree_name_cmp(const struct du_tree *t, uint32_t i, uint32_t j);

static inline struct du_node *tree_node(struct du_tree *t, uint32_t i)
{
	return &t->v[i];
}

/* Node i's identity, or NULL when it has none. */
static inline struct du_ident *tree_ident(struct du_tree *t, uint32_t i)
{
	uint32_t k = t->v[i].ident;
	return k == NO_NODE ? NULL : &t->idents[k];
}

/* Give node i its identity (dev, ino). Returns 0, or -1 (ENOMEM). */
int tree_identify(struct du_tree *t, uint32_t i, uint64_t dev, uint64_t ino);

/* Note that node i, identified, is to be counted once: chain it to earlier
 * nodes with its (dev, ino). Returns the first such node, or NO_NODE for
 * the first one; -1 as *err on memory exhaustion. */
uint32_t tree_same(struct du_tree *t, uint32_t i, int *err);

/* Link every node into its parent's child list, siblings sorted by name.
 * Returns 0, or -1 (ENOMEM). */
int tree_link(struct du_tree *t);

void tree_free(struct du_tree *t);

#endif
