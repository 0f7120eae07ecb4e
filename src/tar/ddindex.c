/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ddindex.c: a dumpdir's entries looked up by name: -g's last snapshot
 * (is a file new to the dumps?) and -G's purge (what does the dump say of
 * a name on the disk?) each ask once for every file of a directory, which
 * may hold hundreds of thousands.
 */
#include <stdlib.h>
#include <string.h>
#include "tar.h"

static bool names_entry(const char *p)
{
	return *p == 'Y' || *p == 'N' || *p == 'D';
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a + 1, *(const char *const *)b + 1);
}

/* bsearch's: key a name, an element an entry */
static int name_vs_entry(const void *key, const void *elt)
{
	return strcmp(key, *(const char *const *)elt + 1);
}

int dd_index_make(struct dd_index *ix, const char *entries)
{
	size_t n = 0;
	for (const char *p = entries; *p; p += strlen(p) + 1)
		n += names_entry(p);
	ix->v = malloc((n ? n : 1) * sizeof(*ix->v));
	ix->n = 0;
	if (!ix->v)
		return -1;
	for (const char *p = entries; *p; p += strlen(p) + 1)
		if (names_entry(p))
			ix->v[ix->n++] = p;
	qsort(ix->v, ix->n, sizeof(*ix->v), by_name);
	return 0;
}

char dd_index_flag(const struct dd_index *ix, const char *name)
{
	const char *const *hit = bsearch(name, ix->v, ix->n, sizeof(*ix->v), name_vs_entry);
	return hit ? **hit : 0;
}

void dd_index_free(struct dd_index *ix)
{
	free(ix->v);
	ix->v = NULL;
	ix->n = 0;
}
