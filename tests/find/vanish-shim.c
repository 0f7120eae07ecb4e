/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vanish-shim.c: an LD_PRELOAD shim for tests/find/readdir-race.sh and
 * tests/sync/vanished.sh. The first time a program asks for the status of
 * a file named $VANISH_NAME, the file is removed just before: the race of
 * a file deleted between reading its directory and examining it, made
 * deterministic, and the same for GNU's tools and ours whatever calls
 * either makes (fstatat, statx, stat, lstat, and their 64-bit names).
 * With $VANISH_AT=open, the first time it is opened for reading instead
 * (open, openat and their 64-bit names): removed between its examination
 * and the reading of its data.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int at_open(void)
{
	const char *at = getenv("VANISH_AT");
	return at && strcmp(at, "open") == 0;
}

static void vanish(int dirfd, const char *path)
{
	static int done;
	const char *name = getenv("VANISH_NAME");
	const char *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (done || !name || !base || strcmp(base, name) != 0)
		return;
	done = 1;
	unlinkat(dirfd, path, 0);
}

static void *next(const char *fn)
{
	return dlsym(RTLD_NEXT, fn);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	if (!at_open())
		vanish(dirfd, path);
	return ((int (*)(int, const char *, struct stat *, int))next("fstatat"))(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	if (!at_open())
		vanish(dirfd, path);
	return ((int (*)(int, const char *, struct stat64 *, int))next("fstatat64"))(dirfd, path, st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	if (!at_open())
		vanish(dirfd, path);
	return ((int (*)(int, const char *, int, unsigned, struct statx *))next("statx"))(dirfd, path, flags, mask, sx);
}

int stat(const char *path, struct stat *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat *))next("stat"))(path, st);
}

int stat64(const char *path, struct stat64 *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat64 *))next("stat64"))(path, st);
}

int lstat(const char *path, struct stat *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat *))next("lstat"))(path, st);
}

int lstat64(const char *path, struct stat64 *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat64 *))next("lstat64"))(path, st);
}

/* An open for reading alone: a directory's or a file's to be written is
 * not the race this is for. */
static void vanish_open(int dirfd, const char *path, int flags)
{
	if (at_open() && (flags & O_ACCMODE) == O_RDONLY && !(flags & O_DIRECTORY))
		vanish(dirfd, path);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	vanish_open(AT_FDCWD, path, flags);
	return ((int (*)(const char *, int, ...))next("open"))(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	vanish_open(AT_FDCWD, path, flags);
	return ((int (*)(const char *, int, ...))next("open64"))(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	vanish_open(dirfd, path, flags);
	return ((int (*)(int, const char *, int, ...))next("openat"))(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	vanish_open(dirfd, path, flags);
	return ((int (*)(int, const char *, int, ...))next("openat64"))(dirfd, path, flags, mode);
}
