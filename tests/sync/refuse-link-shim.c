/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * refuse-link-shim.c: an LD_PRELOAD shim for tests/sync/refused-link.sh.
 * With $SHIM_REFUSE_LINKS set (not empty), linkat() of a file without a name
 * (AT_EMPTY_PATH, or its /proc/self/fd name) fails with EPERM, as a
 * security module's rule may make it fail;
 * futimens() of a file whose name contains $SHIM_TIMES_FAIL fails with
 * EIO, so that every copy of such a file has an attribute it cannot get.
 * Each link of a file without a name, refused or not, appends a line to
 * $SHIM_MARK: the test knows the way it meant to test was taken.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../shim-fd.h"

typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef int (*futimens_fn)(int, const struct timespec[2]);

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	static linkat_fn real;
	if (!real)
		real = (linkat_fn)dlsym(RTLD_NEXT, "linkat");
	if (!(flags & AT_EMPTY_PATH) && strncmp(oldpath, "/proc/self/fd/", 14) != 0)
		return real(olddirfd, oldpath, newdirfd, newpath, flags);
	const char *refuse = getenv("SHIM_REFUSE_LINKS");
	bool refused = refuse && *refuse;
	const char *mark = getenv("SHIM_MARK");
	int fd = mark ? open(mark, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	if (fd >= 0) {
		const char *line = refused ? "refused\n" : "linked\n";
		ssize_t n = write(fd, line, strlen(line));
		(void)n;
		close(fd);
	}
	if (refused) {
		errno = EPERM;
		return -1;
	}
	return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

int futimens(int fd, const struct timespec times[2])
{
	static futimens_fn real;
	if (!real)
		real = (futimens_fn)dlsym(RTLD_NEXT, "futimens");
	const char *want = getenv("SHIM_TIMES_FAIL");
	char path[PATH_MAX];
	if (want && *want && shim_fd_path(fd, path) >= 0 && strstr(path, want)) {
		errno = EIO;
		return -1;
	}
	return real(fd, times);
}
