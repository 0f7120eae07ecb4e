/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * idcache.c: memoised getpwuid()/getgrgid(). Ids without a name are
 * remembered too, since asking again would cost the same lookup.
 */
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include "idcache.h"

/* Remember name (may be NULL) for id in map; returns the stored copy. */
static const char *remember(struct idcache *c, struct keymap *map, uint64_t id,
                            const char *name)
{
	uint64_t value = 0;
	char *copy = NULL;
	if (name) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 16;
			char **v = reallocarray(c->names, cap, sizeof(*v));
			if (!v)
				return NULL;
			c->names = v;
			c->cap = cap;
		}
		if (!(copy = strdup(name)))
			return NULL;
		c->names[c->n++] = copy;
		value = c->n;
	}
	if (keymap_put(map, id, 0, value) < 0)
		return NULL; /* copy stays owned by names[] */
	return copy;
}

const char *idcache_user(struct idcache *c, uid_t uid)
{
	uint64_t *v = keymap_get(&c->users, uid, 0);
	if (v)
		return *v ? c->names[*v - 1] : NULL;
	const struct passwd *pw = getpwuid(uid);
	return remember(c, &c->users, uid, pw ? pw->pw_name : NULL);
}

const char *idcache_group(struct idcache *c, gid_t gid)
{
	uint64_t *v = keymap_get(&c->groups, gid, 0);
	if (v)
		return *v ? c->names[*v - 1] : NULL;
	const struct group *gr = getgrgid(gid);
	return remember(c, &c->groups, gid, gr ? gr->gr_name : NULL);
}

void idcache_free(struct idcache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	keymap_free(&c->users);
	keymap_free(&c->groups);
	*c = (struct idcache)IDCACHE_INIT;
}
