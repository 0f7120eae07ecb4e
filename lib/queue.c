/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * queue.c: elevators and the metadata queue.
 *
 * A C-SCAN elevator is two min-heaps of (key, pointer): keys at or above the
 * head are served in this sweep, keys below it after the wrap. A heap keeps
 * every entry, so equal keys (hard links, names pushed twice) are all served.
 * The metadata queue is such an elevator keyed by inode number, or a plain
 * stack for the depth-first orders (in C-SCAN walks too, for names whose
 * inodes are not to be read from the device: served first); directory
 * reads in block order use a second elevator keyed by the directory's
 * first physical byte.
 */
#include <stdlib.h>
#include "internal.h"

/* Room for need elements of size bytes: the array, moved if it had to grow
 * (to first elements at least), or NULL (the old array still valid) when
 * memory ran out. */
void *sw_grow_from(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap * 2 : first;
	while (ncap < need)
		ncap *= 2;
	void *np = reallocarray(p, ncap, size);
	if (np)
		*cap = ncap;
	return np;
}

void *sw_grow(void *p, size_t *cap, size_t need, size_t size)
{
	return sw_grow_from(p, cap, need, size, 256);
}

int sw_heap_push(struct sw_heap *h, uint64_t key, void *p)
{
	struct sw_slot *v = sw_grow(h->v, &h->cap, h->n + 1, sizeof(*v));
	if (!v)
		return -1;
	h->v = v;
	size_t i = h->n++;
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (v[up].key <= key)
			break;
		v[i] = v[up];
		i = up;
	}
	v[i] = (struct sw_slot){ key, p };
	return 0;
}

/* The smallest slot, removed; h must not be empty. The hole at the top
 * goes down to a leaf by the smaller child, one comparison a level, and
 * the last slot then rises from there (Floyd): it came from the bottom,
 * so it seldom rises far. Half the comparisons of sifting the last slot
 * down, and those are the walk's: a warm find of 1,000-name directories
 * spent an eighth of its time here. */
static struct sw_slot heap_take(struct sw_heap *h)
{
	struct sw_slot *v = h->v, top = v[0];
	size_t n = --h->n;
	if (n == 0)
		return top;
	struct sw_slot last = v[n];
	size_t i = 0, c;
	while ((c = 2 * i + 1) + 1 < n) {
		c += v[c + 1].key < v[c].key;
		v[i] = v[c];
		i = c;
	}
	if (c < n) { /* a last child without a sibling */
		v[i] = v[c];
		i = c;
	}
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (v[up].key <= last.key)
			break;
		v[i] = v[up];
		i = up;
	}
	v[i] = last;
	return top;
}

void *sw_heap_pop(struct sw_heap *h)
{
	return h->n ? heap_take(h).p : NULL;
}

int sw_cscan_push(struct sw_cscan *c, uint64_t key, void *p)
{
	return sw_heap_push(key >= c->head ? &c->cur : &c->next, key, p);
}

/* The entry with the smallest key >= head, else wrap to the smallest. */
void *sw_cscan_pop(struct sw_cscan *c)
{
	if (c->cur.n == 0) {
		if (c->next.n == 0)
			return NULL;
		struct sw_heap t = c->cur;
		c->cur = c->next;
		c->next = t;
		c->sweeps++;
	}
	struct sw_slot s = heap_take(&c->cur);
	c->head = s.key;
	return s.p;
}

size_t sw_cscan_len(const struct sw_cscan *c)
{
	return c->cur.n + c->next.n;
}

void sw_cscan_free(struct sw_cscan *c)
{
	free(c->cur.v);
	free(c->next.v);
	*c = (struct sw_cscan){0};
}

/* Onto the stack, even in a C-SCAN walk: a name whose inode the walk will
 * not read, or not from the device (readdir.c). The stack is served
 * first, last pushed first. */
int sw_queue_push_direct(struct sw_queue *q, struct sw_node *n)
{
	struct sw_node **v = sw_grow(q->stack, &q->capstack, q->nstack + 1, sizeof(*v));
	if (!v)
		return -1;
	q->stack = v;
	q->stack[q->nstack++] = n;
	return 0;
}

int sw_queue_push(struct sw_queue *q, struct sw_node *n)
{
	if (q->cscan)
		return sw_cscan_push(&q->el, n->ino, n);
	return sw_queue_push_direct(q, n);
}

struct sw_node *sw_queue_pop(struct sw_queue *q)
{
	if (q->nstack)
		return q->stack[--q->nstack];
	return q->cscan ? sw_cscan_pop(&q->el) : NULL;
}

size_t sw_queue_len(const struct sw_queue *q)
{
	return q->nstack + (q->cscan ? sw_cscan_len(&q->el) : 0);
}

void sw_queue_free(struct sw_queue *q)
{
	sw_cscan_free(&q->el);
	free(q->stack);
	*q = (struct sw_queue){0};
}
