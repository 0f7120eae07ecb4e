/*
 * readdir.c: reading a directory into the metadata queue.
 *
 * getdents64 with a large buffer gives names, inode numbers and types in one
 * call per buffer; nothing is stat-ed here. In inode order each name goes
 * straight into the elevator; in depth-first orders one directory's names are
 * gathered, sorted if asked, and stacked so that they pop in order.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct sw_node *node_new(struct sweep *sw, struct sw_dir *parent, ino_t ino,
                         unsigned char type, const char *name, size_t namelen)
{
	size_t size = sizeof(struct sw_node) + namelen + 1;
	struct sw_node *n = malloc(size);
	if (!n)
		return NULL;
	n->ino = ino;
	n->parent = parent;
	n->basefd = -1;
	n->type = type;
	n->root = false;
	n->namelen = namelen;
	memcpy(n->name, name, namelen + 1);
	if (parent)
		parent->refs++;
	sw->mem += size;
	return n;
}

void node_free(struct sweep *sw, struct sw_node *n)
{
	sw->mem -= sizeof(*n) + n->namelen + 1;
	free(n);
}

/* Free a node and drop its reference on its parent. */
void node_release(struct sweep *sw, struct sw_node *n)
{
	struct sw_dir *parent = n->parent;
	node_free(sw, n);
	dir_unref(sw, parent);
}

static int by_name(const void *a, const void *b)
{
	const struct sw_node *x = *(struct sw_node *const *)a;
	const struct sw_node *y = *(struct sw_node *const *)b;
	return strcmp(x->name, y->name);
}

/* Queue one name (or hold it for the helpers), or keep it aside for a
 * depth-first order. */
static int take_name(struct sweep *sw, struct sw_dir *d, const struct dirent64 *de,
                     bool holding)
{
	struct sw_node *n = node_new(sw, d, de->d_ino, de->d_type, de->d_name,
	                             strlen(de->d_name));
	if (!n)
		return ENOMEM;
	if (sw->q.cscan) {
		if ((holding && hold_push(sw, n) == 0) || swq_push(&sw->q, n) == 0)
			return 0;
	} else {
		struct sw_node **v = sw_grow(sw->tmp, &sw->captmp, sw->ntmp + 1, sizeof(*v));
		if (v) {
			sw->tmp = v;
			sw->tmp[sw->ntmp++] = n;
			return 0;
		}
	}
	d->refs--;
	node_free(sw, n);
	return ENOMEM;
}

/* Stack what take_name() kept aside, last first, so that it pops in order. */
static int stack_names(struct sweep *sw, struct sw_dir *d)
{
	int err = 0;
	if (sw->order == SWEEP_ORDER_NAME)
		qsort(sw->tmp, sw->ntmp, sizeof(*sw->tmp), by_name);
	while (sw->ntmp) {
		struct sw_node *n = sw->tmp[--sw->ntmp];
		if (swq_push(&sw->q, n) < 0) {
			err = ENOMEM;
			d->refs--;
			node_free(sw, n);
		}
	}
	return err;
}


/* Queue every name of d. Returns 0 or an errno; names read before a failure
 * stay queued, as GNU tools go on with what they could read. */
int read_dir(struct sweep *sw, struct sw_dir *d, bool near_last)
{
	int fd = dir_fd(sw, d);
	if (fd < 0)
		return errno;
	int err = 0;
	sw->ntmp = 0;
	struct warm_task *wt = warm_task_for(sw, fd, &d->st);
	struct warm_ticket *ticket = wt && sw->q.cscan ? warm_task_ticket(wt) : NULL;
	bool holding = ticket && hold_begin(sw, ticket);
	for (bool first = true; !err; first = false) {
		uint64_t start = first ? now_ns() : 0;
		ssize_t len = getdents64(fd, sw->dentbuf, sw->dentcap);
		if (first)
			note_dir_read(sw, now_ns() - start, len, near_last);
		if (len <= 0) {
			err = len < 0 ? errno : 0;
			break;
		}
		for (ssize_t off = 0; off < len && !err;) {
			const struct dirent64 *de = (const void *)(sw->dentbuf + off);
			off += de->d_reclen;
			if (is_dot(de->d_name))
				continue;
			err = take_name(sw, d, de, holding);
			if (wt && !warm_task_add(wt, de->d_type, de->d_name, strlen(de->d_name))) {
				warm_task_drop(wt);
				wt = NULL;
			}
		}
	}
	if (wt)
		warm_submit(sw->warm, wt);
	int serr = stack_names(sw, d);
	return err ? err : serr;
}
