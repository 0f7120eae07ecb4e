/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shim-fd.h: for the tests' LD_PRELOAD shims (faults/eio-shim.c,
 * sync/stall-shim.c), the name of the file behind a descriptor.
 */
#ifndef SWEEP_SHIM_FD_H
#define SWEEP_SHIM_FD_H

#include <limits.h>
#include <stdio.h>
#include <unistd.h>

/* fd's file name, from /proc, into path (PATH_MAX bytes); its length, or -1. */
static ssize_t shim_fd_path(int fd, char path[PATH_MAX])
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, PATH_MAX - 1);
	if (n >= 0)
		path[n] = 0;
	return n;
}

#endif
