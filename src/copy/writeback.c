/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writeback.c: when the copy's written data goes to the disk.
 *
 * By default the kernel decides: dirty pages are written back once they
 * pass vm.dirty_background_ratio (or _bytes) or grow old, by the flusher
 * threads, while the walk goes on reading. When the destination shares a
 * disk arm with the source, those writes land between the sweep's reads
 * and pull the arm away from it. With a write batch (copy_opts.write_batch)
 * the engine instead reads a batch of that many bytes in sweep order, then
 * has the destination's file system write everything out (syncfs, which
 * also writes the new inodes and directories, and waits) before it reads
 * on: the arm sweeps the source, then the destination, in turns.
 * bench/results/cp-write has the measurements that chose the default.
 */
#include <errno.h>
#include <unistd.h>
#include "copyint.h"

/* Called after each regular file: a batch full is written out now. A
 * failure here is a failure of data already copied (syncfs reports
 * writeback errors since Linux 5.8), so it is said and counted. */
void writeback_file_done(struct copy *c)
{
	uint64_t batch = c->o->write_batch;
	if (!batch || c->bytes - c->synced < batch)
		return;
	c->synced = c->bytes;
	if (syncfs(c->top_fd) < 0)
		copy_error(c, errno, "cannot write %s out", cq(c, 0, c->top_shown));
}
