/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.c: the node array, its name storage, and linking children in name
 * order once the walk is over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tree.h"

#define CHUNK_SIZE (64u << 10)
#define TIME_T_MIN (sizeof(time_t) == 8 ? (time_t)INT64_MIN : (time_t)INT32_MIN)

/* Names are packed into large chunks: one allocation per 64 KiB, not one
 * per file. */
struct name_chunk {
	struct name_chunk *next;
	size_t used, size;
	char data[];
};

static const char *name_copy(struct du_tree *t, const char *name)
{
	size_t len = strlen(name) + 1;
	struct name_chunk *c = t->names;
	if (!c || c->size - c->used < len) {
		size_t size = len > CHUNK_SIZE ? len : CHUNK_SIZE;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = t->names;
		c->used = 0;
		c->size = size;
		t->names = c;
	}
	char *p = c->data + c->used;
	memcpy(p, name, len);
	c->used += len;
	return p;
}

/* v (of *cap elements of size bytes) with room for element n: itself, or
 * reallocated to twice its size (first when empty), within 32-bit
 * indexes, *cap updated; NULL (ENOMEM) with v left as it was. */
static void *room_for(void *v, uint32_t n, uint32_t *cap, size_t size, uint32_t first)
{
	if (n < *cap)
		return v;
	if (*cap >= NO_NODE / 2) {
		errno = ENOMEM;
		return NULL;
	}
	uint32_t c = *cap ? *cap * 2 : first;
	void *nv = reallocarray(v, c, size);
	if (nv)
		*cap = c;
	return nv;
}

/* Room for one more node, and its time with --time. */
static int grow(struct du_tree *t)
{
	uint32_t cap = t->cap;
	if (t->keep_times) {
		struct timespec *tv = room_for(t->times, t->n, &cap, sizeof(*tv), 1024);
		if (!tv)
			return -1;
		t->times = tv;
	}
	struct du_node *v = room_for(t->v, t->n, &t->cap, sizeof(*v), 1024);
	if (!v)
		return -1;
	t->v = v;
	return 0;
}

static int add_root(struct du_tree *t, uint32_t i)
{
	uint32_t *v = room_for(t->roots, t->nroots, &t->caproots, sizeof(*v), 16);
	if (!v)
		return -1;
	t->roots = v;
	t->roots[t->nroots++] = i;
	return 0;
}

uint32_t tree_add(struct du_tree *t, uint32_t parent, const char *name, unsigned flags)
{
	if (grow(t) < 0)
		return NO_NODE;
	const char *copy = name ? name_copy(t, name) : NULL;
	if (name && !copy)
		return NO_NODE;
	uint32_t i = t->n;
	if (parent == NO_NODE && add_root(t, i) < 0)
		return NO_NODE;
	t->v[i] = (struct du_node){
		.name = copy,
		.parent = parent,
		.first_child = NO_NODE,
		.next_sibling = NO_NODE,
		.ident = NO_NODE,
		.flags = flags,
	};
	if (t->keep_times) /* older than any time, until something is charged */
		t->times[i] = (struct timespec){ TIME_T_MIN, 0 };
	t->n++;
	return i;
}

int tree_identify(struct du_tree *t, uint32_t i, uint64_t dev, uint64_t ino)
{
	struct du_ident *v = room_for(t->idents, t->nidents, &t->capidents, sizeof(*v), 256);
	if (!v)
		return -1;
	t->idents = v;
	t->idents[t->nidents] = (struct du_ident){ dev, ino, NO_NODE, NO_NODE };
	t->v[i].ident = t->nidents++;
	return 0;
}

uint32_t tree_same(struct du_tree *t, uint32_t i, int *err)
{
	struct du_ident *id = tree_ident(t, i);
	uint64_t *first = keymap_get(&t->seen, id->dev, id->ino);
	*err = 0;
	if (!first) {
		if (keymap_put(&t->seen, id->dev, id->ino, i) < 0)
			*err = -1;
		return NO_NODE;
	}
	/* chain after the first node: order within a chain does not matter */
	struct du_ident *head = tree_ident(t, (uint32_t)*first);
	id->next_same = head->next_same;
	head->next_same = i;
	t->has_dups = true;
	return (uint32_t)*first;
}

int tree_dir_put(struct du_tree *t, uint64_t dir_id, uint32_t i)
{
	if (dir_id >= t->capdirs) {
		if (dir_id >= SIZE_MAX / 2 / sizeof(*t->dir_nodes)) {
			errno = ENOMEM;
			return -1;
		}
		size_t cap = t->capdirs ? t->capdirs : 1024;
		while (cap <= dir_id)
			cap *= 2;
		uint32_t *v = reallocarray(t->dir_nodes, cap, sizeof(*v));
		if (!v)
			return -1;
		memset(v + t->capdirs, 0xff, (cap - t->capdirs) * sizeof(*v)); /* NO_NODE */
		t->dir_nodes = v;
		t->capdirs = cap;
	}
	t->dir_nodes[dir_id] = i;
	return 0;
}

int tree_name_cmp(const struct du_tree *t, uint32_t i, uint32_t j)
{
	const char *x = t->v[i].name, *y = t->v[j].name;
	if (x && y)
		return strcmp(x, y);
	if (x || y)
		return x ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int by_parent_name(const void *a, const void *b, void *arg)
{
	const struct du_tree *t = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	if (t->v[i].parent != t->v[j].parent)
		return t->v[i].parent < t->v[j].parent ? -1 : 1;
	return tree_name_cmp(t, i, j);
}

int tree_link(struct du_tree *t)
{
	uint32_t *order = malloc((size_t)t->n * sizeof(*order) + 1);
	if (!order)
		return -1;
	uint32_t m = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		t->v[i].first_child = t->v[i].next_sibling = NO_NODE;
		if (t->v[i].parent != NO_NODE)
			order[m++] = i;
	}
	qsort_r(order, m, sizeof(*order), by_parent_name, t);
	/* link backwards so that each list comes out in sorted order */
	for (uint32_t k = m; k-- > 0;) {
		struct du_node *c = &t->v[order[k]];
		c->next_sibling = t->v[c->parent].first_child;
		t->v[c->parent].first_child = order[k];
	}
	free(order);
	return 0;
}

void tree_free(struct du_tree *t)
{
	while (t->names) {
		struct name_chunk *next = t->names->next;
		free(t->names);
		t->names = next;
	}
	free(t->v);
	free(t->times);
	free(t->idents);
	free(t->pos);
	free(t->roots);
	free(t->dir_nodes);
	keymap_free(&t->seen);
	memset(t, 0, sizeof(*t));
}
