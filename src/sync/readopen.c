/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * readopen.c: opening a file to read its bytes (to send them, or to
 * compare or sum them under -c) without moving its access time, as
 * libsweep opens the files of its walk: rsync's --open-noatime, always.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "sync.h"

/* openat(dirfd, name, flags) with O_NOATIME, which the kernel allows only
 * to the file's owner and root: for another's file (st, when known, says
 * whose it is: a failing call spared), without it. */
int sync_open_read(int dirfd, const char *name, int flags, const struct stat *st)
{
	uid_t euid = geteuid();
	if (!st || euid == 0 || euid == st->st_uid) {
		int fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd >= 0 || errno != EPERM)
			return fd;
	}
	return openat(dirfd, name, flags);
}
