/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procfd.c: a descriptor's name under /proc/self/fd.
 */
#include <stdio.h>
#include "procfd.h"

const char *procfd_name(int fd, char buf[PROCFD_NAME_MAX])
{
	snprintf(buf, PROCFD_NAME_MAX, "/proc/self/fd/%d", fd);
	return buf;
}
