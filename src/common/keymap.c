/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keymap.c: open addressing with linear probing. Removal shifts the
 * following run back instead of leaving tombstones, so a map that sees many
 * insertions and removals (directories in flight) never degrades.
 */
#include <stdlib.h>
#include "keymap.h"

static size_t home(const struct keymap *m, uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 31;
	return (size_t)h & (m->cap - 1);
}

static struct keymap_slot *find(const struct keymap *m, uint64_t a, uint64_t b)
{
	for (size_t i = home(m, a, b);; i = (i + 1) & (m->cap - 1)) {
		struct keymap_slot *s = &m->slots[i];
		if (!s->used || (s->a == a && s->b == b))
			return s;
	}
}

uint64_t *keymap_get(const struct keymap *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return NULL;
	struct keymap_slot *s = find(m, a, b);
	return s->used ? &s->value : NULL;
}

static int grow(struct keymap *m)
{
	struct keymap bigger = { NULL, 0, m->cap ? m->cap * 2 : 64 };
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			*find(&bigger, m->slots[i].a, m->slots[i].b) = m->slots[i];
	free(m->slots);
	m->slots = bigger.slots;
	m->cap = bigger.cap;
	return 0;
}

int keymap_put(struct keymap *m, uint64_t a, uint64_t b, uint64_t value)
{
	if ((m->n + 1) * 4 > m->cap * 3 && grow(m) < 0)
		return -1;
	struct keymap_slot *s = find(m, a, b);
	if (!s->used)
		m->n++;
	*s = (struct keymap_slot){ a, b, value, true };
	return 0;
}

void keymap_del(struct keymap *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return;
	struct keymap_slot *s = find(m, a, b);
	if (!s->used)
		return;
	size_t mask = m->cap - 1, hole = (size_t)(s - m->slots);
	for (size_t i = (hole + 1) & mask; m->slots[i].used; i = (i + 1) & mask) {
		size_t h = home(m, m->slots[i].a, m->slots[i].b);
		/* move i into the hole unless its home lies cyclically in (hole, i] */
		if (((i - h) & mask) >= ((i - hole) & mask)) {
			m->slots[hole] = m->slots[i];
			hole = i;
		}
	}
	m->slots[hole].used = false;
	m->n--;
}

void keymap_free(struct keymap *m)
{
	free(m->slots);
	*m = (struct keymap)KEYMAP_INIT;
}

static void hash_more(const char *p, uint64_t *a, uint64_t *b)
{
	for (;; p++) { /* the NUL too: "ab" "c" is not "a" "bc" */
		*a = (*a ^ (unsigned char)*p) * 1099511628211u;
		*b = *b * 33 + (unsigned char)*p;
		if (!*p)
			return;
	}
}

void keymap_str_key(const char *s1, const char *s2, uint64_t *a, uint64_t *b)
{
	*a = 14695981039346656037u;
	*b = 5381;
	hash_more(s1, a, b);
	hash_more(s2, a, b);
}
