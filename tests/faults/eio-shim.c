/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * eio-shim.c: an LD_PRELOAD shim that makes a device fail under a test.
 * Reads from a file whose name ends in $EIO_READ, and writes to a file
 * whose name ends in $EIO_WRITE, fail with EIO from the byte
 * $EIO_AFTER (default 0) on, as a bad sector would (read, pread, write,
 * pwrite, writev, copy_file_range); listing the extended attributes of
 * a file whose name ends in $EIO_LISTXATTR fails with $EIO_LISTXATTR_ERRNO
 * (a number, default EIO's); cutting a file whose name ends in
 * $EIO_FTRUNCATE (ftruncate) fails with EIO; with $EIO_SYNCFS set,
 * syncfs() fails with EIO, as when writeback met a bad sector. It goes into GNU's
 * tools and ours alike, so their answers to the same fault can be
 * compared; no device-mapper "error" target is needed (this machine's
 * kernel has none).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include "../shim-fd.h"

/* Whether fd's file name ends in the value of the variable var. */
static int names(int fd, const char *var)
{
	const char *want = getenv(var);
	char path[PATH_MAX];
	if (!want || !*want)
		return 0;
	ssize_t n = shim_fd_path(fd, path);
	if (n < 0)
		return 0;
	size_t w = strlen(want);
	return (size_t)n >= w && strcmp(path + n - w, want) == 0;
}

/* Whether an access of len bytes at off reaches the failing part. */
static int fails(int fd, const char *var, off_t off, size_t len)
{
	const char *after = getenv("EIO_AFTER");
	off_t from = after ? (off_t)strtoll(after, NULL, 10) : 0;
	return len > 0 && off + (off_t)len > from && names(fd, var);
}

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);

/* The next definition of name: the C library's. */
static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

ssize_t read(int fd, void *buf, size_t len)
{
	if (fails(fd, "EIO_READ", lseek(fd, 0, SEEK_CUR), len)) {
		errno = EIO;
		return -1;
	}
	return ((read_fn)real("read"))(fd, buf, len);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (fails(fd, "EIO_READ", off, len)) {
		errno = EIO;
		return -1;
	}
	return ((pread_fn)real("pread"))(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (fails(fd, "EIO_WRITE", lseek(fd, 0, SEEK_CUR), len)) {
		errno = EIO;
		return -1;
	}
	return ((write_fn)real("write"))(fd, buf, len);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (fails(fd, "EIO_WRITE", off, len)) {
		errno = EIO;
		return -1;
	}
	return ((pwrite_fn)real("pwrite"))(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t writev(int fd, const struct iovec *v, int n)
{
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += v[i].iov_len;
	if (fails(fd, "EIO_WRITE", lseek(fd, 0, SEEK_CUR), len)) {
		errno = EIO;
		return -1;
	}
	return ((writev_fn)real("writev"))(fd, v, n);
}

typedef ssize_t (*cfr_fn)(int, off_t *, int, off_t *, size_t, unsigned);

/* The kernel's copy (sweep-cp's and sweep-sync's way) reads and writes too. */
ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t len,
                        unsigned flags)
{
	if (fails(in, "EIO_READ", in_off ? *in_off : lseek(in, 0, SEEK_CUR), len) ||
	    fails(out, "EIO_WRITE", out_off ? *out_off : lseek(out, 0, SEEK_CUR), len)) {
		errno = EIO;
		return -1;
	}
	return ((cfr_fn)real("copy_file_range"))(in, in_off, out, out_off, len, flags);
}

typedef int (*ftruncate_fn)(int, off_t);

int ftruncate(int fd, off_t len)
{
	if (names(fd, "EIO_FTRUNCATE")) {
		errno = EIO;
		return -1;
	}
	return ((ftruncate_fn)real("ftruncate"))(fd, len);
}

typedef int (*syncfs_fn)(int);

int syncfs(int fd)
{
	if (getenv("EIO_SYNCFS")) {
		errno = EIO;
		return -1;
	}
	return ((syncfs_fn)real("syncfs"))(fd);
}

typedef ssize_t (*flistxattr_fn)(int, char *, size_t);
typedef ssize_t (*listxattr_fn)(const char *, char *, size_t);

/* Whether listing path's attributes is to fail (errno set). */
static int list_fails(const char *path)
{
	const char *want = getenv("EIO_LISTXATTR");
	size_t n = want ? strlen(want) : 0, m = path ? strlen(path) : 0;
	if (!n || m < n || strcmp(path + m - n, want) != 0)
		return 0;
	const char *e = getenv("EIO_LISTXATTR_ERRNO");
	errno = e ? atoi(e) : EIO;
	return 1;
}

ssize_t flistxattr(int fd, char *list, size_t size)
{
	char path[PATH_MAX];
	if (getenv("EIO_LISTXATTR") && shim_fd_path(fd, path) >= 0 && list_fails(path))
		return -1;
	return ((flistxattr_fn)real("flistxattr"))(fd, list, size);
}

ssize_t listxattr(const char *p, char *list, size_t size)
{
	char path[PATH_MAX];
	ssize_t n = getenv("EIO_LISTXATTR") ? readlink(p, path, sizeof(path) - 1) : -1;
	if (n > 0) /* (/proc/self/fd/N: the file it names) */
		path[n] = 0;
	if (list_fails(n > 0 ? path : p))
		return -1;
	return ((listxattr_fn)real("listxattr"))(p, list, size);
}
