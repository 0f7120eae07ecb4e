/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shim-open.h: for the tests' LD_PRELOAD shims that act on a file as a
 * program opens it (faults/swap-on-open.c, du/move-shim.c): every way a
 * program opens a file by name (open, openat, their 64-bit names and their
 * fortified forms), passed on to the C library between two hooks that the
 * shim including this defines:
 *   shim_before_open(dirfd, path, flags)      before the open
 *   shim_after_open(dirfd, path, flags, fd)   after it, with its result
 */
#ifndef SWEEP_SHIM_OPEN_H
#define SWEEP_SHIM_OPEN_H

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>

static void shim_before_open(int dirfd, const char *path, int flags);
static void shim_after_open(int dirfd, const char *path, int flags, int fd);

static mode_t shim_mode_arg(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0;
}

static void *shim_next(const char *fn)
{
	return dlsym(RTLD_NEXT, fn);
}

/* The C library's fn (openat or openat64) between the hooks. */
static int shim_openat(const char *fn, int dirfd, const char *path, int flags, mode_t mode)
{
	shim_before_open(dirfd, path, flags);
	int fd = ((int (*)(int, const char *, int, ...))shim_next(fn))(dirfd, path, flags, mode);
	shim_after_open(dirfd, path, flags, fd);
	return fd;
}

/* The C library's fn (open or open64) between the hooks. */
static int shim_open(const char *fn, const char *path, int flags, mode_t mode)
{
	shim_before_open(AT_FDCWD, path, flags);
	int fd = ((int (*)(const char *, int, ...))shim_next(fn))(path, flags, mode);
	shim_after_open(AT_FDCWD, path, flags, fd);
	return fd;
}

#define SHIM_VA_MODE(flags, mode) \
	va_list ap; \
	va_start(ap, flags); \
	mode_t mode = shim_mode_arg(flags, ap); \
	va_end(ap)

int openat(int dirfd, const char *path, int flags, ...)
{
	SHIM_VA_MODE(flags, mode);
	return shim_openat("openat", dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	SHIM_VA_MODE(flags, mode);
	return shim_openat("openat64", dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	SHIM_VA_MODE(flags, mode);
	return shim_open("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	SHIM_VA_MODE(flags, mode);
	return shim_open("open64", path, flags, mode);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	return shim_openat("openat", dirfd, path, flags, 0);
}

int __open_2(const char *path, int flags)
{
	return shim_open("open", path, flags, 0);
}

#endif
