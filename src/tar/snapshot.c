/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snapshot.c: --listed-incremental's snapshot file, in GNU tar's format 2,
 * so that GNU tar and sweep-tar can each go on from the other's:
 *
 *   GNU tar-VERSION-2 '\n'
 *   SECONDS NUL NANOSECONDS NUL            when the dump began
 *   then for each directory of the dump:
 *   NFS NUL MTIME-SEC NUL MTIME-NSEC NUL DEV NUL INO NUL NAME NUL
 *   ENTRY NUL ... NUL NUL                  its dumpdir entries (Y, N, D
 *                                          and the name) and two NULs
 *
 * Reading keeps what the next dump needs: the time, and each directory's
 * name, device, inode and entries, looked up by name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incremental.h"

/* The whole file at name into *data (NUL-terminated; *len without it).
 * Returns 0, 1 when there is no such file, or -1 with errno set. */
static int read_all(const char *name, char **data, size_t *len)
{
	FILE *f = fopen(name, "rb");
	if (!f)
		return errno == ENOENT ? 1 : -1;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (sb_add(&sb, buf, n) < 0)
			break;
	int err = ferror(f) ? errno : n ? ENOMEM : 0;
	fclose(f);
	if (err || sb_reserve(&sb, 1) < 0) {
		sb_free(&sb);
		errno = err ? err : ENOMEM;
		return -1;
	}
	sb.s[sb.len] = 0;
	*data = sb.s;
	*len = sb.len;
	return 0;
}

/* The next NUL-terminated field at *p before end, or NULL at the end. */
static const char *field(const char **p, const char *end)
{
	if (*p >= end)
		return NULL;
	const char *f = *p;
	*p += strlen(f) + 1;
	return f;
}

static bool number(const char *s, uint64_t *v)
{
	char *e;
	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return !errno && !*e;
}

static int add_dir(struct snapshot *s, struct snap_dir d)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct snap_dir *v = reallocarray(s->v, cap, sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = d;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct snap_dir *)a)->name, ((const struct snap_dir *)b)->name);
}

/* The records after the format line. Returns 0, or -1 when they are not
 * format 2's (errno 0) or memory ran out (ENOMEM). */
static int parse_records(struct snapshot *s, const char *p, const char *end)
{
	uint64_t sec, nsec;
	if (!number(field(&p, end), &sec) || !number(field(&p, end), &nsec))
		return errno = 0, -1;
	s->prev = (struct timespec){ (time_t)sec, (long)nsec };
	while (p < end) {
		const char *nfs = field(&p, end);
		uint64_t msec, mnsec, dev, ino;
		if (!nfs || !number(field(&p, end), &msec) || !number(field(&p, end), &mnsec) ||
		    !number(field(&p, end), &dev) || !number(field(&p, end), &ino))
			return errno = 0, -1;
		const char *name = field(&p, end);
		if (!name)
			return errno = 0, -1;
		const char *entries = p, *entry;
		while ((entry = field(&p, end)) != NULL && *entry)
			;
		if (!entry || !field(&p, end))
			return errno = 0, -1;
		struct snap_dir d = { .name = name, .dev = dev, .ino = ino, .entries = entries };
		if (add_dir(s, d) < 0)
			return errno = ENOMEM, -1;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_name);
	return 0;
}

int snapshot_load(struct tar *t, struct snapshot *s, const char *file)
{
	size_t len;
	int r = read_all(file, &s->data, &len);
	if (r != 0) {
		if (r < 0)
			tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, file));
		return r < 0 ? -1 : 0;
	}
	/* an empty file, as a level-0 dump leaves it: nothing before */
	if (len == 0)
		return 0;
	const char *nl = memchr(s->data, '\n', len);
	if (!nl || strncmp(s->data, "GNU tar-", 8) != 0 || nl - s->data < 2 ||
	    strncmp(nl - 2, "-2", 2) != 0) {
		tar_fatal(t, 0, "%s: Unsupported incremental format (sweep-tar reads GNU "
		                "tar's format 2 only)", tq(t, 0, file));
		return -1;
	}
	if (parse_records(s, nl + 1, s->data + len) < 0) {
		if (errno == ENOMEM)
			tar_fatal(t, ENOMEM, "memory exhausted");
		else
			tar_fatal(t, 0, "%s: Bad incremental file format", tq(t, 0, file));
		return -1;
	}
	s->have_prev = true;
	return 0;
}

struct snap_dir *snapshot_find(const struct snapshot *s, const char *name)
{
	struct snap_dir key = { .name = name };
	return s->n ? bsearch(&key, s->v, s->n, sizeof(*s->v), by_name) : NULL;
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		dd_index_free(&s->v[i].index);
	free(s->v);
	free(s->data);
	*s = (struct snapshot){ 0 };
}

bool snapshot_lists(struct snap_dir *d, const char *name)
{
	if (!d)
		return false;
	if (!d->indexed && dd_index_make(&d->index, d->entries) == 0)
		d->indexed = true;
	if (d->indexed)
		return dd_index_flag(&d->index, name) != 0;
	for (const char *p = d->entries; *p; p += strlen(p) + 1) /* (without memory) */
		if (strcmp(p + 1, name) == 0)
			return true;
	return false;
}
