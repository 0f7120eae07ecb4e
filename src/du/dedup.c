/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dedup.c: which name of a file with several names GNU du counts.
 *
 * GNU du counts a hard-linked file (with several arguments or -L: any file
 * or directory) at the first name its depth-first walk meets, and skips the
 * others, a skipped directory with all it holds. Which name comes first
 * depends on the order of each directory's entries, not on their names, so
 * it cannot be known from the disk-order walk alone. Only the directories
 * above two names of one file matter: those are marked N_ORDER, their order
 * is read again (reread.c), and GNU du's walk is replayed over them.
 */
#include <stdlib.h>
#include "du.h"

/* Whether node i shares its (dev, ino) with another node. */
static bool has_twin(struct du_tree *t, uint32_t i)
{
	const struct du_ident *id = tree_ident(t, i);
	if (!(tree_node(t, i)->flags & N_CAND) || !id)
		return false;
	uint64_t *first = keymap_get(&t->seen, id->dev, id->ino);
	return first && (*first != i || id->next_same != NO_NODE);
}

static void mark_ancestors(struct du_tree *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		if (!has_twin(t, i))
			continue;
		for (uint32_t p = tree_node(t, i)->parent; p != NO_NODE; p = tree_node(t, p)->parent) {
			if (tree_node(t, p)->flags & N_ORDER)
				break;
			tree_node(t, p)->flags |= N_ORDER;
		}
	}
}

/* Move the contents of the directory an alias stands for under the alias:
 * GNU du reads them there, since it meets the alias first. */
static void adopt(struct du_tree *t, uint32_t alias)
{
	struct du_node *a = tree_node(t, alias);
	struct du_node *target = tree_node(t, tree_ident(t, alias)->alias_of);
	a->first_child = target->first_child;
	a->flags |= target->flags & N_ORDER;
	target->first_child = NO_NODE;
	for (uint32_t c = a->first_child; c != NO_NODE; c = tree_node(t, c)->next_sibling)
		tree_node(t, c)->parent = alias;
}

/* GNU du's view of node i: counted (true) or a duplicate. */
static bool claim(struct du_tree *t, struct keymap *claimed, uint32_t i, int *err)
{
	struct du_node *n = tree_node(t, i);
	if (!has_twin(t, i))
		return true;
	const struct du_ident *id = tree_ident(t, i);
	if (keymap_get(claimed, id->dev, id->ino)) {
		n->flags |= N_SKIP;
		return false;
	}
	if (keymap_put(claimed, id->dev, id->ino, 1) < 0)
		*err = -1;
	if (n->flags & N_ALIAS)
		adopt(t, i);
	return true;
}

struct stack {
	uint32_t *v;
	size_t n, cap;
};

static int push(struct stack *s, uint32_t i)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		uint32_t *v = reallocarray(s->v, cap, sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = i;
	return 0;
}

static int by_position(const void *a, const void *b, void *arg)
{
	struct du_tree *t = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	/* reversed, since the stack pops the last one first; unknown ranks
	 * (UINT32_MAX, or none at all) go by name */
	uint32_t pi = t->pos ? t->pos[i] : UINT32_MAX, pj = t->pos ? t->pos[j] : UINT32_MAX;
	if (pi != pj)
		return pi < pj ? 1 : -1;
	return -tree_name_cmp(t, i, j);
}

/* Push the children of i so that they pop in GNU du's order. */
static int push_children(struct du_tree *t, struct stack *s, uint32_t i)
{
	size_t base = s->n;
	for (uint32_t c = tree_node(t, i)->first_child; c != NO_NODE; c = tree_node(t, c)->next_sibling)
		if (push(s, c) < 0)
			return -1;
	qsort_r(s->v + base, s->n - base, sizeof(*s->v), by_position, t);
	return 0;
}

int du_dedup(struct du *du)
{
	struct du_tree *t = &du->tree;
	if (!t->has_dups)
		return 0;
	mark_ancestors(t);
	du_reread(du);
	struct keymap claimed = KEYMAP_INIT;
	struct stack s = { 0 };
	int err = 0;
	for (uint32_t k = t->nroots; k-- > 0 && !err;)
		err = push(&s, t->roots[k]);
	while (s.n && !err) {
		uint32_t i = s.v[--s.n];
		if (claim(t, &claimed, i, &err) && (tree_node(t, i)->flags & N_ORDER))
			err = push_children(t, &s, i);
	}
	keymap_free(&claimed);
	free(s.v);
	return err;
}
