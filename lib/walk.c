/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.c: the walk handle and its main loop.
 *
 * sweep_next() is a small scheduler. In priority order it hands out: the
 * post-order entries of directories just completed; the next file of a
 * running flush; a new flush when the data queue is over its bound or the
 * metadata queue ran dry; the next name of the metadata queue; the next root.
 * Whatever the previous entry held (a descriptor, a queue slot, a reference
 * on its parent) is released at the start of the next call, so the caller may
 * use the entry until then.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

#define DENT_BUFSIZE (64u << 10) /* getdents64 buffer */
#define UNPLACED_DIR     (1ull << 63) /* dirq keys of directories without FIEMAP */

static const char *const order_names[] = {
	[SWEEP_ORDER_AUTO] = "auto",   [SWEEP_ORDER_DISK] = "disk",
	[SWEEP_ORDER_INODE] = "inode", [SWEEP_ORDER_NAME] = "name",
	[SWEEP_ORDER_NONE] = "none",   [SWEEP_ORDER_BLOCK] = "block",
};
#define NORDERS (sizeof(order_names) / sizeof(order_names[0]))

const char *sweep_order_name(enum sweep_order order)
{
	return (unsigned)order < NORDERS ? order_names[order] : NULL;
}

int sweep_order_parse(const char *name)
{
	for (size_t i = 0; i < NORDERS; i++)
		if (strcmp(name, order_names[i]) == 0)
			return (int)i;
	return -1;
}

static bool valid_options(const struct sweep_options *o)
{
	return (unsigned)o->order < NORDERS && (unsigned)o->follow <= SWEEP_FOLLOW_ALL &&
	       (unsigned)o->dir_order <= SWEEP_DIRS_BLOCK && (unsigned)o->warm <= SWEEP_WARM_ON &&
	       !(o->flags & ~SWEEP_FLAGS_ALL) &&
	       (!(o->flags & SWEEP_NOSTAT) || (o->flags & SWEEP_NODATA)) &&
	       (!(o->flags & SWEEP_STAT_AHEAD) || (o->flags & SWEEP_NOSTAT));
}

/* Flushes that the kernel's caches can hold (memavail.c): a quarter of
 * what is available for what the queued files leave there, and an eighth
 * for what is announced ahead. */
static void fit_to_memory(struct sweep *sw)
{
	uint64_t avail = sw_mem_available();
	if (avail == UINT64_MAX)
		return;
	uint64_t files = avail / 4 / KERNEL_BYTES_PER_FILE;
	files = files > FLUSH_FILES_MIN ? files : FLUSH_FILES_MIN;
	if (files < sw->opt.max_entries)
		sw->opt.max_entries = (size_t)files;
	uint64_t ahead = avail / 8 > RA_BUDGET_MIN ? avail / 8 : RA_BUDGET_MIN;
	if (ahead < sw->opt.readahead)
		sw->opt.readahead = (size_t)ahead;
}

struct sweep *sweep_open(const char *const *roots, const struct sweep_options *opt)
{
	static const struct sweep_options defaults;
	if (!opt)
		opt = &defaults;
	if (!valid_options(opt)) {
		errno = EINVAL;
		return NULL;
	}
	struct sweep *sw = calloc(1, sizeof(*sw));
	if (!sw)
		return NULL;
	sw->opt = *opt;
	if (!sw->opt.max_entries)
		sw->opt.max_entries = SWEEP_DEFAULT_MAX_ENTRIES;
	if (!sw->opt.max_bytes)
		sw->opt.max_bytes = SWEEP_DEFAULT_MAX_BYTES;
	if (!sw->opt.readahead)
		sw->opt.readahead = SWEEP_DEFAULT_READAHEAD;
	fit_to_memory(sw);
	sw->dq.ra_budget = sw->opt.readahead;
	sw_limits_fds(sw);
	sw->euid = geteuid();
	sw->ent.fd = -1;
	sw->dentcap = DENT_BUFSIZE;
	sw->dentbuf = malloc(sw->dentcap);
	sw->links = sw_links_new();
	if (!sw->dentbuf || !sw->links)
		goto fail;
	for (size_t i = 0; roots && roots[i]; i++)
		if (sweep_add_root(sw, AT_FDCWD, roots[i]) < 0)
			goto fail;
	return sw;
fail:
	sweep_close(sw);
	errno = ENOMEM;
	return NULL;
}

int sweep_add_root(struct sweep *sw, int dirfd, const char *path)
{
	if (!sw || !path) {
		errno = EINVAL;
		return -1;
	}
	struct sw_root *v = sw_grow(sw->roots, &sw->caproots, sw->nroots + 1, sizeof(*v));
	if (!v)
		return -1;
	sw->roots = v;
	char *copy = strdup(path);
	if (!copy)
		return -1;
	sw->roots[sw->nroots++] = (struct sw_root){ .basefd = dirfd, .path = copy };
	return 0;
}

/* Choose the order for root r (AUTO: by its file system) and the read-ahead
 * depth (by its device: depth matters most where seeks are free). */
static void choose_policy(struct sweep *sw, const struct sw_root *r)
{
	enum sweep_order order = sw->opt.order;
	int rotational = -1;
	dev_t dev = 0;
	int flags = O_PATH | O_CLOEXEC;
	if (sw->opt.follow == SWEEP_FOLLOW_NONE)
		flags |= O_NOFOLLOW;
	int fd = openat(r->basefd, r->path, flags);
	if (fd >= 0) {
		struct stat st;
		if (order == SWEEP_ORDER_AUTO)
			order = sw_place_policy(fd);
		if (fstat(fd, &st) == 0) {
			rotational = sweep_device_rotational(st.st_dev);
			dev = st.st_dev;
		}
		close(fd);
	}
	if (order == SWEEP_ORDER_AUTO)
		order = SWEEP_ORDER_NONE;
	sw->order = order;
	sw->q.cscan = order == SWEEP_ORDER_DISK || order == SWEEP_ORDER_INODE;
	/* block order for directories saves seeks but costs reopening
	 * directories; where seeks are free, only the cost is left */
	sw->reads.dirs_by_block = sw->q.cscan &&
	                          (sw->opt.dir_order == SWEEP_DIRS_BLOCK ||
	                           (sw->opt.dir_order == SWEEP_DIRS_AUTO && rotational == 1));
	sw->reads.dirs_by_cache = sw->opt.dir_order == SWEEP_DIRS_AUTO;
	sw->q.el.head = 0;
	sw->reads.last_dirq_key = NO_DIRQ_KEY;
	sw_latency_reset(&sw->lat, dev);
	sw_latency_says_solid(&sw->lat, rotational == 0);
	bool nodata = sw->opt.flags & SWEEP_NODATA;
	sw->data_by_block = !nodata && (order == SWEEP_ORDER_DISK || order == SWEEP_ORDER_BLOCK);
	sw->data_inline = !nodata && !sw->data_by_block;
	sw->dq.ra_files = sw_ra_depth(&sw->dq, rotational != 1);
}

/* Queue root number i (its index keeps the roots' order among themselves). */
static int queue_root(struct sweep *sw, size_t i)
{
	const struct sw_root *r = &sw->roots[i];
	struct sw_node *n = sw_node_new(sw, NULL, (ino_t)i, DT_UNKNOWN, r->path, strlen(r->path),
	                                NULL);
	if (!n)
		return -1;
	n->basefd = r->basefd;
	n->root = true;
	if (sw_queue_push(&sw->q, n) < 0) {
		sw_node_free(sw, n);
		return -1;
	}
	return 0;
}

/* Start the next root, or all the remaining ones together, in the order the
 * first of them calls for (a stack pops the last pushed first). */
static int start_root(struct sweep *sw)
{
	size_t first = sw->next_root;
	size_t end = sw->opt.flags & SWEEP_ROOTS_TOGETHER ? sw->nroots : first + 1;
	choose_policy(sw, &sw->roots[first]);
	sw->next_root = end;
	for (size_t k = 0; k < end - first; k++)
		if (queue_root(sw, sw->q.cscan ? first + k : end - 1 - k) < 0)
			return -1;
	return 0;
}

/* Release what the previous entry held. */
static void release_last(struct sweep *sw)
{
	sw->fds.pinned = NULL;
	if (sw->ent.fd >= 0) {
		close(sw->ent.fd);
		sw->ent.fd = -1;
	}
	if (sw->rel.done_node) {
		sw_node_release(sw, sw->rel.done_node);
		sw->rel.done_node = NULL;
	}
	if (sw->rel.done_file) {
		sw_file_free(sw, sw->rel.done_file);
		sw->rel.done_file = NULL;
	}
	if (sw->rel.done_parent) {
		sw_dir_unref(sw, sw->rel.done_parent);
		sw->rel.done_parent = NULL;
	}
	if (sw->rel.done_batch) {
		sw_hold_batch_free(sw, sw->rel.done_batch);
		sw->rel.done_batch = NULL;
	}
	if (sw->rel.done_post) {
		struct sw_dir *parent = sw->rel.done_post->parent;
		sw_dir_free(sw, sw->rel.done_post);
		sw->rel.done_post = NULL;
		sw_dir_unref(sw, parent);
	}
}

/* An error entry for directory d, which holds a reference to drop. */
static const struct sweep_entry *dir_error(struct sweep *sw, struct sw_dir *d, int err)
{
	sw_ent_fill(sw, SWEEP_ERROR, &d->st, sw_parent_fd(sw, d->parent, d->basefd), d->depth,
	            d->parent);
	sw->ent.dir_id = d->id;
	sw->rel.done_parent = d;
	sw_path_build(sw, d->parent, d->name, d->namelen); /* else named by d->name */
	if (err == SW_NOMEM)
		return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
	return sw_emit_error(sw, SWEEP_OP_READDIR, err);
}

/* Read d now (dist: how far forward of the directory read before it lies,
 * or SW_DIST_UNKNOWN). NULL, or an error entry for it. */
static const struct sweep_entry *read_now(struct sweep *sw, struct sw_dir *d, uint64_t dist)
{
	int err = sw_read_dir(sw, d, dist);
	if (!err) {
		sw_dir_unref(sw, d);
		return NULL;
	}
	return dir_error(sw, d, err);
}

/* Put d in the queue of directory reads, keyed by where its blocks start
 * (unplaced ones after all others, by inode). NULL, or an error entry. */
static const struct sweep_entry *read_later(struct sweep *sw, struct sw_dir *d)
{
	int fd = sw_dir_fd(sw, d);
	if (fd < 0)
		return dir_error(sw, d, errno);
	sw->stats.fiemap_calls++;
	uint64_t phys = sw_place_first_byte(fd);
	uint64_t key = phys != SWEEP_PHYS_NONE ? phys : UNPLACED_DIR | (uint64_t)d->st.st_ino;
	d->dirq_key = key;
	if (sw_cscan_push(&sw->reads.dirq, key, d) < 0)
		return read_now(sw, d, SW_DIST_UNKNOWN);
	sw->stats.dirs_by_block++;
	return NULL;
}

/* How far forward of the directory read before a directory whose blocks
 * start at key lies, in bytes (latency.c weighs misses by it). */
static uint64_t key_distance(struct sweep *sw, uint64_t key)
{
	uint64_t last = sw->reads.last_dirq_key;
	sw->reads.last_dirq_key = key;
	if (key < last || (key & UNPLACED_DIR)) /* the latter: inode numbers */
		return SW_DIST_UNKNOWN;
	return key - last;
}

/* The same for d, read now, not in block order: once the probes have met
 * a costly miss, its place is asked (FIEMAP) for as long as the judgement
 * of the device wants it, since it weighs misses close to the read before
 * against distant ones (latency.c). */
static uint64_t placed_distance(struct sweep *sw, struct sw_dir *d)
{
	if (sw_dirs_probing(&sw->lat) || sw_dirs_cached(&sw->lat) ||
	    !sw_latency_wants_places(&sw->lat))
		return SW_DIST_UNKNOWN;
	int fd = sw_dir_fd(sw, d);
	if (fd < 0)
		return SW_DIST_UNKNOWN;
	sw->stats.fiemap_calls++;
	uint64_t phys = sw_place_first_byte(fd);
	return key_distance(sw, phys != SWEEP_PHYS_NONE ? phys : NO_DIRQ_KEY);
}

/* Read the directory handed out last: in block order (unless, by default,
 * directory reads come from the cache lately, or misses are cheap), else
 * now. */
static const struct sweep_entry *read_pending(struct sweep *sw)
{
	struct sw_dir *d = sw->rel.to_read;
	sw->rel.to_read = NULL;
	bool by_block = sw->reads.dirs_by_block &&
	                !(sw->reads.dirs_by_cache && (sw_dirs_probing(&sw->lat) || sw_dirs_cached(&sw->lat) ||
	                                              sw_misses_cheap(&sw->lat)));
	return by_block ? read_later(sw, d) : read_now(sw, d, placed_distance(sw, d));
}

static const struct sweep_entry *emit_post(struct sweep *sw)
{
	struct sw_dir *d = sw->post_head;
	sw->post_head = d->post_next;
	if (!sw->post_head)
		sw->post_tail = NULL;
	sw->rel.done_post = d;
	sw_ent_fill(sw, SWEEP_DIR_POST, &d->st, sw_parent_fd(sw, d->parent, d->basefd), d->depth,
	            d->parent);
	sw->ent.dir_id = d->id;
	if (sw_path_build(sw, d->parent, d->name, d->namelen) < 0)
		return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
	return &sw->ent;
}

/*
 * The memory bound is split in halves. The data queue has one: it is flushed
 * when it passes that or max_entries. The metadata side (names waiting, and
 * directories with something pending below them) has the other (a sixteenth
 * of the bound while the helper threads work: node.c): past it,
 * directory reads are put off, since reading one adds names while serving a
 * file frees one. Flushing on the total instead would hand out tiny flushes,
 * one file each, whenever directories fill the budget, and lose the sort.
 */
static bool data_over_bound(const struct sweep *sw)
{
	return sw->dq.ndata >= sw->opt.max_entries || sw->mem.data > sw->opt.max_bytes / 2;
}

/* The next name to serve. While the metadata side is over its line, names of
 * directories are set aside, and taken back once it has drained to half of
 * it, or nothing else is left: names held for the helper threads
 * are something else, which serving frees (each directory read meanwhile
 * would hold more, many times the bound). Set-aside names count too: where
 * they alone pass half the line (some 10,000 of them under the helpers'
 * sixteenth), they come back one at a time, as the rest drains. */
static struct sw_node *pick_node(struct sweep *sw)
{
	if (!sw->q.cscan)
		return sw_queue_pop(&sw->q);
	if (sw->deferred.n && sw_meta_mem(&sw->mem) < sw_meta_line(sw) / 2) {
		struct sw_node *n;
		while ((n = sw_heap_pop(&sw->deferred)))
			if (sw_queue_push(&sw->q, n) < 0)
				return n;
	}
	for (;;) {
		struct sw_node *n = sw_queue_pop(&sw->q);
		if (!n)
			return sw_meta_short(sw) && sw_hold_any(&sw->hold) ? NULL : sw_heap_pop(&sw->deferred);
		if (!sw_defer_dir(sw, n))
			return n;
	}
}

/*
 * One step of metadata work: serve a name, or read a directory. With
 * SWEEP_DIRS_BLOCK the two alternate in phases, each one sweep: all pending
 * names by inode, then all pending directory reads by block (unless names
 * pile up past the memory bound meanwhile). *done: nothing left to do.
 */
static const struct sweep_entry *step_metadata(struct sweep *sw, bool *done)
{
	*done = false;
	bool served;
	const struct sweep_entry *e = sw_hold_serve(sw, false, &served);
	if (served)
		return e;
	struct sw_node *n;
	bool names_first = !sw->reads.reading_dirs || sw_meta_short(sw);
	n = names_first ? pick_node(sw) : NULL;
	if (n) {
		sw->reads.reading_dirs = false;
		return sw_serve_node(sw, n);
	}
	struct sw_dir *d = sw_dirahead_next(sw);
	if (d) {
		sw->reads.reading_dirs = true;
		return read_now(sw, d, key_distance(sw, d->dirq_key));
	}
	sw->reads.reading_dirs = false;
	n = pick_node(sw);
	if (n)
		return sw_serve_node(sw, n);
	if (sw_hold_any(&sw->hold)) /* nothing else to do: wait for the helpers */
		return sw_hold_serve(sw, true, &served);
	*done = true;
	return NULL;
}

/* The entry handed out last, which the table of links could not take, as
 * a SWEEP_OP_NOMEM error: its path and status are still those in sw->ent,
 * but its directory may have been let go of. */
static const struct sweep_entry *links_lost(struct sweep *sw)
{
	sw->rel.links_lost = false;
	sw->ent.dirfd = -1;
	sw->ent.link_first = NULL;
	sw->ent.flags &= SWEEP_E_ROOT;
	return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
}

static const struct sweep_entry *next_entry(struct sweep *sw)
{
	release_last(sw);
	if (sw->rel.links_lost)
		return links_lost(sw);
	if (sw->rel.to_read) {
		const struct sweep_entry *e = read_pending(sw);
		if (e)
			return e;
	}
	for (;;) {
		if (sw->mem.held > sw->stats.peak_bytes)
			sw->stats.peak_bytes = sw->mem.held;
		if (sw->post_head)
			return emit_post(sw);
		const struct sweep_entry *e;
		if (sw->dq.flushing) {
			if ((e = sw_data_next(sw)))
				return e;
			continue;
		}
		bool meta_done = sw_queue_len(&sw->q) == 0 && sw->deferred.n == 0 &&
		                 sw_dirahead_pending(sw) == 0 && !sw_hold_any(&sw->hold);
		if (sw->dq.ndata && (data_over_bound(sw) || meta_done)) {
			sw_data_start_flush(sw);
			continue;
		}
		bool done;
		if ((e = step_metadata(sw, &done)))
			return e;
		if (!done)
			continue;
		if (sw->dq.ndata) { /* the last held names were none */
			sw_data_start_flush(sw);
			continue;
		}
		if (sw->next_root == sw->nroots)
			return NULL;
		size_t first = sw->next_root;
		if (start_root(sw) < 0) {
			sw_ent_fill(sw, SWEEP_ERROR, NULL, -1, 0, NULL);
			sw_path_name_only(sw, sw->roots[first].path, strlen(sw->roots[first].path));
			return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
		}
	}
}

const struct sweep_entry *sweep_next(struct sweep *sw)
{
	if (!sw)
		return NULL;
	const struct sweep_entry *e = next_entry(sw);
	if (e)
		sw->stats.entries++;
	sw->stats.sweeps = sw->q.el.sweeps;
	sw->stats.bytes_held = sw->mem.held;
	return e;
}

int sweep_prune(struct sweep *sw)
{
	if (!sw || !sw->rel.to_read) {
		errno = EINVAL;
		return -1;
	}
	sw->rel.done_parent = sw->rel.to_read;
	sw->rel.to_read = NULL;
	return 0;
}

enum sweep_order sweep_current_order(const struct sweep *sw)
{
	return sw->order;
}

void sweep_get_stats(const struct sweep *sw, struct sweep_stats *out, size_t size)
{
	struct sweep_stats now = sw->stats;
	now.strategy = sw_latency_strategy(&sw->lat);
	size_t ours = sizeof(now);
	memcpy(out, &now, size < ours ? size : ours);
	if (size > ours)
		memset((char *)out + ours, 0, size - ours);
}

void sweep_close(struct sweep *sw)
{
	if (!sw)
		return;
	release_last(sw);
	sw_hold_free(sw);
	sw_announcer_stop(sw->announcer);
	sw_pool_stop(sw->warm);
	sw->opt.flags &= ~SWEEP_POSTORDER; /* from now on, complete means free */
	if (sw->rel.to_read)
		sw_dir_unref(sw, sw->rel.to_read);
	while (sw->post_head) {
		struct sw_dir *d = sw->post_head;
		sw->post_head = d->post_next;
		struct sw_dir *parent = d->parent;
		sw_dir_free(sw, d);
		sw_dir_unref(sw, parent);
	}
	struct sw_node *n;
	while ((n = sw_queue_pop(&sw->q)))
		sw_node_release(sw, n);
	while ((n = sw_heap_pop(&sw->deferred)))
		sw_node_release(sw, n);
	sw_dirahead_free(sw);
	for (size_t i = sw->dq.flushing ? sw->dq.data_pos : 0; i < sw->dq.ndata; i++)
		sw_file_free(sw, sw->dq.data[i]);
	sw_queue_free(&sw->q);
	free(sw->deferred.v);
	free(sw->dq.data);
	free(sw->dq.early);
	for (size_t i = 0; i < sw->nroots; i++)
		free(sw->roots[i].path);
	free(sw->roots);
	sw_links_free(sw->links);
	free(sw->pathbuf);
	free(sw->dentbuf);
	free(sw->tmp);
	free(sw);
}
