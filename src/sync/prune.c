/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prune.c: -m, --prune-empty-dirs: the source's directories that hold
 * nothing but directories, down to the bottom, left out of the transfer.
 *
 * rsync prunes them from its file list once the list is made; sweep-sync
 * sends each directory as its walk meets it, before it knows what lies
 * below, so the sending side first walks the source tree (metadata only,
 * which also warms the caches for the transfer's own walk) and keeps the
 * directories that hold, at any depth, a name its filters send that is
 * not a directory (a link or a device counts, sent or skipped later,
 * as in rsync's list), or that a receiver's rule protects (rsync's way
 * to keep an empty directory). The others are hidden as an exclude hides
 * them, but not protected: in rsync they are not in the list, so --delete
 * removes what DEST has of them (unless another SRC brings the name: its
 * directory is in rsync's one list). A directory the scan did not meet
 * (made since) is not hidden, nor one it could not read, whose error
 * turns deletion off for the whole run before anything is deleted, as
 * rsync's I/O errors do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"
#include "walkenv.h"

/* A directory of the scan: its parent's id (0: the root) and identity. */
struct scan_dir {
	uint64_t parent;
	dev_t dev;
	ino_t ino;
};

struct scan {
	struct sync *s;
	size_t rootlen;
	struct keymap dirs;      /* libsweep's id -> scan_dir, by index + 1 */
	struct scan_dir *v;
	size_t n, cap;
};

/* The path of e for the filters, as the transfer names it. */
static const char *rel_of(struct scan *t, const struct sweep_entry *e)
{
	const char *rel = e->depth ? e->path + t->rootlen : "";
	while (*rel == '/')
		rel++;
	return sync_relname(t->s, rel);
}

static enum sweep_verdict scan_filter(const struct sweep_entry *e, void *arg)
{
	struct scan *t = arg;
	if (t->s->timeout)
		sync_alive(t->s); /* the far end waits meanwhile */
	if (e->depth == 0) {
		t->s->src_dev = e->st.st_dev; /* -xx's mount points, as decide.c */
		return SWEEP_KEEP;
	}
	if (sync_mount_point(t->s, &e->st, e->depth))
		return SWEEP_PRUNE;
	bool dir = S_ISDIR(e->st.st_mode);
	return filter_excluded(t->s, rel_of(t, e), dir) ? SWEEP_PRUNE : SWEEP_KEEP;
}

/* Keeps directory id and those above it, up to one kept before. */
static int keep_up(struct scan *t, uint64_t id)
{
	while (id) {
		uint64_t *i = keymap_get(&t->dirs, id, 0);
		if (!i)
			return 0;
		struct scan_dir *d = &t->v[*i - 1];
		uint64_t *kept = keymap_get(&t->s->prune_kept, (uint64_t)d->dev, (uint64_t)d->ino);
		if (kept && *kept)
			return 0;
		if (keymap_put(&t->s->prune_kept, (uint64_t)d->dev, (uint64_t)d->ino, 1) < 0)
			return -1;
		id = d->parent;
	}
	return 0;
}

static int note_dir(struct scan *t, const struct sweep_entry *e)
{
	struct scan_dir d = { e->depth ? e->parent_id : 0, e->st.st_dev, e->st.st_ino };
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct scan_dir *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = d;
	if (keymap_put(&t->dirs, e->dir_id, 0, t->n) < 0)
		return -1;
	/* met: hidden unless something keeps it (0); one met twice (-L)
	 * keeps what it had */
	if (!keymap_get(&t->s->prune_kept, (uint64_t)d.dev, (uint64_t)d.ino) &&
	    keymap_put(&t->s->prune_kept, (uint64_t)d.dev, (uint64_t)d.ino, 0) < 0)
		return -1;
	/* rsync's way to keep one: a receiver's rule that protects it */
	if (e->depth && filter_protected(t->s, rel_of(t, e), true, false))
		return keep_up(t, e->dir_id);
	return 0;
}

/* Scans one SRC into s->prune_kept; 0 or -1 (no memory). */
static int scan_one(struct sync *s, const char *src)
{
	struct scan t = { .s = s, .rootlen = strlen(src) };
	struct sweep_options so = {
		.follow = s->copy_links ? SWEEP_FOLLOW_ALL : SWEEP_FOLLOW_NONE,
		.flags = SWEEP_NODATA | SWEEP_NOSTAT | (s->one_fs ? SWEEP_XDEV : 0) | walkenv_flags(),
		.filter = scan_filter,
		.filter_arg = &t,
	};
	walkenv_read(&so.order, &so.warm);
	struct sweep *sw = sweep_open(NULL, &so);
	int r = sw && sweep_add_root(sw, AT_FDCWD, src) == 0 ? 0 : -1;
	const struct sweep_entry *e;
	while (r == 0 && (e = sweep_next(sw)) != NULL) {
		if (e->kind == SWEEP_DIR)
			r = note_dir(&t, e);
		else if (e->kind == SWEEP_ERROR && e->op == SWEEP_OP_READDIR)
			r = keep_up(&t, e->dir_id); /* for the transfer to meet */
		else if (e->depth)
			r = keep_up(&t, e->parent_id); /* a name, or one not stat-ed */
		/* An error the transfer will meet (or -L's link to nowhere) is
		 * known now: nothing is deleted from the start (without -m the
		 * transfer's deletions stop only once it meets it). What could
		 * not be read is kept, for the transfer to say its error (rsync
		 * prunes it, the error said by its scan: only an empty directory
		 * more here). */
		if ((e->kind == SWEEP_ERROR && e->error != ENOENT) ||
		    (s->copy_links && e->kind != SWEEP_ERROR && S_ISLNK(e->st.st_mode)))
			s->io_error = true;
	}
	sweep_close(sw);
	keymap_free(&t.dirs);
	free(t.v);
	return r;
}

/* Every SRC is scanned before the first is sent: rsync prunes its one
 * list, so a directory that one SRC has empty and another does not, or
 * that one lacks, is kept from --delete by the other's (delete.c asks
 * whether another SRC has a name). Each under its own name for the
 * filters, as sync_place() names it. */
void prune_scan(struct sync *s, char **srcs, int nsrc)
{
	keymap_free(&s->prune_kept);
	s->prune_ready = false;
	if (!s->prune_empty || !s->recursive) /* without -r: nothing below */
		return;
	struct strbuf base = STRBUF_INIT;
	const char *prefix = s->prefix;
	int r = 0;
	for (int i = 0; r == 0 && i < nsrc; i++) {
		struct stat st;
		if (lstat(srcs[i], &st) < 0)
			continue; /* said by the transfer */
		r = sb_last_component(&base, srcs[i]);
		s->prefix = sync_is_contents(srcs[i]) ? "" : sb_str(&base);
		if (r == 0)
			r = scan_one(s, srcs[i]);
	}
	s->prefix = prefix;
	sb_free(&base);
	/* a scan that failed (no memory) prunes nothing */
	s->prune_ready = r == 0;
}

bool sender_hides(const struct sync *s, const char *path, const struct stat *st, int depth)
{
	return filter_excluded(s, path, S_ISDIR(st->st_mode)) || prune_hides(s, st, depth);
}

/* The root of a SRC named without its trailing slash is in rsync's list
 * as a directory like any other, and pruned as one; SRC/'s is ".". */
bool prune_hides(const struct sync *s, const struct stat *st, int depth)
{
	if (!s->prune_ready || !(depth > 0 || *s->prefix) || !S_ISDIR(st->st_mode))
		return false;
	const uint64_t *kept = keymap_get(&s->prune_kept, (uint64_t)st->st_dev,
	                                  (uint64_t)st->st_ino);
	return kept && !*kept;
}
