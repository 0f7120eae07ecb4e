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
 * and the reading of its data; with $VANISH_AT=opendir, an empty directory
 * of that name when it is opened to be read. $VANISH_UNDER: only one below
 * a directory whose path holds it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../shim-fd.h"

/* Whether the file goes when it is opened, not when it is looked at. */
static int at_open(void)
{
	const char *at = getenv("VANISH_AT");
	return at && strncmp(at, "open", 4) == 0;
}

/* Whether the directory path is in (dirfd: AT_FDCWD or a directory's) is
 * below one whose name holds $VANISH_UNDER, where that is set (a copy
 * holds the same names: only the source's is to go). */
static int under(int dirfd, const char *path)
{
	const char *want = getenv("VANISH_UNDER");
	char where[PATH_MAX];
	if (!want || *path == '/')
		return !want || strstr(path, want) != NULL;
	if (dirfd == AT_FDCWD ? !getcwd(where, sizeof(where)) : shim_fd_path(dirfd, where) < 0)
		return 0;
	return strstr(where, want) != NULL || strstr(path, want) != NULL;
}

static void vanish(int dirfd, const char *path, int how)
{
	static int done;
	const char *name = getenv("VANISH_NAME");
	const char *base = path ? strrchr(path, '/') : NULL;
	base = base ? base + 1 : path;
	if (done || !name || !base || strcmp(base, name) != 0 || !under(dirfd, path))
		return;
	done = 1;
	unlinkat(dirfd, path, how);
}

static void *next(const char *fn)
{
	return dlsym(RTLD_NEXT, fn);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	if (!at_open())
		vanish(dirfd, path, 0);
	return ((int (*)(int, const char *, struct stat *, int))next("fstatat"))(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	if (!at_open())
		vanish(dirfd, path, 0);
	return ((int (*)(int, const char *, struct stat64 *, int))next("fstatat64"))(dirfd, path, st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	if (!at_open())
		vanish(dirfd, path, 0);
	return ((int (*)(int, const char *, int, unsigned, struct statx *))next("statx"))(dirfd, path, flags, mask, sx);
}

int stat(const char *path, struct stat *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path, 0);
	return ((int (*)(const char *, struct stat *))next("stat"))(path, st);
}

int stat64(const char *path, struct stat64 *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path, 0);
	return ((int (*)(const char *, struct stat64 *))next("stat64"))(path, st);
}

int lstat(const char *path, struct stat *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path, 0);
	return ((int (*)(const char *, struct stat *))next("lstat"))(path, st);
}

int lstat64(const char *path, struct stat64 *st)
{
	if (!at_open())
		vanish(AT_FDCWD, path, 0);
	return ((int (*)(const char *, struct stat64 *))next("lstat64"))(path, st);
}

/* An open for reading alone, of a file (VANISH_AT=open) or of a directory
 * (VANISH_AT=opendir, which takes an empty one away): one to be written is
 * not the race this is for. */
static void vanish_open(int dirfd, const char *path, int flags)
{
	const char *at = getenv("VANISH_AT");
	bool dir = (flags & O_DIRECTORY) != 0;
	if (at && (flags & O_ACCMODE) == O_RDONLY &&
	    strcmp(at, dir ? "opendir" : "open") == 0)
		vanish(dirfd, path, dir ? AT_REMOVEDIR : 0);
}

/* The mode, which only an open that may create a file passes. */
#define MODE_ARG(flags, mode)                                                \
	do {                                                                 \
		if ((flags) & (O_CREAT | O_TMPFILE)) {                       \
			va_list ap;                                          \
			va_start(ap, flags);                                 \
			mode = (mode_t)va_arg(ap, int);                      \
			va_end(ap);                                          \
		}                                                            \
	} while (0)

#define PATH_OPEN(fn)                                                        \
	int fn(const char *path, int flags, ...)                             \
	{                                                                    \
		mode_t mode = 0;                                             \
		MODE_ARG(flags, mode);                                       \
		vanish_open(AT_FDCWD, path, flags);                          \
		return ((int (*)(const char *, int, ...))next(#fn))(path, flags, mode); \
	}

#define AT_OPEN(fn)                                                          \
	int fn(int dirfd, const char *path, int flags, ...)                  \
	{                                                                    \
		mode_t mode = 0;                                             \
		MODE_ARG(flags, mode);                                       \
		vanish_open(dirfd, path, flags);                             \
		return ((int (*)(int, const char *, int, ...))next(#fn))(dirfd, path, flags, mode); \
	}

PATH_OPEN(open)
PATH_OPEN(open64)
AT_OPEN(openat)
AT_OPEN(openat64)
