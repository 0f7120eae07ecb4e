/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mode.c: -perm's mode argument: octal ("644") or chmod's symbolic clauses
 * ("u=rwx,g+w", "a-x,u+s"), applied to an empty mode with no umask
 * (src/common/modechange.c), once for files and once for directories,
 * since "X" adds execute permission only to directories (or where some
 * execute bit is already set).
 */
#include <stdbool.h>
#include <sys/stat.h>
#include "modechange.h"
#include "prim.h"

bool mode_parse(const char *s, mode_t out[2])
{
	out[0] = out[1] = 0;
	return mode_change(s, 0, false, &out[0]) && mode_change(s, 0, true, &out[1]);
}
