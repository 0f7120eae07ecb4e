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
 * order, then has the destination's file system write it out (syncfs(),
 * which also writes the new inodes and directories, and waits) before it
 * reads on: the arm sweeps the source, then the destination, in turns.
 * The kernel's writeback of a whole batch at once merges the small files'
 * neighbouring blocks into large requests; starting each file's writeback
 * apart, in the order of its inode number (sync_file_range), was tried and
 * made five times as many requests and the copy twice as slow. The
 * default (auto) batches onto a disk that seeks, and leaves an SSD, a
 * tmpfs or a network file system to the kernel. bench/results/cp-write
 * has the measurements behind it. Onto another disk than the source's,
 * a batch is written out while the next is read (behind.c); leaving that
 * disk to the kernel instead wrote it all at the end (77 s against 63 for
 * the whole Linux tree, bench/results/cp-full-s1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "copyint.h"

#define AUTO_BATCH (64u << 20) /* at most: under the kernel's own threshold */
#define MIN_BATCH  (1u << 20)

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

/* The file system the copy goes to: the destination's own when it is a
 * directory already (it may be a mount point, on another disk than the
 * directory it is in), else the directory it is made in. */
static void open_dest_fs(struct copy *c)
{
	c->wb_fd = openat(c->top_fd, c->top_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c->wb_own = c->wb_fd >= 0;
	if (!c->wb_own)
		c->wb_fd = c->top_fd;
}

/* Whether the tree's source and the destination are surely on two disks,
 * each its own arm (disks.c). */
static bool other_disk(const struct copy *c, dev_t dst)
{
	struct stat st;
	return !c->o->read_data && stat(c->src_root, &st) == 0 && copy_disks_apart(st.st_dev, dst);
}

void writeback_plan(struct copy *c)
{
	c->batch = c->o->write_batch;
	if (!c->batch && !c->o->write_batch_auto)
		return;
	open_dest_fs(c);
	struct stat st;
	bool seeks = c->o->write_batch_auto && fstat(c->wb_fd, &st) == 0 &&
	             sweep_device_rotational(st.st_dev) == 1;
	if (c->o->write_batch_auto)
		c->batch = seeks ? auto_batch() : 0;
	/* without the thread, the batch is written out as the walk's own wait */
	if (c->batch && (c->o->write_behind || (seeks && other_disk(c, st.st_dev))))
		c->behind = behind_start(c->wb_fd);
}

void writeback_end(struct copy *c)
{
	writeback_flush(c);
	if (c->behind) {
		/* the last batch too is on the disk when the copy ends */
		int err = behind_wait(c->behind);
		if (err)
			copy_error(c, err, "cannot write %s out", cq(c, 0, c->top_shown));
		behind_stop(c->behind);
		c->behind = NULL;
	}
	if (c->wb_own)
		close(c->wb_fd);
	c->wb_own = false;
}

/* Write what was copied since the last batch out now, or have the thread
 * do it once it wrote the batch before. A failure here is a failure of
 * data already copied (syncfs reports writeback errors since Linux 5.8),
 * so it is said and counted. */
void writeback_flush(struct copy *c)
{
	if (!c->batch)
		return;
	writer_drain(c); /* the batch's last files may still be with it */
	if (c->bytes == c->synced)
		return;
	c->synced = c->bytes;
	int err = 0;
	if (c->behind) {
		err = behind_wait(c->behind); /* the batch before's */
		behind_write(c->behind);
	} else if (syncfs(c->wb_fd) < 0) {
		err = errno;
	}
	if (err)
		copy_error(c, err, "cannot write %s out", cq(c, 0, c->top_shown));
}

void writeback_file_done(struct copy *c)
{
	if (c->batch && c->bytes + writer_pending(c) - c->synced >= c->batch)
		writeback_flush(c);
}
