/*
 * queue.c: the metadata queue.
 *
 * In inode order it is a C-SCAN elevator: two min-heaps, one for inodes at or
 * above the head (served in this sweep) and one for inodes below it (served
 * after the wrap). A heap keeps every entry, so equal keys (hard links, names
 * pushed twice) are all served. In depth-first orders it is a plain stack.
 */
#include <stdlib.h>
#include "internal.h"

/* Room for need elements of size bytes: the array, moved if it had to grow,
 * or NULL (the old array still valid) when memory ran out. */
void *sw_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap * 2 : 256;
	while (ncap < need)
		ncap *= 2;
	void *np = reallocarray(p, ncap, size);
	if (np)
		*cap = ncap;
	return np;
}

int heap_push(struct sw_heap *h, struct sw_node *n)
{
	struct sw_node **v = sw_grow(h->v, &h->cap, h->n + 1, sizeof(*v));
	if (!v)
		return -1;
	h->v = v;
	size_t i = h->n++;
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (h->v[up]->ino <= n->ino)
			break;
		h->v[i] = h->v[up];
		i = up;
	}
	h->v[i] = n;
	return 0;
}

struct sw_node *heap_pop(struct sw_heap *h)
{
	if (h->n == 0)
		return NULL;
	struct sw_node *top = h->v[0];
	struct sw_node *last = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1]->ino < h->v[c]->ino)
			c++;
		if (last->ino <= h->v[c]->ino)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

int swq_push(struct sw_queue *q, struct sw_node *n)
{
	if (!q->cscan) {
		struct sw_node **v = sw_grow(q->stack, &q->capstack, q->nstack + 1,
		                             sizeof(*v));
		if (!v)
			return -1;
		q->stack = v;
		q->stack[q->nstack++] = n;
		return 0;
	}
	return heap_push(n->ino >= q->head ? &q->cur : &q->next, n);
}

/* The next node: the smallest inode >= head, else wrap to the smallest. */
struct sw_node *swq_pop(struct sw_queue *q)
{
	if (!q->cscan)
		return q->nstack ? q->stack[--q->nstack] : NULL;
	if (q->cur.n == 0) {
		if (q->next.n == 0)
			return NULL;
		struct sw_heap t = q->cur;
		q->cur = q->next;
		q->next = t;
		q->sweeps++;
	}
	struct sw_node *n = heap_pop(&q->cur);
	q->head = n->ino;
	return n;
}

size_t swq_len(const struct sw_queue *q)
{
	return q->cscan ? q->cur.n + q->next.n : q->nstack;
}

void swq_free(struct sw_queue *q)
{
	free(q->cur.v);
	free(q->next.v);
	free(q->stack);
	*q = (struct sw_queue){0};
}
