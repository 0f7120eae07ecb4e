/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * data.c: the data phase.
 *
 * Regular files wait on the data queue with the first physical byte FIEMAP
 * gave them. A flush sorts the queue by that address and hands the files out
 * in that order: one sweep of the arm over the data area. While the caller
 * reads one file, the next ones are opened and announced to the kernel
 * (POSIX_FADV_WILLNEED), so the device always has the following requests of
 * the sweep queued and can merge neighbours; on an SSD the same depth is what
 * makes it fast.
 *
 * Sort keys: empty files first (nothing to read; no FIEMAP), then files by
 * their first physical byte, then files FIEMAP could not place, by inode.
 * Files already in the page cache have no place in a sweep: they are handed
 * out as they are served, with the descriptor opened to ask, so a warm tree
 * costs one open per file, as for GNU tar, and neither FIEMAP nor announcing,
 * which cost more than the reads themselves when nothing comes from the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

#define UNPLACED (1ull << 63)

/* cachestat(2), Linux 6.5: what of a range is in the page cache, without
 * any I/O (a RWF_NOWAIT read would start read-ahead on a miss, in inode order,
 * the very seeks the sort is there to avoid). Older headers lack it. */
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif
struct sw_cachestat_range {
	uint64_t off, len;
};
struct sw_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* What of the first len bytes of fd the page cache holds, and lost, into
 * cs; false where the kernel cannot tell (it is then asked no more). */
static bool cache_state(struct sw_dataq *dq, int fd, uint64_t len, struct sw_cachestat *cs)
{
	if (dq->no_cachestat)
		return false;
	struct sw_cachestat_range range = { 0, len };
	if (syscall(__NR_cachestat, fd, &range, cs, 0) < 0) {
		dq->no_cachestat = errno == ENOSYS || errno == EPERM;
		return false;
	}
	return true;
}

/* Whether fd's first page is in the page cache. */
static bool cached(struct sw_dataq *dq, int fd)
{
	struct sw_cachestat cs;
	return cache_state(dq, fd, 1, &cs) && cs.nr_cache > 0;
}

static uint64_t sort_key(const struct stat *st, uint64_t phys)
{
	if (st->st_size == 0)
		return 0;
	if (phys == SWEEP_PHYS_NONE)
		return UNPLACED | (uint64_t)st->st_ino;
	return phys + 1;
}

/* What a queued file takes, charged against the bound. */
static size_t file_size(size_t namelen)
{
	return sizeof(struct sw_file) + namelen + 1;
}

/* Queue v for the data phase, at the place FIEMAP gives its first byte (one
 * call, on a descriptor opened only for it: the data phase may be far away,
 * and descriptors are few). Returns 0 when queued; 1 when the file has no
 * place in the sweep and is to be handed out now, with *fd its descriptor (a
 * file in the page cache, or one whose data lives in its metadata) or -1 (it
 * cannot be opened: opening again says why); -1 when memory ran out (v is
 * left alone). */
int sw_data_queue(struct sweep *sw, const struct sw_name *v, int pfd, const struct stat *st,
                  bool follow, int *fd)
{
	*fd = -1;
	int ffd = -1;
	struct sw_run runs[SPLIT_RUNS];
	size_t nruns = 0;
	if (st->st_size > 0) {
		unsigned waits = 0;
		while ((ffd = sw_open_file(sw->euid, pfd, v->name, follow, st)) < 0 &&
		       sw_fds_retry(sw, NULL, errno, &waits))
			;
		if (ffd < 0)
			return 1;
		if (cached(&sw->dq, ffd)) {
			*fd = ffd;
			return 1;
		}
		sw->stats.fiemap_calls++;
		nruns = sw_place_runs(ffd, st->st_size, runs, SPLIT_RUNS);
		if (nruns == SW_RUNS_INLINE) { /* read with the inode: now, not later */
			*fd = ffd;
			return 1;
		}
		close(ffd);
	}
	/* kept as soon as grown: realloc has freed the old array */
	struct sw_file **q = sw_grow(sw->dq.data, &sw->dq.capdata, sw->dq.ndata + 1, sizeof(*q));
	if (!q)
		return -1;
	sw->dq.data = q;
	size_t size = file_size(v->namelen);
	struct sw_file *f = sw_alloc(sw, size);
	if (!f)
		return -1;
	f->phys = nruns ? runs[0].phys : SWEEP_PHYS_NONE;
	f->key = sort_key(st, f->phys);
	f->seq = sw->dq.seq++;
	f->parent = v->parent;
	f->basefd = v->basefd;
	f->fd = -1;
	f->announced = 0;
	f->root = v->root;
	f->follow = follow;
	f->st = *st;
	f->namelen = v->namelen;
	memcpy(f->name, v->name, v->namelen + 1);
	sw_runs_split(sw, f, runs, nruns);
	sw_name_take_ref(sw, v); /* f's now */
	sw->dq.data[sw->dq.ndata++] = f;
	sw_mem_charge(&sw->mem, size, true);
	if (sw->dq.ndata > sw->stats.peak_data_entries)
		sw->stats.peak_data_entries = sw->dq.ndata;
	return 0;
}

void sw_file_free(struct sweep *sw, struct sw_file *f)
{
	struct sw_dir *parent = f->parent;
	if (f->fd >= 0)
		close(f->fd);
	sw_mem_uncharge(&sw->mem, file_size(f->namelen), true);
	free(f);
	sw_dir_unref(sw, parent);
}

static int by_key(const void *a, const void *b)
{
	const struct sw_file *x = *(struct sw_file *const *)a;
	const struct sw_file *y = *(struct sw_file *const *)b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Whether some of the first len bytes of fd, announced, were taken back
 * from the page cache before anyone read them (cachestat counts the pages
 * evicted since they came in); false where the kernel cannot tell. */
static bool announced_lost(struct sw_dataq *dq, int fd, size_t len)
{
	struct sw_cachestat cs;
	return cache_state(dq, fd, len, &cs) && cs.nr_evicted > 0;
}

/* Sizes the look-ahead to the memory there is, as a file announced len
 * bytes ago is handed out (sw_lookahead_next: a loss halves it). */
static void fit_lookahead(struct sweep *sw, int fd, size_t len)
{
	bool lost = announced_lost(&sw->dq, fd, len);
	sw->dq.ra_budget = sw_lookahead_next(sw->dq.ra_budget, sw->opt.readahead, len, lost);
	sw->stats.lookahead_cuts += lost;
}

/* How many files to announce ahead: many where the device wants depth,
 * fewer for a disk arm; never more than the descriptor budget gives them
 * (limits.c). */
size_t sw_ra_depth(const struct sw_dataq *dq, bool deep)
{
	size_t files = deep ? RA_FILES_DEEP : RA_FILES_DISK;
	return files < dq->ra_max ? files : dq->ra_max;
}

void sw_data_start_flush(struct sweep *sw)
{
	qsort(sw->dq.data, sw->dq.ndata, sizeof(*sw->dq.data), by_key);
	sw_runs_start_flush(&sw->dq);
	if (sw_misses_cheap(&sw->lat)) /* whatever sysfs said: depth is what wins */
		sw->dq.ra_files = sw_ra_depth(&sw->dq, true);
	sw->dq.flushing = true;
	sw->dq.data_pos = sw->dq.ra_pos = 0;
	sw->dq.ra_bytes = 0;
	sw->stats.flushes++;
}

/* Whether the announcements go to their own thread (announce.c): where
 * the helpers run (misses are cheap: the device wants depth, not order). */
static bool announcer_ready(struct sweep *sw)
{
	if (!sw->warm || !sw_pool_ours(sw->warm) || sw->announcer_failed)
		return false;
	if (!sw->announcer && !(sw->announcer = sw_announcer_start(sw->announce_fds)))
		sw->announcer_failed = true;
	return sw->announcer != NULL;
}

/* Open and announce the files after the reader's position, up to the
 * read-ahead budget. Second names of linked files are skipped: they are
 * handed out without data. */
static void announce_ahead(struct sweep *sw)
{
	if (sw->dq.ra_pos < sw->dq.data_pos)
		sw->dq.ra_pos = sw->dq.data_pos;
	while (sw->dq.ra_pos < sw->dq.ndata && sw->dq.ra_pos - sw->dq.data_pos < sw->dq.ra_files &&
	       sw->dq.ra_bytes < sw->dq.ra_budget) {
		struct sw_file *f = sw->dq.data[sw->dq.ra_pos++];
		sw_runs_announce(sw, f->key); /* what the arm passes on its way to f */
		if (f->st.st_nlink > 1 || f->phys == SWEEP_PHYS_NONE)
			continue; /* second names come without data; empty or unplaced:
			             nothing to announce */
		int pfd = sw_parent_fd(sw, f->parent, f->basefd);
		if (pfd < 0 && pfd != AT_FDCWD)
			continue;
		f->fd = sw_open_file(sw->euid, pfd, f->name, f->follow, &f->st);
		if (f->fd < 0 && sw_fds_out(errno)) {
			sw->dq.ra_pos--; /* out of descriptors: this one again later */
			break;
		}
		if (f->fd < 0)
			continue;
		size_t len = (uint64_t)f->st.st_size < ANNOUNCE_LIMIT ? (size_t)f->st.st_size
		                                                      : ANNOUNCE_LIMIT;
		if (!announcer_ready(sw) || !sw_announce(sw->announcer, f->fd, 0, (off_t)len))
			posix_fadvise(f->fd, 0, (off_t)len, POSIX_FADV_WILLNEED);
		f->announced = len;
		sw->dq.ra_bytes += len;
	}
}

/* The next file of the flush, or NULL when the flush is over. */
const struct sweep_entry *sw_data_next(struct sweep *sw)
{
	if (sw->dq.data_pos == sw->dq.ndata) {
		sw->dq.ndata = 0;
		sw->dq.flushing = false;
		sw_runs_end_flush(sw);
		return NULL;
	}
	announce_ahead(sw);
	struct sw_file *f = sw->dq.data[sw->dq.data_pos++];
	sw_runs_announce(sw, f->key); /* where announcing fell behind */
	sw->dq.ra_bytes -= f->announced;
	/* (where misses are cheap, a page read twice costs no seek: not asked) */
	if (f->announced && f->fd >= 0 && !sw_misses_cheap(&sw->lat))
		fit_lookahead(sw, f->fd, f->announced);
	sw->rel.done_file = f;
	int pfd = sw_parent_fd(sw, f->parent, f->basefd);
	int perr = errno;
	int depth = f->parent ? f->parent->depth + 1 : 0;
	sw_ent_fill(sw, SWEEP_DATA, &f->st, pfd, depth, f->parent);
	sw->ent.phys = f->phys;
	if (f->root)
		sw->ent.flags |= SWEEP_E_ROOT;
	if (sw_path_build(sw, f->parent, f->name, f->namelen) < 0)
		return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
	if (pfd < 0 && pfd != AT_FDCWD)
		return sw_emit_error(sw, SWEEP_OP_OPEN, perr);
	int fd = f->fd;
	f->fd = -1;
	const struct sw_name v = {
		.name = f->name, .namelen = f->namelen, .parent = f->parent,
		.basefd = f->basefd, .root = f->root,
	};
	return sw_emit_regular(sw, &v, pfd, f->follow, fd);
}
