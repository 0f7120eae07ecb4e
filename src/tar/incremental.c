/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * incremental.c: -g/--listed-incremental on create, GNU tar's incremental
 * format, so that GNU tar's "tar -xG" restores the dumps in order, files
 * removed and renamed included.
 *
 * Every directory is stored as a 'D' member whose data, the dumpdir, lists
 * what the directory holds: 'Y' a file stored in this archive, 'N' one
 * unchanged since the dump the snapshot file describes (left out), 'D' a
 * directory. GNU tar, extracting the member with -G, removes from the disk
 * what the dumpdir does not list: the files removed since. A file is
 * unchanged when its directory is in the snapshot (same name, device and
 * inode) and neither its data nor its status changed since that dump
 * began; in a directory that is new, or was renamed (here the same as
 * new: its files are all stored again), every file is stored.
 *
 * GNU tar needs a directory's member before what it holds: extracting it,
 * GNU tar makes way for it (a file of that name, left from the dump
 * before, is removed by its parent's dumpdir, which comes first). So under
 * -g each directory's member is written as the walk meets the directory,
 * not after its contents as otherwise, its entries read then (the walk's
 * own reading comes later, in disk order); those unchanged are left out
 * again at the walk's filter by the same test. The dumpdirs also go, one
 * record a directory, into the new snapshot file, written at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "incremental.h"

static int nomem(struct create *cr)
{
	tar_fatal(cr->t, ENOMEM, "memory exhausted");
	return -1;
}

int incr_start(struct create *cr)
{
	struct tar *t = cr->t;
	if (!t->opt.listed_incremental)
		return 0;
	struct incremental *inc = cr->inc = calloc(1, sizeof(*cr->inc));
	if (!inc)
		return nomem(cr);
	clock_gettime(CLOCK_REALTIME, &inc->start);
	inc->no_check_device = t->opt.no_check_device;
	/* GNU tar opens the file to read and write before the dump: where it
	 * cannot, it says so and makes a full dump all the same (a backup,
	 * exit 2), the file left as it is */
	int fd = open(t->opt.listed_incremental, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT) {
		tar_error(t, errno, "%s: Cannot open", tq(t, 0, t->opt.listed_incremental));
		inc->unwritten = true;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	/* --level=0: a full dump, whatever the file says */
	if (t->opt.level == 0)
		return 0;
	return snapshot_load(t, &inc->old, t->opt.listed_incremental);
}

/* path without its trailing slashes (n bytes of it), into sb. */
static int bare_path(struct strbuf *sb, const char *path, size_t n)
{
	while (n > 1 && path[n - 1] == '/')
		n--;
	sb_reset(sb);
	return sb_add(sb, path, n) < 0 || sb_addc(sb, 0) < 0 ? -1 : 0;
}

/* Whether the snapshot's directory d is the one of st (--no-check-device:
 * whatever its device number, which a remount may change). */
static bool same_dir(const struct incremental *inc, const struct snap_dir *d,
                     const struct stat *st)
{
	return (inc->no_check_device || d->dev == (uint64_t)st->st_dev) &&
	       d->ino == (uint64_t)st->st_ino;
}

/* The snapshot's directory at path, when it is the one of st, or NULL. */
static struct snap_dir *old_dir(struct incremental *inc, const char *path, size_t n,
                                const struct stat *st)
{
	if (!inc->old.n || bare_path(&inc->scratch, path, n) < 0)
		return NULL;
	struct snap_dir *d = snapshot_find(&inc->old, inc->scratch.s);
	return d && same_dir(inc, d, st) ? d : NULL;
}

/* The snapshot's directory of e's parent, or NULL; looked up once (the
 * parent's id -> its index + 2, or 1: none). */
static struct snap_dir *parent_dir(struct incremental *inc, const struct sweep_entry *e)
{
	uint64_t *v = keymap_get(&inc->parents, e->parent_id, 0);
	if (v)
		return *v > 1 ? &inc->old.v[*v - 2] : NULL;
	struct stat st;
	size_t n = e->pathlen - strlen(e->name);
	struct snap_dir *d = n > 0 && fstat(e->dirfd, &st) == 0
	                           ? old_dir(inc, e->path, n - 1, &st) : NULL;
	/* failing to remember costs only another look */
	keymap_put(&inc->parents, e->parent_id, 0, d ? (uint64_t)(d - inc->old.v) + 2 : 1);
	return d;
}

static bool older(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Whether file name of st, in directory d of the snapshot (or NULL), is
 * left out: unchanged since the dump began, and listed in d's dumpdir (one
 * it did not list, left out of it by a tag then, is new to the dumps). */
static bool unchanged(const struct incremental *inc, struct snap_dir *d,
                      const char *name, const struct stat *st)
{
	return d && inc->old.have_prev && older(&st->st_mtim, &inc->old.prev) &&
	       older(&st->st_ctim, &inc->old.prev) && snapshot_lists(d, name);
}

enum sweep_verdict incr_filter(struct create *cr, const struct sweep_entry *e)
{
	struct incremental *inc = cr->inc;
	if (!inc || (e->flags & SWEEP_E_ROOT))
		return SWEEP_KEEP;
	/* --no-recursion: a named directory's files are dumped, not what
	 * its directories hold, as in GNU tar (the dumpdir says 'N') */
	if (S_ISDIR(e->st.st_mode)) {
		struct tar_scope sc;
		scope_of(cr, e, &sc);
		return sc.no_recursion ? SWEEP_PRUNE : SWEEP_KEEP;
	}
	return unchanged(inc, parent_dir(inc, e), e->name, &e->st) ? SWEEP_PRUNE : SWEEP_KEEP;
}

/* The flag of name (of st) in directory e's dumpdir, or 0 when memory ran
 * out. What the walk leaves out (excluded, a socket, the archive) is 'N',
 * as in GNU tar: extracting, it stays where it is. */
static char entry_flag(struct create *cr, const struct sweep_entry *e, const char *name,
                       const struct stat *st, struct snap_dir *old, bool no_recursion)
{
	struct incremental *inc = cr->inc;
	if (S_ISSOCK(st->st_mode) || (cr->archive_is_file && st->st_dev == cr->archive_st.st_dev &&
	                              st->st_ino == cr->archive_st.st_ino))
		return 'N';
	if (cr->t->opt.exclude.n) {
		sb_reset(&inc->scratch);
		if (sb_add(&inc->scratch, e->path, e->pathlen) < 0 || sb_addc(&inc->scratch, '/') < 0 ||
		    sb_addstr(&inc->scratch, name) < 0)
			return 0;
		if (scope_excluded(cr, e, inc->scratch.s))
			return 'N';
	}
	if (S_ISDIR(st->st_mode))
		return no_recursion ? 'N' : 'D';
	return unchanged(inc, old, name, st) ? 'N' : 'Y';
}

/* What directory e holds, read now, as flag, name, NUL each into list;
 * what a tag leaves out is not listed, but for the tag, as in GNU tar (so
 * that once the tag is gone it is new to the next dump). Returns 0, or -1
 * with errno set. */
static int read_entries(struct create *cr, const struct sweep_entry *e,
                        struct snap_dir *old, struct strbuf *list)
{
	struct tar_scope sc;
	scope_of(cr, e, &sc);
	const struct tar_tag *tag = tags_find(cr, e);
	int follow = cr->t->opt.dereference ? 0 : AT_SYMLINK_NOFOLLOW;
	int fd = openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		errno = err;
		return -1;
	}
	struct dirent *de;
	int r = 0;
	while (r == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
		    (tag && strcmp(de->d_name, tag->name) != 0) ||
		    fstatat(dirfd(d), de->d_name, &st, follow) < 0)
			continue;
		/* (--exclude-tag-under: the tag alone, not dumped, as GNU lists it) */
		char flag = tag && tag->scope == TAG_UNDER
		            ? 'N' : entry_flag(cr, e, de->d_name, &st, old, sc.no_recursion);
		if (!flag || sb_addc(list, flag) < 0 ||
		    sb_add(list, de->d_name, strlen(de->d_name) + 1) < 0) {
			errno = ENOMEM;
			r = -1;
		}
	}
	closedir(d);
	return r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a + 1, *(const char *const *)b + 1);
}

/* The dumpdir of list into inc->dumpdir: its entries sorted by name, and a
 * NUL after the last. Returns 0 or -1 (ENOMEM). */
static int make_dumpdir(struct incremental *inc, const struct strbuf *list)
{
	size_t n = 0;
	for (size_t off = 0; off < list->len; off += strlen(list->s + off) + 1)
		n++;
	const char **sorted = calloc(n ? n : 1, sizeof(*sorted));
	if (!sorted)
		return -1;
	n = 0;
	for (size_t off = 0; off < list->len; off += strlen(list->s + off) + 1)
		sorted[n++] = list->s + off;
	qsort(sorted, n, sizeof(*sorted), by_name);
	sb_reset(&inc->dumpdir);
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = sb_add(&inc->dumpdir, sorted[i], strlen(sorted[i]) + 1);
	free(sorted);
	return r < 0 ? -1 : sb_addc(&inc->dumpdir, 0);
}

/* The snapshot record of directory e, its dumpdir made. */
static int add_record(struct incremental *inc, const struct sweep_entry *e)
{
	if (bare_path(&inc->scratch, e->path, e->pathlen) < 0 ||
	    sb_printf(&inc->records, "0%c%jd%c%ld%c%ju%c%ju%c", 0, (intmax_t)e->st.st_mtim.tv_sec, 0,
	              e->st.st_mtim.tv_nsec, 0, (uintmax_t)e->st.st_dev, 0,
	              (uintmax_t)e->st.st_ino, 0) < 0)
		return -1;
	if (sb_add(&inc->records, inc->scratch.s, inc->scratch.len) < 0 ||
	    sb_add(&inc->records, inc->dumpdir.s, inc->dumpdir.len) < 0)
		return -1;
	return sb_addc(&inc->records, 0);
}

/* Whether the rename of old to now only follows one said before, of a
 * directory above it (inc->renames: old, NUL, new, NUL, ...). */
static bool implied(const struct incremental *inc, const char *old, const char *now)
{
	const char *p = sb_str(&inc->renames), *end = p + inc->renames.len;
	while (p < end) {
		const char *to = p + strlen(p) + 1;
		size_t a = strlen(p), b = strlen(to);
		if (strncmp(old, p, a) == 0 && old[a] == '/' && strncmp(now, to, b) == 0 &&
		    now[b] == '/' && strcmp(old + a, now + b) == 0)
			return true;
		p = to + b + 1;
	}
	return false;
}

/* GNU tar's note (-v) on a directory not in the snapshot: new, or found
 * there under another name (renamed: stored whole here all the same), but
 * not when a directory above it was. */
static void say_new(struct tar *t, struct incremental *inc, const struct sweep_entry *e)
{
	if (bare_path(&inc->scratch, e->path, e->pathlen) < 0)
		return;
	const char *now = inc->scratch.s;
	for (size_t i = 0; i < inc->old.n; i++) {
		const struct snap_dir *d = &inc->old.v[i];
		if (!same_dir(inc, d, &e->st))
			continue;
		if (!implied(inc, d->name, now))
			tar_warn(t, 0, "%s: Directory has been renamed from %s", tq(t, 0, e->path),
			         diag_quote_style(t->diag, 1, QUOTE_LOCALE, d->name));
		/* failing to remember only says more */
		if (sb_add(&inc->renames, d->name, strlen(d->name) + 1) == 0)
			sb_add(&inc->renames, now, strlen(now) + 1);
		return;
	}
	tar_warn(t, 0, "%s: Directory is new", tq(t, 0, e->path));
}

int incr_put_dir(struct create *cr, const struct sweep_entry *e, const char *member)
{
	struct incremental *inc = cr->inc;
	struct tar *t = cr->t;
	struct snap_dir *old = old_dir(inc, e->path, e->pathlen, &e->st);
	if (t->opt.verbose && !old)
		say_new(t, inc, e);
	struct strbuf list = STRBUF_INIT;
	int r = 0;
	/* --one-file-system: a directory on another one is stored holding
	 * nothing, as GNU tar stores it (so -G empties it, as GNU's does) */
	if (e->flags & SWEEP_E_XDEV)
		tar_warn(t, 0, "%s: directory is on a different filesystem; not dumped",
		         tq(t, 0, e->path));
	else
		r = read_entries(cr, e, old, &list);
	if (r < 0 && errno != ENOMEM) {
		/* not stored: the walk says why when it reads the directory */
		sb_free(&list);
		return 0;
	}
	if (r < 0 || make_dumpdir(inc, &list) < 0 || add_record(inc, e) < 0) {
		sb_free(&list);
		return nomem(cr);
	}
	sb_free(&list);
	return dumpdir_write(cr, e, member);
}

void incr_finish(struct create *cr)
{
	struct incremental *inc = cr->inc;
	struct tar *t = cr->t;
	if (!inc || t->fatal || inc->unwritten)
		return;
	const char *file = t->opt.listed_incremental;
	FILE *f = fopen(file, "wb");
	if (!f) {
		tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, file));
		return;
	}
	/* GNU tar reads a format line that names itself, then the format */
	fprintf(f, "GNU tar-1.34-2\n%jd%c%ld%c", (intmax_t)inc->start.tv_sec, 0,
	        inc->start.tv_nsec, 0);
	fwrite(inc->records.s ? inc->records.s : "", 1, inc->records.len, f);
	if (ferror(f) | (fclose(f) != 0))
		tar_fatal(t, errno, "%s: Cannot write", tq(t, 0, file));
}

void incr_free(struct create *cr)
{
	struct incremental *inc = cr->inc;
	if (!inc)
		return;
	snapshot_free(&inc->old);
	keymap_free(&inc->parents);
	sb_free(&inc->dumpdir);
	sb_free(&inc->records);
	sb_free(&inc->scratch);
	sb_free(&inc->renames);
	free(inc);
	cr->inc = NULL;
}
