/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c: sweep-sync's decide hook, asked from the walk's filter, when the
 * walk meets an entry and before a regular file's data is queued: an entry
 * found unchanged is dropped there, so a run that has nothing to do reads
 * no file data at all. The destination is looked at from its directory's
 * descriptor (kept by destdir.c: the walk hands a directory out before it
 * reads it), never through a path that could hold a symbolic link.
 *
 * An unchanged entry is left as it is, but for the attributes that differ
 * (under only_changed, which sets nothing else); a file with several names
 * whose later name is already the same inode as its first is unchanged too.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "copyint.h"

/* Give an unchanged e at name in pfd (status dst) the attributes that
 * differ. */
static void fix_attrs(struct copy *c, const struct sweep_entry *e, int pfd, const char *name,
                      const struct stat *dst)
{
	const struct copy_opts *o = c->o;
	/* most of a re-run: nothing to set, and nothing opened to find it out */
	if (!o->preserve_xattr && !o->preserve_acl && attrs_same(c, dst, &e->st))
		return;
	if (!S_ISREG(e->st.st_mode) || !S_ISREG(dst->st_mode)) {
		attrs_at(c, pfd, name, &e->st, false);
		return;
	}
	int dfd = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (dfd < 0) {
		copy_error(c, errno, "cannot open %s", cq(c, 0, sb_str(&c->shown)));
		return;
	}
	int sfd = -1;
	if (o->preserve_xattr || o->preserve_acl)
		sfd = openat(e->dirfd, e->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	attrs_fd(c, dfd, sfd, &e->st, false, 0, 0);
	if (sfd >= 0)
		close(sfd);
	close(dfd);
}

/* Whether the directory e is where the copy goes (DEST inside SRC, as in
 * "sweep-sync -a . backup"): walked, it would hold what the copy makes
 * there, and the walk would go on copying into the copy without end.
 * Asked below the root only, by when the root's copy is made. */
static bool is_destination(struct copy *c, const struct sweep_entry *e)
{
	struct stat *ids = c->dest_ids;
	if (!c->dest_known) {
		c->dest_known = true;
		if (fstat(c->top_fd, &ids[0]) < 0)
			ids[0].st_ino = 0;
		if (fstatat(c->top_fd, c->top_name, &ids[1], AT_SYMLINK_NOFOLLOW) < 0)
			ids[1].st_ino = 0;
	}
	for (int i = 0; i < 2; i++)
		if (same_inode(&ids[i], &e->st))
			return true;
	return false;
}

enum sweep_verdict check_entry(struct copy *c, const struct sweep_entry *e)
{
	if (e->depth > 0 && S_ISDIR(e->st.st_mode) && is_destination(c, e))
		return SWEEP_PRUNE;
	if (copy_names(c, e) < 0)
		return SWEEP_KEEP; /* reported when it is made */
	const char *name = c->top_name;
	int pfd = c->top_fd;
	if (e->depth > 0) {
		int saved = errno;
		pfd = destdir_parent(c, e, &name);
		errno = saved;
	}
	struct stat dst;
	/* a first copy's look at every name saved */
	bool have = pfd >= 0 && !destdir_fresh(c, e) &&
	            fstatat(pfd, name, &dst, AT_SYMLINK_NOFOLLOW) == 0;
	bool same = have && hardlink_same(c, e, &dst);
	if (same || hardlink_known(c, e)) {
		if (c->o->linked &&
		    !c->o->linked(c->o->arg, e, sb_str(&c->rel), pfd, name, have ? &dst : NULL,
		                  same, hardlink_first(c, e), hardlink_first_elsewhere(c, e)))
			return SWEEP_PRUNE;
		if (same && c->o->done && !c->o->dry_run)
			c->o->done(c->o->arg, e, sb_str(&c->rel), &dst);
		/* else linked to its first name when it comes */
		return same || c->o->dry_run ? SWEEP_PRUNE : SWEEP_KEEP;
	}
	enum copy_verdict v = c->o->decide(c->o->arg, e, sb_str(&c->rel), pfd, name,
	                                   have ? &dst : NULL);
	if (v == COPY_LEAVE)
		return SWEEP_PRUNE;
	if (S_ISDIR(e->st.st_mode))
		return SWEEP_KEEP;
	if (c->o->dry_run) {
		hardlink_remember(c, e); /* (its later names shown as linked to it) */
		return SWEEP_PRUNE;
	}
	if (v == COPY_MAKE)
		return SWEEP_KEEP;
	uint64_t errors = c->errors;
	if (have && c->o->only_changed) {
		c->kept_attrs = true; /* (its time compared as rsync's) */
		fix_attrs(c, e, pfd, name, &dst);
		c->kept_attrs = false;
	}
	hardlink_remember(c, e);
	/* (a KEEP with nothing there before: the decide hook made it, as
	 * --link-dest links it; what is there now is the copy) */
	if (c->o->done && c->errors == errors &&
	    (have || (pfd >= 0 && fstatat(pfd, name, &dst, AT_SYMLINK_NOFOLLOW) == 0)))
		c->o->done(c->o->arg, e, sb_str(&c->rel), &dst);
	return SWEEP_PRUNE;
}
