/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xunlink.c: --recursive-unlink: a directory in the way of a member is
 * removed with everything below it before the member is extracted, as GNU
 * tar removes it. The walk goes through directory descriptors, never
 * following a symbolic link, so a tree of any depth is removed without
 * building its paths.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "extract.h"

static int remove_at(int dirfd, const char *name);

/* Remove what the open directory dfd holds (dfd is closed). Returns 0 or
 * -1 with errno set by the first failure. */
static int empty_dir(int dfd)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		int err = errno;
		close(dfd);
		errno = err;
		return -1;
	}
	int err = 0;
	struct dirent *de;
	while ((errno = 0, de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (remove_at(dirfd(d), de->d_name) < 0 && !err)
			err = errno;
	}
	if (errno && !err)
		err = errno;
	closedir(d);
	errno = err;
	return err ? -1 : 0;
}

/* Remove name in dirfd, a directory with its contents. */
static int remove_at(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) == 0)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	int dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	if (empty_dir(dfd) < 0)
		return -1;
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

int xunlink_tree(const char *name)
{
	return remove_at(AT_FDCWD, name);
}
