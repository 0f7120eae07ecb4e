/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * move-shim.c: an LD_PRELOAD shim for tests/du/moved-dir.sh. The first time
 * a program opens a directory named $MOVE_NAME, the directory is renamed to
 * $MOVE_TO just after the open succeeds: the race of a directory moved
 * while the walk reads it, made deterministic, and the same for GNU du and
 * sweep-du whatever calls either makes (shim-open.h; only opens with
 * O_DIRECTORY count).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void shim_before_open(int dirfd, const char *path, int flags)
{
	(void)dirfd, (void)path, (void)flags;
}

/* Just after the first successful opening of a directory named
 * $MOVE_NAME, it goes to $MOVE_TO. */
static void shim_after_open(int dirfd, const char *path, int flags, int fd)
{
	static int done;
	const char *name = getenv("MOVE_NAME"), *to = getenv("MOVE_TO");
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (done || fd < 0 || !(flags & O_DIRECTORY) || !name || !to || strcmp(base, name) != 0)
		return;
	done = 1;
	renameat(dirfd, path, AT_FDCWD, to);
}

#include "../shim-open.h"
