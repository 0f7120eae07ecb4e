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
 * Under -H a file of several names waits for the end of its tree: the walk
 * finds a later name to be another name of it by its link count, which a
 * removal before then would lower (its last name copied apart, unlinked).
 * Those names are kept meanwhile (their path below the tree and what was
 * read of them), no more than rsync's list holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
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
	if (err == ENOENT) { /* gone already: what was wanted */
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
                       const struct stat *read, const struct stat *dst)
{
	struct stat now;
	if (fstatat(dirfd, name, &now, s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW) < 0) {
		failed(s, "re-lstat", rel, errno);
		return -1;
	}
	if (dst && same_file(&now, dst)) {
		sync_removal_refused(s, rel);
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
	if (s->info_remove) {
		fputs("sender removed ", stdout);
		report_name(s, stdout, rel);
		putchar('\n');
	}
	return 0;
}

/* What a later removal checks of a file, kept after its name. */
struct read_stamp {
	int64_t size, sec, nsec;
};

int sync_removal_keep(struct sync *s, const char *rel, const struct stat *st)
{
	struct read_stamp r = { st->st_size, st->st_mtim.tv_sec, st->st_mtim.tv_nsec };
	return sb_add(&s->removals, rel, strlen(rel) + 1) < 0 ||
	               sb_add(&s->removals, &r, sizeof(r)) < 0
	           ? -1
	           : 0;
}

void sync_source_done(void *arg, const struct sweep_entry *e, const char *rel,
                      const struct stat *dst)
{
	struct sync *s = arg;
	if (s->hard_links && e->st.st_nlink > 1 && !(dst && same_file(&e->st, dst))) {
		if (sync_removal_keep(s, rel, &e->st) == 0)
			return;
		report_error(s, ENOMEM, "[sender] sender failed to remove %s", sync_relname(s, rel));
		return; /* kept: the walk still needs its link count */
	}
	sync_remove_source(s, e->dirfd, e->name, sync_relname(s, rel), &e->st, dst);
}

void sync_remove_below(struct sync *s, const char *src, const char *rel,
                       const struct stat *read)
{
	const char *slash = strrchr(rel, '/');
	int top = *rel ? open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;
	int pfd = top < 0 || top == AT_FDCWD
	              ? top
	              : destdir_walk(top, rel, slash ? (size_t)(slash - rel) : 0);
	const char *shown = sync_relname(s, rel);
	if (pfd == -1)
		failed(s, "re-lstat", shown, errno);
	else
		sync_remove_source(s, pfd, *rel ? (slash ? slash + 1 : rel) : src, shown, read, NULL);
	if (pfd >= 0)
		close(pfd);
	if (top >= 0)
		close(top);
}

void sync_removals_each(struct sync *s, sync_removal_fn fn, void *arg)
{
	const char *p = s->removals.s, *end = p + s->removals.len;
	while (p && p < end) {
		const char *rel = p;
		struct read_stamp r;
		p += strlen(rel) + 1;
		memcpy(&r, p, sizeof(r));
		p += sizeof(r);
		struct stat read = { .st_size = r.size };
		read.st_mtim.tv_sec = r.sec;
		read.st_mtim.tv_nsec = r.nsec;
		fn(arg, rel, &read);
	}
	sb_reset(&s->removals);
}

struct below {
	struct sync *s;
	const char *src;
};

static void remove_kept(void *arg, const char *rel, const struct stat *read)
{
	const struct below *b = arg;
	sync_remove_below(b->s, b->src, rel, read);
}

void sync_removals_end(struct sync *s, const char *src)
{
	struct below b = { s, src };
	sync_removals_each(s, remove_kept, &b);
}
