/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procfd.h: the name under /proc/self/fd by which a call that takes a path
 * reaches what a descriptor holds, one opened O_PATH too (the f* calls
 * refuse those, EBADF), without a name in the tree that could be swapped.
 */
#ifndef SWEEP_PROCFD_H
#define SWEEP_PROCFD_H

enum { PROCFD_NAME_MAX = 32 }; /* "/proc/self/fd/" and an int, with room */

/* fd's name, written into buf; returns buf. */
const char *procfd_name(int fd, char buf[PROCFD_NAME_MAX]);

#endif
