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
#include <fcntl.h>
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

static void shim_before_open(int dirfd, const char *path, int flags)
{
	swap(dirfd, path, flags);
}

static void shim_after_open(int dirfd, const char *path, int flags, int fd)
{
	(void)dirfd, (void)path, (void)flags, (void)fd;
}

#include "../shim-open.h"
