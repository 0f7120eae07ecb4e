/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * removesrc.c: --remove-source-files, rsync's way of moving a tree: each
 * source non-directory goes once its copy is whole at DEST, or was found
 * there already (up to date, or linked to its first name). Not when the
 * copy failed or was left out, nor under -n; directories stay.
 *
 * As rsync's sender, the file is looked at again first: one whose size or
 * modification time moved since it was read is still being written (the
 * copy may hold an older part of it), and one that is the destination's
 * own file (SRC and DEST the same tree) would lose the only copy: both are
 * said and kept, exit 23.
 *
 * A removal waits for the end of the run where the walk may still meet
 * the file, or its inode number: under -H a file of several names (the
 * walk finds a later name to be another name of it by its link count,
 * which a removal would lower, and a freed inode number may come back as
 * another file's), and every file under -L (a link to it may come later),
 * with several SRCs (they may overlap, or name one file twice) or with
 * --files-from (-R). Those are kept meanwhile (their root, path below it,
 * name as shown and what was read of them), no more than rsync's list
 * holds; they are removed through their directories, never through a link
 * (a directory -L went through is not the source's to remove from).
 * Otherwise a file goes as soon as its copy is whole: memory stays
 * bounded by the walk, not by the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool changed(const struct stat *now, const struct stat *read)
{
	return now->st_size != read->st_size || now->st_mtim.tv_sec != read->st_mtim.tv_sec ||
	       now->st_mtim.tv_nsec != read->st_mtim.tv_nsec;
}

/* rsync's FERROR_XFER line without an errno: said as it says it, 23. */
static void refused(struct sync *s, const char *why, const char *rel)
{
	fflush(stdout);
	fprintf(stderr, "ERROR: Skipping sender remove %s: ", why);
	report_name(s, stderr, rel);
	putc('\n', stderr);
	report_log(s, "ERROR: Skipping sender remove %s: %s", why, rel);
	s->partial = true;
}

static void failed(struct sync *s, const char *op, const char *rel, int err)
{
	if (err == ENOENT) { /* gone already: what was wanted (rsync's info,
	                      * which -q silences) */
		if (s->quiet)
			return;
		fputs("sender file already removed: ", stdout);
		report_name(s, stdout, rel);
		putchar('\n');
		return;
	}
	report_error(s, err, "[sender] sender failed to %s %s", op, rel);
}

void sync_removal_refused(struct sync *s, const char *rel)
{
	refused(s, "of destination file", rel);
}

int sync_remove_source(struct sync *s, int dirfd, const char *name, const char *rel,
                       const struct stat *read)
{
	struct stat now;
	if (fstatat(dirfd, name, &now, s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW) < 0) {
		failed(s, "re-lstat", rel, errno);
		return -1;
	}
	if (changed(&now, read)) {
		refused(s, "for changed file", rel);
		return -1;
	}
	if (unlinkat(dirfd, name, 0) < 0) {
		failed(s, "remove", rel, errno);
		return -1;
	}
	if (s->info[INFO_REMOVE] >= 1) {
		fputs("sender removed ", stdout);
		report_name(s, stdout, rel);
		putchar('\n');
	}
	return 0;
}

/* What a later removal checks of a file, kept after its names. */
struct read_stamp {
	int64_t size, sec, nsec;
};

static int keep_into(struct strbuf *b, const char *root, const char *rel, const char *shown,
                     const struct stat *st)
{
	struct read_stamp r = { st->st_size, st->st_mtim.tv_sec, st->st_mtim.tv_nsec };
	return sb_add(b, root, strlen(root) + 1) < 0 || sb_add(b, rel, strlen(rel) + 1) < 0 ||
	               sb_add(b, shown, strlen(shown) + 1) < 0 || sb_add(b, &r, sizeof(r)) < 0
	           ? -1
	           : 0;
}

int sync_removal_keep(struct sync *s, const char *root, const char *rel, const char *shown,
                      const struct stat *st)
{
	return keep_into(&s->removals, root, rel, shown, st);
}

/* The tree's root as e's path names it (e->path is the root, then rel). */
static char *root_of(const struct sweep_entry *e, const char *rel)
{
	size_t n = e->pathlen - strlen(rel);
	if (*rel)
		while (n > 1 && e->path[n - 1] == '/')
			n--;
	return strndup(e->path, n);
}

/* --remove-sent-files keeps what rsync 3.5 keeps under it: a file found
 * up to date, and a device, fifo or socket (made, not sent); a link goes. */
bool sync_not_sent(const struct sweep_entry *e, const struct stat *dst)
{
	mode_t m = e->st.st_mode;
	return dst || S_ISCHR(m) || S_ISBLK(m) || S_ISFIFO(m) || S_ISSOCK(m);
}

void sync_source_done(void *arg, const struct sweep_entry *e, const char *rel,
                      const struct stat *dst)
{
	struct sync *s = arg;
	const char *shown = sync_relname(s, rel);
	if (s->remove_sent_only && sync_not_sent(e, dst))
		return;
	if (dst && same_file(&e->st, dst)) {
		sync_removal_refused(s, shown);
		return;
	}
	if (s->removals_wait || (s->hard_links && e->st.st_nlink > 1)) {
		char *root = root_of(e, rel);
		if (!root || sync_removal_keep(s, root, rel, shown, &e->st) < 0)
			report_error(s, ENOMEM, "[sender] sender failed to remove %s", shown);
		free(root); /* (kept, without memory: nothing is lost) */
		return;
	}
	sync_remove_source(s, e->dirfd, e->name, shown, &e->st);
}

/* sync_remove_below(); with links_later, a name whose way goes through a
 * link is neither removed nor said: 1 (its turn comes after the others:
 * the file it leads to may be removed under its own name first, as in
 * rsync's order of names, whatever the walk's order was). Else 0. */
static int remove_below(struct sync *s, const char *src, const char *rel, const char *shown,
                        const struct stat *read, bool links_later)
{
	const char *slash = strrchr(rel, '/');
	int top = *rel ? open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;
	int pfd = top < 0 || top == AT_FDCWD
	              ? top
	              : destdir_walk(top, rel, slash ? (size_t)(slash - rel) : 0);
	bool link = pfd == -1 && top >= 0 && (errno == ELOOP || errno == ENOTDIR);
	/* -L: a name that is itself a link waits too, for the file it leads
	 * to may come under its own name later in the walk (rsync: "sender
	 * file already removed", in its order of names, whatever the walk's) */
	struct stat self;
	const char *base = *rel ? (slash ? slash + 1 : rel) : src;
	if (!link && links_later && s->copy_links && pfd != -1 &&
	    fstatat(pfd, base, &self, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(self.st_mode))
		link = true;
	if (link && links_later) {
		if (pfd >= 0)
			close(pfd);
		if (top >= 0)
			close(top);
		return 1;
	}
	if (link) {
		/* a directory on its way is a link (-L went through it): not
		 * the source's to remove from, unless nothing is there now (a
		 * link to what was removed already), as rsync's sender says */
		struct stat st;
		bool gone = fstatat(top, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
		failed(s, gone ? "re-lstat" : "secure-open-parent", shown, gone ? ENOENT : ELOOP);
	} else if (pfd == -1) {
		failed(s, "re-lstat", shown, errno);
	} else {
		sync_remove_source(s, pfd, base, shown, read);
	}
	if (pfd >= 0)
		close(pfd);
	if (top >= 0)
		close(top);
	return 0;
}

void sync_remove_below(struct sync *s, const char *src, const char *rel, const char *shown,
                       const struct stat *read)
{
	remove_below(s, src, rel, shown, read, false);
}

void sync_removals_each(struct sync *s, sync_removal_fn fn, void *arg)
{
	const char *p = s->removals.s, *end = p + s->removals.len;
	while (p && p < end) {
		const char *root = p;
		const char *rel = root + strlen(root) + 1;
		const char *shown = rel + strlen(rel) + 1;
		struct read_stamp r;
		p = shown + strlen(shown) + 1;
		memcpy(&r, p, sizeof(r));
		p += sizeof(r);
		struct stat read = { .st_size = r.size };
		read.st_mtim.tv_sec = r.sec;
		read.st_mtim.tv_nsec = r.nsec;
		fn(arg, root, rel, shown, &read);
	}
	sb_reset(&s->removals);
}

struct removing {
	struct sync *s;
	struct keymap seen; /* the names removed, by two hashes of root and rel */
	struct strbuf later; /* those whose way goes through a link */
	bool last;          /* ... removed now */
};

static void remove_kept(void *arg, const char *root, const char *rel, const char *shown,
                        const struct stat *read)
{
	struct removing *r = arg;
	if (r->last) {
		sync_remove_below(r->s, root, rel, shown, read);
		return;
	}
	/* a name given twice (a SRC twice, a --files-from line twice) is
	 * removed once, in silence, as rsync's list holds it once (a clash of
	 * both hashes keeps a file: nothing is lost) */
	uint64_t a, b;
	keymap_str_key(root, shown, &a, &b);
	if (keymap_get(&r->seen, a, b))
		return;
	if (sync_name_now_dir(r->s, shown))
		return; /* its copy gave way to a later SRC's directory: as rsync
		           left the file out, it stays */
	keymap_put(&r->seen, a, b, 1); /* (without memory: said again, no more) */
	if (remove_below(r->s, root, rel, shown, read, true) == 1 &&
	    keep_into(&r->later, root, rel, shown, read) < 0)
		report_error(r->s, ENOMEM, "[sender] sender failed to remove %s", shown);
}

void sync_removals_end(struct sync *s)
{
	struct removing r = { s, KEYMAP_INIT, STRBUF_INIT, false };
	sync_removals_each(s, remove_kept, &r);
	keymap_free(&r.seen);
	/* then what lies through links: gone already, or not the source's */
	sb_free(&s->removals);
	s->removals = r.later;
	r.last = true;
	sync_removals_each(s, remove_kept, &r);
}
