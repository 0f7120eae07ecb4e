/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * swap-on-open.c: an LD_PRELOAD shim for tests/faults/changed-type.sh. The
 * first time a program opens a file named $SWAP_NAME for reading while it is
 * still a regular file, the file is replaced by $SWAP_TO (symlink, dir,
 * fifo, or gone: removed) just before the open: the race of a file changed
 * between the walk's stat and its open, made deterministic, and the same for
 * GNU tar and sweep-tar whatever calls either makes (open, openat, and
 * their fortified forms). O_PATH opens read nothing and are let be.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void swap(int dirfd, const char *path, int flags)
{
	const char *name = getenv("SWAP_NAME"), *to = getenv("SWAP_TO");
	const char *base = strrchr(path, '/');
	struct stat st;
	base = base ? base + 1 : path;
	if ((flags & O_PATH) || !name || !to || strcmp(base, name) != 0 ||
	    fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
		return;
	unlinkat(dirfd, path, 0);
	if (strcmp(to, "symlink") == 0)
		symlinkat("elsewhere", dirfd, path);
	else if (strcmp(to, "fifo") == 0)
		mkfifoat(dirfd, path, 0644);
	else if (strcmp(to, "dir") == 0 && mkdirat(dirfd, path, 0755) == 0) {
		/* with something inside: is the directory walked? */
		int d = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d >= 0) {
			close(openat(d, "inside", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
			close(d);
		}
	}
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
	swap(dirfd, path, flags);
	return ((int (*)(int, const char *, int, ...))next("openat"))(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	swap(dirfd, path, flags);
	return ((int (*)(int, const char *, int, ...))next("openat64"))(dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	swap(AT_FDCWD, path, flags);
	return ((int (*)(const char *, int, ...))next("open"))(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	swap(AT_FDCWD, path, flags);
	return ((int (*)(const char *, int, ...))next("open64"))(path, flags, mode);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	swap(dirfd, path, flags);
	return ((int (*)(int, const char *, int))next("__openat_2"))(dirfd, path, flags);
}

int __open_2(const char *path, int flags)
{
	swap(AT_FDCWD, path, flags);
	return ((int (*)(const char *, int))next("__open_2"))(path, flags);
}
