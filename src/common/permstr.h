/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * permstr.h: the nine permission letters of ls -l ("rwsr-x--T"), shared by
 * sweep-find's -ls and %M, sweep-tar's listing and sweep-sync's %B.
 */
#ifndef SWEEP_PERMSTR_H
#define SWEEP_PERMSTR_H

#include <sys/types.h>

/* The letters of m's permission bits into out (nine and a NUL): r, w, x
 * or '-', and s/S, t/T where the set-ID and sticky bits are (lower case
 * with the execute bit under them). */
void perm_letters(mode_t m, char out[10]);

#endif
