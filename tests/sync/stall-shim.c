/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stall-shim.c: an LD_PRELOAD shim that stalls a copy half way, so that a
 * test can signal it while a file is being written: the first write to a
 * file whose name contains $STALL_NAME (write, pwrite, copy_file_range)
 * creates the file $STALL_MARK and sleeps for up to a minute before going
 * on ($STALL_SKIP: the write after that many to such files, to stall half
 * way through one; a signal caught ends the sleep, unless $STALL_FIRM is
 * set: the minute is then slept out). It goes into rsync and sweep-sync
 * alike.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "../shim-fd.h"

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*cfr_fn)(int, off_t *, int, off_t *, size_t, unsigned);

/* Whether fd's name contains $STALL_NAME. */
static int named(int fd)
{
	const char *want = getenv("STALL_NAME");
	char path[PATH_MAX];
	if (!want || !*want)
		return 0;
	return shim_fd_path(fd, path) >= 0 && strstr(path, want) != NULL;
}

static void stall(int fd)
{
	static long writes;
	const char *mark = getenv("STALL_MARK");
	const char *skip = getenv("STALL_SKIP");
	if (!mark || !named(fd) || (skip && writes++ < atol(skip)))
		return;
	int m = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (m < 0)
		return; /* stalled once already */
	close(m);
	unsigned left = sleep(60); /* a signal ends it, and the program */
	while (left && getenv("STALL_FIRM"))
		left = sleep(left);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	stall(fd);
	return ((write_fn)dlsym(RTLD_NEXT, "write"))(fd, buf, len);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	stall(fd);
	return ((pwrite_fn)dlsym(RTLD_NEXT, "pwrite"))(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t len,
                        unsigned flags)
{
	stall(out);
	return ((cfr_fn)dlsym(RTLD_NEXT, "copy_file_range"))(in, in_off, out, out_off, len, flags);
}
