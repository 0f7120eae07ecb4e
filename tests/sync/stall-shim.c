/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stall-shim.c: an LD_PRELOAD shim that stalls a copy half way, so that a
 * test can signal it while a file is being written: the first write to a
 * file whose name contains $STALL_NAME (write, pwrite, copy_file_range;
 * or a copy_file_range from a file whose name ends in $STALL_SOURCE to a
 * file without a name, as sweep-sync writes a new file before it names it)
 * creates the file $STALL_MARK and sleeps for up to a minute before going
 * on ($STALL_SKIP: the write after that many to such files, to stall half
 * way through one; a signal caught ends the sleep, unless $STALL_FIRM is
 * set: the minute is then slept out; $STALL_SECONDS: that many seconds
 * instead of the minute). With $STALL_READ set (not empty), the first read() of a
 * file whose name ends in $STALL_SOURCE stalls the same way instead,
 * before it reads (a sender that has sent none of its bytes yet). It goes
 * into rsync and sweep-sync alike.
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

typedef ssize_t (*read_fn)(int, void *, size_t);
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

/* Whether fd's name ends in $STALL_SOURCE. */
static int is_source(int fd)
{
	const char *want = getenv("STALL_SOURCE");
	char path[PATH_MAX];
	ssize_t n;
	if (!want || !*want || fd < 0 || (n = shim_fd_path(fd, path)) < 0)
		return 0;
	size_t w = strlen(want);
	return (size_t)n >= w && strcmp(path + n - w, want) == 0;
}

/* Whether fd is a file without a name (O_TMPFILE) copied from a file
 * whose name ends in $STALL_SOURCE. */
static int from_source(int in, int fd)
{
	char path[PATH_MAX];
	return in >= 0 && shim_fd_path(fd, path) >= 0 && strstr(path, " (deleted)") &&
	       is_source(in);
}

/* Whether reads stall instead of writes. */
static int reads(void)
{
	const char *r = getenv("STALL_READ");
	return r && *r;
}

/* Stall, once, as $STALL_MARK is made. */
static void stall_once(const char *mark)
{
	int m = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (m < 0)
		return; /* stalled once already */
	close(m);
	const char *seconds = getenv("STALL_SECONDS");
	unsigned left = sleep(seconds ? (unsigned)atoi(seconds) : 60); /* a signal ends it,
	                                                                  and the program */
	while (left && getenv("STALL_FIRM"))
		left = sleep(left);
}

/* A write to fd (from in, or -1) is about to be made. */
static void stall(int in, int fd)
{
	static long writes;
	const char *mark = getenv("STALL_MARK");
	const char *skip = getenv("STALL_SKIP");
	if (!mark || reads() || !(named(fd) || from_source(in, fd)) ||
	    (skip && writes++ < atol(skip)))
		return;
	stall_once(mark);
}

ssize_t read(int fd, void *buf, size_t len)
{
	const char *mark = getenv("STALL_MARK");
	if (mark && reads() && is_source(fd))
		stall_once(mark);
	return ((read_fn)dlsym(RTLD_NEXT, "read"))(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	stall(-1, fd);
	return ((write_fn)dlsym(RTLD_NEXT, "write"))(fd, buf, len);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	stall(-1, fd);
	return ((pwrite_fn)dlsym(RTLD_NEXT, "pwrite"))(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t len,
                        unsigned flags)
{
	stall(in, out);
	return ((cfr_fn)dlsym(RTLD_NEXT, "copy_file_range"))(in, in_off, out, out_off, len, flags);
}
