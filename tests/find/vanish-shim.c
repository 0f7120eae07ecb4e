/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vanish-shim.c: an LD_PRELOAD shim for tests/find/readdir-race.sh. The
 * first time a program asks for the status of a file named $VANISH_NAME,
 * the file is removed just before: the race of a file deleted between
 * reading its directory and examining it, made deterministic, and the same
 * for GNU find and sweep-find whatever calls either makes (fstatat, statx,
 * stat, lstat, and their 64-bit names).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	vanish(dirfd, path);
	return ((int (*)(int, const char *, struct stat *, int))next("fstatat"))(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	vanish(dirfd, path);
	return ((int (*)(int, const char *, struct stat64 *, int))next("fstatat64"))(dirfd, path, st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	vanish(dirfd, path);
	return ((int (*)(int, const char *, int, unsigned, struct statx *))next("statx"))(dirfd, path, flags, mask, sx);
}

int stat(const char *path, struct stat *st)
{
	vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat *))next("stat"))(path, st);
}

int stat64(const char *path, struct stat64 *st)
{
	vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat64 *))next("stat64"))(path, st);
}

int lstat(const char *path, struct stat *st)
{
	vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat *))next("lstat"))(path, st);
}

int lstat64(const char *path, struct stat64 *st)
{
	vanish(AT_FDCWD, path);
	return ((int (*)(const char *, struct stat64 *))next("lstat64"))(path, st);
}
