/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * links.c: names of multiply-linked files already handed out.
 *
 * Keyed by (st_dev, st_ino); only files with st_nlink > 1 come here, so the
 * table grows with the number of hard-linked inodes, not with the tree.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct sw_link {
	dev_t dev;
	ino_t ino;
	char *path; /* NULL: empty slot */
};

struct sw_links {
	struct sw_link *slots;
	size_t n, cap; /* cap is a power of two */
};

struct sw_links *sw_links_new(void)
{
	return calloc(1, sizeof(struct sw_links));
}

static size_t slot_of(const struct sw_links *l, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;
	h ^= h >> 29;
	return (size_t)h & (l->cap - 1);
}

static struct sw_link *find(struct sw_links *l, dev_t dev, ino_t ino)
{
	for (size_t i = slot_of(l, dev, ino);; i = (i + 1) & (l->cap - 1)) {
		struct sw_link *s = &l->slots[i];
		if (!s->path || (s->ino == ino && s->dev == dev))
			return s;
	}
}

static int rehash(struct sw_links *l)
{
	struct sw_links bigger = { .cap = l->cap ? l->cap * 2 : 1024 };
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < l->cap; i++)
		if (l->slots[i].path)
			*find(&bigger, l->slots[i].dev, l->slots[i].ino) = l->slots[i];
	free(l->slots);
	l->slots = bigger.slots;
	l->cap = bigger.cap;
	return 0;
}

/* The path under which st's inode was handed out before, or NULL. */
const char *sw_links_find(struct sw_links *l, const struct stat *st)
{
	return l->cap ? find(l, st->st_dev, st->st_ino)->path : NULL;
}

/* Remember path as the first name handed out of st's inode. Returns 0, or
 * -1 (ENOMEM: the caller says so, SWEEP_OP_NOMEM; later names of the file
 * come without link_first). */
int sw_links_add(struct sw_links *l, const struct stat *st, const char *path)
{
	if ((l->n + 1) * 4 > l->cap * 3 && rehash(l) < 0)
		return -1;
	struct sw_link *s = find(l, st->st_dev, st->st_ino);
	if (s->path)
		return 0;
	if (!(s->path = strdup(path)))
		return -1;
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	l->n++;
	return 0;
}

void sw_links_free(struct sw_links *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->cap; i++)
		free(l->slots[i].path);
	free(l->slots);
	free(l);
}
