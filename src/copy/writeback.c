/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writeback.c: when and in what order the copy's written data goes to the
 * disk.
 *
 * Left to the kernel, dirty pages are written back once they pass
 * vm.dirty_background_ratio (or _bytes) or grow old, by the flusher
 * threads, while the walk goes on reading, and in the order the files were
 * written: the source's block order, which says nothing of where the
 * destination's blocks go. On a disk arm that costs twice: the writes land
 * between the sweep's reads (on the same disk), and they come in an order
 * that seeks back and forth over the destination (ext4 and XFS allocate a
 * file's blocks when they are written back, near its inode's group).
 *
 * With a write batch the engine reads a batch of that many bytes in sweep
 * order, keeping the new files open, then writes the batch out itself:
 * each file's writeback is started in the order of its inode number (so
 * the allocations, and the writes, go up the disk in one sweep), then
 * syncfs() waits for them and writes the new inodes and directories, and
 * the files are closed; then the walk reads on. The arm sweeps the
 * source, then the destination, in turns. The default (auto) batches onto
 * a disk that seeks, and leaves an SSD, a tmpfs or a network file system
 * to the kernel. bench/results/cp-write has the measurements behind it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "copyint.h"

#define AUTO_BATCH (64u << 20) /* at most: under the kernel's own threshold */
#define MIN_BATCH  (1u << 20)
#define KEEP_MAX   256         /* files kept open for a batch, at most */

/* A file written in this batch, kept open until it is written out. */
struct wb_file {
	ino_t ino;
	int fd;
	char *shown;             /* as messages name it */
};

/* The number in /proc/sys/vm/NAME, or 0. */
static uint64_t vm_value(const char *name)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	FILE *f = fopen(path, "re");
	unsigned long long v = 0;
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* MemAvailable of /proc/meminfo, in bytes, or 0. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[128];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb << 10;
}

/* Half the dirty bytes past which the kernel's flushers start writing on
 * their own (they count memory that could hold dirty pages, about what
 * MemAvailable says), so that a batch is ours to write; at most AUTO_BATCH. */
static uint64_t auto_batch(void)
{
	uint64_t limit = vm_value("dirty_background_bytes");
	if (!limit)
		limit = mem_available() / 100 * vm_value("dirty_background_ratio");
	uint64_t b = limit / 2;
	return b > AUTO_BATCH ? AUTO_BATCH : b < MIN_BATCH ? MIN_BATCH : b;
}

void writeback_plan(struct copy *c)
{
	c->batch = c->o->write_batch;
	if (!c->o->write_batch_auto)
		return;
	struct stat st;
	c->batch = 0;
	if (fstat(c->top_fd, &st) == 0 && sweep_device_rotational(st.st_dev) == 1)
		c->batch = auto_batch();
}

static size_t keep_max(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / 8 >= KEEP_MAX)
		return KEEP_MAX;
	return rl.rlim_cur / 8 > 1 ? (size_t)(rl.rlim_cur / 8) : 1;
}

static int by_inode(const void *a, const void *b)
{
	const struct wb_file *x = a, *y = b;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

int writeback_flush(struct copy *c)
{
	if (!c->batch || (!c->nwb && c->bytes == c->synced))
		return 0;
	qsort(c->wb, c->nwb, sizeof(*c->wb), by_inode);
	for (size_t i = 0; i < c->nwb; i++)
		sync_file_range(c->wb[i].fd, 0, 0, SYNC_FILE_RANGE_WRITE); /* a start only */
	if (syncfs(c->top_fd) < 0)
		copy_error(c, errno, "cannot write %s out", cq(c, 0, c->top_shown));
	for (size_t i = 0; i < c->nwb; i++) {
		if (close(c->wb[i].fd) < 0)
			copy_error(c, errno, "failed to close %s", cq(c, 0, c->wb[i].shown));
		free(c->wb[i].shown);
	}
	int n = c->nwb > 0;
	c->nwb = 0;
	c->synced = c->bytes;
	return n;
}

int writeback_close(struct copy *c, int fd)
{
	struct stat st;
	if (!c->batch || fstat(fd, &st) < 0)
		return close(fd);
	if (!c->capwb) {
		size_t cap = keep_max();
		c->wb = calloc(cap, sizeof(*c->wb));
		c->capwb = c->wb ? cap : 0;
	}
	char *shown = c->nwb < c->capwb ? strdup(sb_str(&c->shown)) : NULL;
	if (!shown) { /* no room: written out with the rest, by syncfs */
		int r = close(fd);
		writeback_file_done(c);
		return r;
	}
	c->wb[c->nwb++] = (struct wb_file){ st.st_ino, fd, shown };
	if (c->nwb == c->capwb)
		writeback_flush(c);
	return 0;
}

void writeback_file_done(struct copy *c)
{
	if (c->batch && c->bytes - c->synced >= c->batch)
		writeback_flush(c);
}

void writeback_free(struct copy *c)
{
	free(c->wb);
	c->wb = NULL;
	c->capwb = 0;
}
