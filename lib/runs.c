/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runs.c: small files in pieces apart on the disk.
 *
 * An aged file system gives many small files a tail far from their head: the
 * file was appended to after its neighbours had taken the blocks that follow.
 * Sorted by its first byte, such a file sends the arm to its tail and back in
 * the middle of the sweep: two long seeks for a few KiB (on an ext4 aged by
 * two rounds of the bench, most of the seeks left). Such a file is therefore
 * sorted by its last run instead, and each earlier run is announced to the
 * kernel when the sweep passes it, so that the file is whole in the page cache
 * when its turn comes. What waits there meanwhile is bounded by the flush and
 * by ANNOUNCE_LIMIT per file; under memory pressure the kernel may drop it,
 * which costs a read again, never a wrong byte.
 *
 * Only files of one link (second names come without data) and at most
 * ANNOUNCE_LIMIT bytes (read whole by their own announcement) are split.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

/* Sorts f by its last run on the disk and keeps the others as early runs.
 * Without memory for them, f stays sorted by its first byte. */
void sw_runs_split(struct sweep *sw, struct sw_file *f, const struct sw_run *runs, size_t n)
{
	if (n < 2 || n > SPLIT_RUNS || f->st.st_nlink != 1 ||
	    f->st.st_size > (off_t)ANNOUNCE_LIMIT)
		return;
	size_t last = 0, early = 0;
	for (size_t i = 1; i < n; i++)
		if (runs[i].phys > runs[last].phys)
			last = i;
	/* Only runs strictly before the last are early: one at the same place
	 * (a shared extent: btrfs compression, reflinks) would have f's own key
	 * and might be announced after f is gone. f's own announcement reads it. */
	for (size_t i = 0; i < n; i++)
		early += runs[i].phys < runs[last].phys;
	struct sw_early *v = early ? sw_grow(sw->dq.early, &sw->dq.capearly, sw->dq.nearly + early,
	                                     sizeof(*v))
	                           : NULL;
	if (!v)
		return;
	sw->dq.early = v;
	for (size_t i = 0; i < n; i++)
		if (runs[i].phys < runs[last].phys)
			v[sw->dq.nearly++] = (struct sw_early){ runs[i].phys + 1, runs[i].off,
			                                     runs[i].len, f };
	f->key = runs[last].phys + 1;
	sw_mem_charge(&sw->mem, early * sizeof(*v), true);
	sw->stats.files_split++;
}

static int by_key(const void *a, const void *b)
{
	const struct sw_early *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

void sw_runs_start_flush(struct sw_dataq *dq)
{
	if (dq->nearly) /* dq->early may still be NULL: qsort must not see it */
		qsort(dq->early, dq->nearly, sizeof(*dq->early), by_key);
	dq->early_pos = 0;
}

/* Opens f only for as long as it takes to ask: the read goes on without the
 * descriptor, and split files may wait long for their turn. */
static void announce_run(struct sweep *sw, const struct sw_early *e)
{
	struct sw_file *f = e->f;
	int fd = f->fd;
	if (fd < 0) {
		int pfd = sw_parent_fd(sw, f->parent, f->basefd);
		if (pfd < 0 && pfd != AT_FDCWD)
			return;
		if ((fd = sw_open_file(sw->euid, pfd, f->name, f->follow, &f->st)) < 0)
			return; /* a lost head start: the file's own open says why */
	}
	posix_fadvise(fd, (off_t)e->off, (off_t)e->len, POSIX_FADV_WILLNEED);
	if (fd != f->fd)
		close(fd);
}

/* Announces the early runs before limit, a file key: they come before that
 * file on the disk. The data phase calls this with every file's key before
 * handing the file out, so no early run outlives its file. */
void sw_runs_announce(struct sweep *sw, uint64_t limit)
{
	while (sw->dq.early_pos < sw->dq.nearly && sw->dq.early[sw->dq.early_pos].key < limit)
		announce_run(sw, &sw->dq.early[sw->dq.early_pos++]);
}

void sw_runs_end_flush(struct sweep *sw)
{
	sw_mem_uncharge(&sw->mem, sw->dq.nearly * sizeof(*sw->dq.early), true);
	sw->dq.nearly = sw->dq.early_pos = 0;
}
