/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * enomem-shim.c: an LD_PRELOAD shim that makes the kernel refuse to open
 * one name with ENOMEM, as a FUSE file system or a starved kernel may
 * answer for a single file: open() and openat() of a file whose full path
 * (relative names joined to the directory they are opened in) ends in
 * $ENOMEM_OPEN fail so. It goes into GNU's tools and ours alike, so their
 * answers can be compared.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef int (*openat_fn)(int, const char *, int, ...);

static int refused(int dirfd, const char *path)
{
	const char *want = getenv("ENOMEM_OPEN");
	if (!want || !*want)
		return 0;
	char full[2 * PATH_MAX] = "", link[64];
	if (path[0] != '/') {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
		ssize_t n = dirfd == AT_FDCWD ? (getcwd(full, PATH_MAX) ? (ssize_t)strlen(full) : -1)
		                              : readlink(link, full, PATH_MAX - 1);
		if (n < 0)
			return 0;
		full[n] = '/';
		full[n + 1] = 0;
	}
	strncat(full, path, sizeof(full) - strlen(full) - 1);
	size_t n = strlen(full), w = strlen(want);
	return n >= w && strcmp(full + n - w, want) == 0;
}

/* The mode argument is there only when the flags create a file. */
static mode_t mode_of(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0;
}

static int open_at(const char *sym, int dirfd, const char *path, int flags, mode_t mode)
{
	if (refused(dirfd, path)) {
		errno = ENOMEM;
		return -1;
	}
	return ((openat_fn)dlsym(RTLD_NEXT, sym))(dirfd, path, flags, mode);
}

/* mode: the optional argument after flags, taken from the caller's list. */
#define TAKE_MODE(flags, mode)                 \
	do {                                   \
		va_list ap_;                   \
		va_start(ap_, flags);          \
		mode = mode_of(flags, ap_);    \
		va_end(ap_);                   \
	} while (0)

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;
	TAKE_MODE(flags, mode);
	return open_at("openat", dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;
	TAKE_MODE(flags, mode);
	return open_at("openat64", dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode;
	TAKE_MODE(flags, mode);
	return open_at("openat", AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;
	TAKE_MODE(flags, mode);
	return open_at("openat64", AT_FDCWD, path, flags, mode);
}

/* What _FORTIFY_SOURCE makes of open() and openat() with a flags variable. */
int __open_2(const char *path, int flags)
{
	return open_at("openat", AT_FDCWD, path, flags, 0);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	return open_at("openat", dirfd, path, flags, 0);
}
