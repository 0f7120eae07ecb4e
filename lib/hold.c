/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hold.c: names served straight from the helper threads' tasks.
 *
 * Where misses are cheap, the helper threads (warm.c) stat a directory's
 * names while the walk goes on. Queued at once, those names are served at
 * once too: they lie next to their directory in inode order, so the walk
 * meets them before the threads do and does the cold lookups itself, one at
 * a time, which is most of a cold walk's time. So a
 * directory's names are held back, in the order their directories were read,
 * until the task that stats them is done; meanwhile the walk serves what is
 * ready and reads further directories, and waits only when nothing else is
 * left. On a device where misses are cheap, that order costs nothing.
 *
 * A held name lives only in the task (the walk gives it every name of the
 * directory, in order), and is served from there: it needs no node, and no
 * place in the elevator, which cost the walk's thread much of its CPU in a
 * cold walk (malloc, free and the heap, for every name). The names of a
 * directory the threads read and stat-ed on their own (stash.c) are served
 * the same way, at once. A name the threads could not stat is stat-ed by the
 * walk as it is served. Each batch holds a reference on its directory, whose
 * descriptor its names are served relative to, until its last name is
 * released.
 */
#include <dirent.h>
#include <stdlib.h>
#include "internal.h"

struct hold_batch {
	struct hold_batch *next;
	struct sw_dir *dir;
	struct warm_ticket *ticket; /* done once the threads ran the task, or NULL */
	struct warm_task *task;     /* a stashed one; else the ticket's, once done */
	size_t pos;                 /* the next name to serve */
	size_t bytes;               /* counted in sw->mem.held */
};

static struct hold_batch *batch_new(struct sweep *sw, struct sw_dir *d,
                                    struct hold_batch **head, struct hold_batch **tail)
{
	struct hold_batch *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->dir = d;
	d->refs++;
	if (*tail)
		(*tail)->next = b;
	else
		*head = b;
	*tail = b;
	sw_mem_charge(&sw->mem, sizeof(*b), false);
	b->bytes = sizeof(*b);
	return b;
}

/* Starts holding the names of directory d, being read, until ticket is
 * done; NULL (nothing held) without memory for it. */
struct hold_batch *sw_hold_begin(struct sweep *sw, struct sw_dir *d, struct warm_ticket *ticket)
{
	struct hold_batch *b = batch_new(sw, d, &sw->hold.held, &sw->hold.held_tail);
	if (b)
		b->ticket = sw_warm_ticket_get(ticket);
	return b;
}

static void count_bytes(struct sweep *sw, struct hold_batch *b, size_t bytes)
{
	b->bytes += bytes;
	sw_mem_charge(&sw->mem, bytes, false);
}

/* Counts a name the walk gave b's task: the threads keep it, and its stat. */
void sw_hold_name(struct sweep *sw, struct hold_batch *b, size_t namelen)
{
	count_bytes(sw, b, sw_warm_name_bytes() + namelen + 1);
}

/* Serves the names of directory d from t, a task the threads ran on their
 * own (the caller's now); false without memory for it (t is left alone). */
bool sw_hold_stashed(struct sweep *sw, struct sw_dir *d, struct warm_task *t)
{
	struct hold_batch *b = batch_new(sw, d, &sw->hold.ready, &sw->hold.ready_tail);
	if (!b)
		return false;
	b->task = t;
	count_bytes(sw, b, sw_warm_task_bytes(t));
	return true;
}

/* Whether names are held or ready. */
bool sw_hold_any(const struct sw_hold *h)
{
	return h->ready || h->held;
}

/* The first batch with names to serve now (with wait, once the first held
 * one's are), or NULL. */
static struct hold_batch *first_ready(struct sweep *sw, bool wait)
{
	if (sw->hold.ready)
		return sw->hold.ready;
	struct hold_batch *b = sw->hold.held;
	if (!b)
		return NULL;
	if (wait)
		sw_pool_wait(sw->warm, b->ticket);
	else if (!sw_warm_ticket_done(b->ticket))
		return NULL;
	if (!b->task)
		b->task = sw_warm_ticket_task(b->ticket);
	return b;
}

/* Takes b, the first batch of its list, out of it. */
static void unlink_first(struct sw_hold *h, struct hold_batch *b)
{
	bool ready = b == h->ready;
	struct hold_batch **head = ready ? &h->ready : &h->held;
	*head = b->next;
	if (!*head)
		*(ready ? &h->ready_tail : &h->held_tail) = NULL;
	b->next = NULL;
}

/* Sets name v aside as a node while memory is short, as pick_node() would
 * (walk.c); false where it is to be served now. */
static bool set_aside(struct sweep *sw, const struct sw_name *v)
{
	if (v->type != DT_DIR || !sw_meta_short(sw)) /* no node made for nothing */
		return false;
	struct sw_node *n = sw_node_new(sw, v->parent, v->ino, v->type, v->name, v->namelen, v->st);
	if (!n)
		return false;
	if (!sw_defer_dir(sw, n)) {
		sw_node_release(sw, n);
		return false;
	}
	return true;
}

/* Serves the next ready name, with wait once the helpers are done with one
 * if none is. *served: whether there was one; the entry is NULL where it
 * gave none (see sw_serve_name) and the walk should go on. */
const struct sweep_entry *sw_hold_serve(struct sweep *sw, bool wait, bool *served)
{
	struct hold_batch *b = first_ready(sw, wait);
	*served = b != NULL;
	if (!b)
		return NULL;
	size_t n = sw_warm_task_len(b->task);
	if (b->pos == n) { /* an empty directory */
		unlink_first(&sw->hold, b);
		sw_hold_batch_free(sw, b);
		return NULL;
	}
	struct sw_name v = { .parent = b->dir, .basefd = -1 };
	v.name = sw_warm_task_name(b->task, b->pos++, &v.namelen, &v.ino, &v.type, &v.st);
	bool last = b->pos == n;
	if (last)
		unlink_first(&sw->hold, b);
	const struct sweep_entry *e = set_aside(sw, &v) ? NULL : sw_serve_name(sw, &v);
	if (last && e)
		sw->rel.done_batch = b; /* e is served relative to b->dir */
	else if (last)
		sw_hold_batch_free(sw, b);
	return e;
}

/* Frees b, out of its list, with its task, and drops its reference on
 * its directory. */
void sw_hold_batch_free(struct sweep *sw, struct hold_batch *b)
{
	if (b->ticket)
		sw_warm_ticket_put(b->ticket); /* and its task with it */
	else
		sw_warm_task_drop(b->task);
	sw_mem_uncharge(&sw->mem, b->bytes, false);
	sw_dir_unref(sw, b->dir);
	free(b);
}

/* Frees what is held (the end of the walk). */
void sw_hold_free(struct sweep *sw)
{
	struct hold_batch **lists[] = { &sw->hold.ready, &sw->hold.held };
	for (size_t i = 0; i < 2; i++) {
		while (*lists[i]) {
			struct hold_batch *b = *lists[i];
			*lists[i] = b->next;
			sw_hold_batch_free(sw, b);
		}
	}
	sw->hold.ready_tail = sw->hold.held_tail = NULL;
}
