/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * idcache.h: user and group names by id, looked up once each. Listings
 * (find -ls, %u, tar) ask for the same few ids over and over.
 */
#ifndef SWEEP_IDCACHE_H
#define SWEEP_IDCACHE_H

#include <sys/types.h>
#include "keymap.h"

struct idcache {
	struct keymap users;  /* uid -> index into names + 1, or 0: no name */
	struct keymap groups;
	char **names;
	size_t n, cap;
};

#define IDCACHE_INIT { KEYMAP_INIT, KEYMAP_INIT, NULL, 0, 0 }

/* The name of uid (gid), or NULL when it has none (or memory ran out). */
const char *idcache_user(struct idcache *c, uid_t uid);
const char *idcache_group(struct idcache *c, gid_t gid);

void idcache_free(struct idcache *c);

#endif
