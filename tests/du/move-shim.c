/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * move-shim.c: an LD_PRELOAD shim for tests/du/moved-dir.sh. The first time
 * a program opens a directory named $MOVE_NAME, the directory is renamed to
 * $MOVE_TO just after the open succeeds: the race of a directory moved
 * while the walk reads it, made deterministic, and the same for GNU du and
 * sweep-du whatever calls either makes (openat, open, and their 64-bit
 * names; only opens with O_DIRECTORY count).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void move(int dirfd, const char *path, int flags, int fd)
{
	static int done;
	const char *name = getenv("MOVE_NAME"), *to = getenv("MOVE_TO");
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (done || fd < 0 || !(flags & O_DIRECTORY) || !name || !to || strcmp(base, name) != 0)
		return;
	done = 1;
	renameat(dirfd, path, AT_FDCWD, to);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0;
}

static void *next(const char *fn)
{
	return dlsym(RTLD_NEXT, fn);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	int fd = ((int (*)(int, const char *, int, ...))next("openat"))(dirfd, path, flags, mode);
	move(dirfd, path, flags, fd);
	return fd;
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	int fd = ((int (*)(int, const char *, int, ...))next("openat64"))(dirfd, path, flags, mode);
	move(dirfd, path, flags, fd);
	return fd;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	int fd = ((int (*)(const char *, int, ...))next("open"))(path, flags, mode);
	move(AT_FDCWD, path, flags, fd);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	int fd = ((int (*)(const char *, int, ...))next("open64"))(path, flags, mode);
	move(AT_FDCWD, path, flags, fd);
	return fd;
}
