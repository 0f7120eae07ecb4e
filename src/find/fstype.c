/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fstype.c: the type of the file system a file is on (-fstype, and %F of
 * -printf), from the mount table (/proc/self/mountinfo), read once, the
 * first time it is asked for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "fstype.h"
#include "prim.h"

struct fstypes {
	struct keymap devs; /* device number -> index + 1 into names */
	char **names;
	size_t n, cap;
	bool loaded;
};

/* Remember that device dev carries a file system of type name. */
static void add(struct fstypes *t, dev_t dev, const char *name)
{
	if (keymap_get(&t->devs, dev, 0))
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		char **v = reallocarray(t->names, cap, sizeof(*v));
		if (!v)
			return;
		t->names = v;
		t->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return;
	if (keymap_put(&t->devs, dev, 0, t->n + 1) < 0) {
		free(copy);
		return;
	}
	t->names[t->n++] = copy;
}

/* "36 35 98:0 /root /mnt opts [optional...] - type source superopts" */
static void load(struct fstypes *t)
{
	t->loaded = true;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	if (!fp)
		return;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, fp) > 0) {
		unsigned maj, min;
		const char *sep = strstr(line, " - ");
		char type[256];
		if (sscanf(line, "%*s %*s %u:%u", &maj, &min) == 2 && sep &&
		    sscanf(sep + 3, "%255s", type) == 1)
			add(t, makedev(maj, min), type);
	}
	free(line);
	fclose(fp);
}

const char *fstype_of(struct fstypes **tp, dev_t dev)
{
	if (!*tp && !(*tp = calloc(1, sizeof(**tp))))
		return "unknown";
	struct fstypes *t = *tp;
	if (!t->loaded)
		load(t);
	uint64_t *v = keymap_get(&t->devs, dev, 0);
	return v ? t->names[*v - 1] : "unknown";
}

void fstype_free(struct fstypes *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	keymap_free(&t->devs);
	free(t);
}

static bool eval_fstype(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	return st && strcmp(fstype_of(&f->fstypes, st->st_dev), x->a.fstype) == 0;
}

int parse_fstype(struct parser *p, struct expr *x)
{
	if (!(x->a.fstype = parser_arg(p, x->name)))
		return 1;
	x->eval = eval_fstype;
	x->needs = NEED_STAT;
	return 0;
}
