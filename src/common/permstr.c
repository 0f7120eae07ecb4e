/* SPDX-License-Identifier: BSD-2-Clause */
#include <sys/stat.h>
#include "permstr.h"

void perm_letters(mode_t m, char out[10])
{
	static const char rwx[] = "rwxrwxrwx";
	for (int i = 0; i < 9; i++)
		out[i] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[2] = m & S_IXUSR ? 's' : 'S';
	if (m & S_ISGID)
		out[5] = m & S_IXGRP ? 's' : 'S';
	if (m & S_ISVTX)
		out[8] = m & S_IXOTH ? 't' : 'T';
	out[9] = 0;
}
