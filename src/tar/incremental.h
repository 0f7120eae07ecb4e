/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * incremental.h: -g/--listed-incremental on create, shared by
 * incremental.c (which files, the dumpdirs), snapshot.c (the snapshot
 * file) and dumpdir.c (GNU's 'D' members, written as raw blocks).
 */
#ifndef SWEEP_TAR_INCREMENTAL_H
#define SWEEP_TAR_INCREMENTAL_H

#include "create.h"

/* A directory of the snapshot file the dump goes on from. */
struct snap_dir {
	const char *name;           /* in struct snapshot's data */
	uint64_t dev, ino;
	const char *entries;        /* its dumpdir's, flag and name each, to an
	                               empty one (in the data too) */
	struct dd_index index;      /* and those sorted, once looked in */
	bool indexed;
};

struct snapshot {
	struct timespec prev;       /* when the dump it describes began */
	bool have_prev;
	struct snap_dir *v;         /* sorted by name */
	size_t n, cap;
	char *data;                 /* the file as read */
};

struct incremental {
	struct snapshot old;
	struct timespec start;      /* when this dump began */
	struct keymap parents;      /* directory id -> 1: in the snapshot, 2: new */
	struct strbuf dumpdir;      /* the dumpdir being written */
	struct strbuf records;      /* the new snapshot's directory records */
	struct strbuf scratch;
	struct strbuf renames;      /* -v: the renames said: old, NUL, new, NUL */
	bool no_check_device;       /* --no-check-device: a directory is known by
	                               its inode alone */
	bool unwritten;             /* the file could not be opened: a full
	                               dump, the file left as it is */
};

/* snapshot.c: read file into s (no such file, or an empty one: nothing
 * before). Returns 0, or -1 (fatal, reported). The directory named name,
 * or NULL. */
int snapshot_load(struct tar *t, struct snapshot *s, const char *file);
struct snap_dir *snapshot_find(const struct snapshot *s, const char *name);
/* Whether the dumpdir of d (NULL: none) lists name, whatever its flag. */
bool snapshot_lists(struct snap_dir *d, const char *name);
void snapshot_free(struct snapshot *s);

/* dumpdir.c: write the 'D' member of directory e as member, its header's
 * other fields from cr->entry (filled), its data cr->inc->dumpdir; list it
 * under -v. Returns as create_write_header(). */
int dumpdir_write(struct create *cr, const struct sweep_entry *e, const char *member);

#endif
