/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * special.c: symbolic links, fifos, devices and sockets, made when the
 * metadata phase meets them and never opened: a link with symlinkat() to
 * the target read with readlinkat(), the others with mknodat(). Their
 * owner, mode and times are set by name, without following links.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include "copyint.h"

/* Read the target of e into c->target. Returns 0 or -1 (reported). */
static int read_target(struct copy *c, const struct sweep_entry *e)
{
	size_t size = e->st.st_size > 0 ? (size_t)e->st.st_size + 1 : 256;
	for (;;) {
		sb_reset(&c->target);
		if (sb_reserve(&c->target, size) < 0) {
			copy_error(c, ENOMEM, "cannot read symbolic link %s", cq(c, 0, e->path));
			return -1;
		}
		ssize_t n = readlinkat(e->dirfd, e->name, c->target.s, size);
		if (n < 0) {
			copy_error(c, errno, "cannot read symbolic link %s", cq(c, 0, e->path));
			return -1;
		}
		if ((size_t)n < size) {
			c->target.s[n] = 0;
			c->target.len = (size_t)n;
			return 0;
		}
		size *= 2;
	}
}

/* -s of a relative source into another directory than the current one:
 * refused, as GNU cp refuses it (said). */
static bool relative_refused(struct copy *c, const struct sweep_entry *e, int pfd)
{
	/* (GNU cp: a relative target works in the current directory,
	 * whatever names it: "./f", "../d/f" from d) */
	const char *shown = sb_str(&c->shown);
	struct stat dot, dir;
	if (e->path[0] == '/' || !strchr(shown, '/') ||
	    (stat(".", &dot) == 0 && fstat(pfd, &dir) == 0 && same_inode(&dot, &dir)))
		return false;
	copy_error(c, 0, "%s: can make relative symbolic links only in current directory",
	           diag_quote_style(c->d, 0, QUOTE_SHELL_COLON, shown));
	return true;
}

/* The link -l or -s asks for, as name in pfd: 0, or -1 with errno. */
static int make_link(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	if (c->o->symbolic_link)
		return symlinkat(e->path, pfd, name);
	return linkat(e->dirfd, e->name, pfd, name, copy_follows(c, e) ? AT_SYMLINK_FOLLOW : 0);
}

/* -lf, -sf over what is there: the link made under a name of its own in
 * pfd, then renamed over name, as GNU cp's force_linkat(): a link that
 * cannot be made leaves what was there. 0, or -1 with errno. */
static int link_over(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	struct strbuf tmp = STRBUF_INIT;
	int r = -1;
	for (int i = 0; i < 100; i++) {
		if (tempfile_name(&tmp, name) < 0)
			break;
		if ((r = make_link(c, e, pfd, tmp.s)) == 0 || errno != EEXIST)
			break;
	}
	if (r == 0 && (r = renameat(pfd, tmp.s, pfd, name)) < 0) {
		int err = errno;
		unlinkat(pfd, tmp.s, 0);
		errno = err;
	}
	sb_free(&tmp);
	return r;
}

int special_link(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	const char *backup;
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	if (s == DEST_SKIP || s == DEST_FAIL)
		return 1;
	/* (after the backup, as GNU's, which puts it back: what is there
	 * is kept, -f or not) */
	if (c->o->symbolic_link && relative_refused(c, e, pfd)) {
		if (backup)
			replace_unbackup(c, pfd, name, backup);
		return 1;
	}
	if ((s == DEST_EXISTS ? link_over(c, e, pfd, name) : make_link(c, e, pfd, name)) == 0) {
		replace_made(c, e, pfd, name);
		/* -s with the times: the link gets the source's, as GNU cp's */
		struct timespec ts[2] = { e->st.st_atim, e->st.st_mtim };
		if (c->o->symbolic_link && c->o->preserve_times &&
		    utimensat(pfd, name, ts, AT_SYMLINK_NOFOLLOW) < 0)
			copy_warn(c, c->o->require_preserve, errno, "preserving times for %s",
			          cq(c, 0, sb_str(&c->shown)));
		return 1;
	}
	const char *shown = sb_str(&c->shown);
	copy_error(c, errno, "cannot create %s link %s to %s",
	           c->o->symbolic_link ? "symbolic" : "hard", cq(c, 0, shown), cq(c, 1, e->path));
	if (backup)
		replace_unbackup(c, pfd, name, backup);
	return 1;
}

/* Make e at name in pfd. Returns 0 or -1 (reported). */
static int make_node(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	const char *shown = sb_str(&c->shown);
	if (S_ISLNK(e->st.st_mode)) {
		if (read_target(c, e) < 0)
			return -1;
		if (symlinkat(c->target.s, pfd, name) == 0)
			return 0;
		copy_error(c, errno, "cannot create symbolic link %s", cq(c, 0, shown));
		return -1;
	}
	mode_t mode = (e->st.st_mode & S_IFMT) | create_mode(c, &e->st);
	if (mknodat(pfd, name, mode, S_ISFIFO(e->st.st_mode) ? 0 : e->st.st_rdev) == 0)
		return 0;
	if (S_ISFIFO(e->st.st_mode))
		copy_error(c, errno, "cannot create fifo %s", cq(c, 0, shown));
	else
		copy_error(c, errno, "cannot create special file %s", cq(c, 0, shown));
	return -1;
}

int special_place(struct copy *c, const struct sweep_entry *e, const char *what,
                  const char **name)
{
	int pfd = destdir_parent(c, e, name);
	if (pfd < 0) {
		copy_error(c, errno, "cannot create %s%s", what, cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	if (c->o->hard_link || c->o->symbolic_link) {
		special_link(c, e, pfd, *name);
		return -1;
	}
	return hardlink_later(c, e, pfd, *name) ? -1 : pfd;
}

/* The extended attributes and ACLs of a fifo, device or socket e, made as
 * name in pfd, as the options ask (GNU cp -a keeps them): through O_PATH
 * descriptors, neither node being opened for its data. Not a symbolic
 * link's (its user attributes are refused by the kernel). */
static void node_xattrs(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	const struct copy_opts *o = c->o;
	bool acl = o->acls_apart ? o->preserve_acl : o->preserve_mode;
	if (S_ISLNK(e->st.st_mode) || !(o->preserve_xattr || acl))
		return;
	int sfd = openat(e->dirfd, e->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int dfd = openat(pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (sfd >= 0 && dfd >= 0)
		xattr_copy(c, sfd, dfd, !o->preserve_xattr);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
}

void special_copy(struct copy *c, const struct sweep_entry *e)
{
	const char *name, *backup;
	int pfd = special_place(c, e, "", &name);
	if (pfd < 0)
		return;
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	if (s == DEST_SKIP || s == DEST_FAIL || make_node(c, e, pfd, name) < 0)
		return;
	replace_made(c, e, pfd, name);
	hardlink_remember(c, e);
	node_xattrs(c, e, pfd, name);
	attrs_at(c, pfd, name, &e->st, true);
	c->made = true;
}
