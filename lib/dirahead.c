/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dirahead.c: the sweep of directory reads by block (walk.c's dirq), and
 * under SWEEP_DEPTH_ON the next DIR_DEPTH of them in flight.
 *
 * A disk with a command queue (NCQ) serves, of the requests it holds, the
 * one nearest its head; given one at a time it can only follow. So under
 * SWEEP_DEPTH_ON directories leave dirq in sweep order into a line of up to
 * DIR_DEPTH, and each one that joins the line is handed to the readers
 * (dirreaders.c), which read it through while the walk reads those before
 * it: DIR_DEPTH requests in flight, issued in sweep order. The walk still
 * reads every directory itself, in the order they leave dirq, from the
 * cache where a reader got there first, so what it hands out is the same
 * either way. A read of a directory given to the readers tells the
 * device's judgement (latency.c) nothing and is not noted there
 * (readdir.c): while the sweep runs with depth, that judgement stands as
 * it was when the sweep began.
 *
 * It is not the default: on the emulated 7200 RPM disk, aged ext4 and xfs
 * holding the Linux tree, a cold sweep-du -s took 3-6% less with it where
 * the drive queues 32 requests and reorders them, and 11% more on ext4
 * where it serves one at a time (bench/results/device-ncq/depth/). The
 * sweep's own order leaves a queue little to reorder. A judgement that
 * tried both depths in alternate windows of the sweep was fooled by them
 * (depth looked twice as cheap on the plain disk) and is not kept.
 */
#include <fcntl.h>
#include <unistd.h>
#include "internal.h"

/* Hands d to the readers, starting them the first time. Their descriptors
 * are the helpers' budget (limits.c): the two never work together, the
 * first started keeps it (warm.c asks too). */
static void announce(struct sweep *sw, struct sw_dir *d)
{
	if (sw->warm)
		return;
	if (!sw->readers && !sw->readers_failed) {
		size_t n = sw->warm_fds / 2;
		sw->readers = n >= 2 ? sw_dirreaders_start(n) : NULL;
		sw->readers_failed = !sw->readers;
		sw->stats.dir_depth = sw->readers ? (unsigned)sw_dirreaders_threads(sw->readers) : 1;
	}
	if (!sw_dirreaders_here(sw->readers)) /* none, or a child of fork() */
		return;
	int fd = sw_dir_fd(sw, d);
	if (fd < 0)
		return;
	/* a description of its own: the walk's place in fd must not move */
	int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (own < 0)
		return;
	if (!sw_dirreaders_give(sw->readers, own)) {
		close(own);
		return;
	}
	d->announced = true;
	sw->stats.dirs_announced++;
}

/* The next directory to read in the sweep, or NULL where dirq is empty. */
struct sw_dir *sw_dirahead_next(struct sweep *sw)
{
	struct sw_reads *r = &sw->reads;
	size_t want = sw->opt.flags & SWEEP_DEPTH_ON ? DIR_DEPTH : 1;
	while (r->nahead < want) {
		struct sw_dir *d = sw_cscan_pop(&r->dirq);
		if (!d)
			break;
		d->announced = false;
		if (want > 1)
			announce(sw, d);
		r->ahead[(r->ahead_head + r->nahead++) % DIR_DEPTH] = d;
	}
	if (!sw->stats.dir_depth && r->nahead)
		sw->stats.dir_depth = 1;
	if (!r->nahead)
		return NULL;
	struct sw_dir *d = r->ahead[r->ahead_head];
	r->ahead_head = (r->ahead_head + 1) % DIR_DEPTH;
	r->nahead--;
	return d;
}

/* Directories waiting in dirq or in the line. */
size_t sw_dirahead_pending(const struct sweep *sw)
{
	return sw_cscan_len(&sw->reads.dirq) + sw->reads.nahead;
}

/* At the walk's end: the readers, and what is left of the line and of
 * dirq. */
void sw_dirahead_free(struct sweep *sw)
{
	struct sw_reads *r = &sw->reads;
	sw_dirreaders_stop(sw->readers);
	sw->readers = NULL;
	for (; r->nahead; r->nahead--, r->ahead_head = (r->ahead_head + 1) % DIR_DEPTH)
		sw_dir_unref(sw, r->ahead[r->ahead_head]);
	struct sw_dir *d;
	while ((d = sw_cscan_pop(&r->dirq)))
		sw_dir_unref(sw, d);
	sw_cscan_free(&r->dirq);
}
