/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fstype.h: file system types by device, for -printf's %F (fstype.c).
 */
#ifndef SWEEP_FIND_FSTYPE_H
#define SWEEP_FIND_FSTYPE_H

#include <sys/types.h>
#include "keymap.h"

struct fstypes;

/* The type of the file system on dev ("ext4", "tmpfs"), or "unknown";
 * *t is created on first use. */
const char *fstype_of(struct fstypes **t, dev_t dev);
void fstype_free(struct fstypes *t);

#endif
