/*
 * hold.c: names held back until the helper threads have stat-ed them.
 *
 * Where misses are cheap, the helper threads (warm.c) stat a directory's
 * names while the walk goes on. Queued at once, those names are served at
 * once too: they lie next to their directory in inode order, so the walk
 * meets them before the threads do and does the cold lookups itself, one at
 * a time (measured: 0.9 s of a 1.3 s cold du in the walk's own statx). So a
 * directory's names wait here, in the order their directories were read,
 * until the task that stats them is done; meanwhile the walk serves what is
 * ready and reads further directories, and waits only when nothing else is
 * left. On a device where misses are cheap, that order costs nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct hold_batch {
	struct warm_ticket *ticket;
	size_t count;            /* its names still held, from held_pos on */
	size_t released;         /* ... and released: the next one's index in
	                            the helpers' task */
};

/* Starts holding the names of the directory about to be read, until ticket
 * is done; false (nothing held) without memory for it. */
bool hold_begin(struct sweep *sw, struct warm_ticket *ticket)
{
	struct hold_batch *b = sw_grow(sw->batches, &sw->capbatches, sw->nbatches + 1,
	                               sizeof(*b));
	if (!b)
		return false;
	sw->batches = b;
	sw->batches[sw->nbatches++] = (struct hold_batch){ warm_ticket_get(ticket), 0, 0 };
	return true;
}

/* Holds n in the batch begun last. Returns -1 when memory ran out (n is
 * left to the caller). */
int hold_push(struct sweep *sw, struct sw_node *n)
{
	struct sw_node **v = sw_grow(sw->held, &sw->capheld, sw->nheld + 1, sizeof(*v));
	if (!v)
		return -1;
	sw->held = v;
	sw->held[sw->nheld++] = n;
	sw->batches[sw->nbatches - 1].count++;
	sw->mem += warm_name_bytes(); /* the helpers' stat of it, until released */
	return 0;
}

/* Whether names are held. */
bool hold_any(const struct sweep *sw)
{
	return sw->held_batch < sw->nbatches;
}

/* Drops what was released from the front of the vectors, once it is most. */
static void compact(struct sweep *sw)
{
	if (sw->held_batch == sw->nbatches) {
		sw->nbatches = sw->held_batch = sw->nheld = sw->held_pos = 0;
		return;
	}
	if (sw->held_pos > 4096 && sw->held_pos > sw->nheld / 2) {
		sw->nheld -= sw->held_pos;
		memmove(sw->held, sw->held + sw->held_pos, sw->nheld * sizeof(*sw->held));
		sw->held_pos = 0;
	}
	if (sw->held_batch > 1024 && sw->held_batch > sw->nbatches / 2) {
		sw->nbatches -= sw->held_batch;
		memmove(sw->batches, sw->batches + sw->held_batch,
		        sw->nbatches * sizeof(*sw->batches));
		sw->held_batch = 0;
	}
}

/* Moves the first batch's names to the queue, each with the stat the
 * helpers took of it. Names and the task's entries go in the same order
 * (a name that could not be held breaks it, and the inode check then leaves
 * the rest to the walk). Returns a name the queue had no memory for, to be
 * served at once, or NULL. */
static struct sw_node *release_first(struct sweep *sw)
{
	struct hold_batch *b = &sw->batches[sw->held_batch];
	while (b->count) {
		struct sw_node *n = sw->held[sw->held_pos++];
		b->count--;
		sw->mem -= warm_name_bytes();
		const struct stat *st = warm_ticket_stat(b->ticket, b->released++, n->ino);
		if (st)
			n = node_add_stat(sw, n, st);
		if (swq_push(&sw->q, n) < 0)
			return n;
	}
	warm_ticket_put(b->ticket);
	sw->held_batch++;
	compact(sw);
	return NULL;
}

/* Moves the batches whose names were stat-ed to the queue, in order; with
 * wait, first waits for the first batch's. Returns a name to serve at once
 * (see release_first), or NULL. */
struct sw_node *hold_release(struct sweep *sw, bool wait)
{
	if (wait && hold_any(sw))
		warm_ticket_wait(sw->warm, sw->batches[sw->held_batch].ticket);
	while (hold_any(sw) && warm_ticket_done(sw->batches[sw->held_batch].ticket)) {
		struct sw_node *n = release_first(sw);
		if (n)
			return n;
	}
	return NULL;
}

/* Frees what is held (the end of the walk). */
void hold_free(struct sweep *sw)
{
	for (; sw->held_batch < sw->nbatches; sw->held_batch++) {
		struct hold_batch *b = &sw->batches[sw->held_batch];
		for (; b->count; b->count--) {
			sw->mem -= warm_name_bytes();
			node_release(sw, sw->held[sw->held_pos++]);
		}
		warm_ticket_put(b->ticket);
	}
	free(sw->held);
	free(sw->batches);
}
