/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * modechange.h: chmod's octal and symbolic mode changes (modechange.c).
 */
#ifndef SWEEP_MODECHANGE_H
#define SWEEP_MODECHANGE_H

#include <stdbool.h>
#include <sys/types.h>

/* Apply changes to *mode (of a directory if dir), the bits of umask_bits
 * left out of clauses that name no "who". Returns false, with *mode
 * changed in part, when changes is not a mode. */
bool mode_change(const char *changes, mode_t umask_bits, bool dir, mode_t *mode);

#endif
