/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * special.c: symbolic links, fifos, devices and sockets, made when the
 * metadata phase meets them and never opened: a link with symlinkat() to
 * the target read with readlinkat(), the others with mknodat(). Their
 * owner, mode and times are set by name, without following links.
 */
#include <errno.h>
#include <fcntl.h>
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

/* -l and -s for anything that is not a directory. Returns 1 when done. */
static int link_instead(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	const char *shown = sb_str(&c->shown);
	if (c->o->hard_link) {
		int flags = copy_follows(c, e) ? AT_SYMLINK_FOLLOW : 0;
		if (linkat(e->dirfd, e->name, pfd, name, flags) < 0) {
			copy_error(c, errno, "cannot create hard link %s to %s", cq(c, 0, shown),
			           cq(c, 1, e->path));
			return 1;
		}
	} else {
		/* (GNU cp: a relative target works in the current directory,
		 * whatever names it: "./f", "../d/f" from d) */
		struct stat dot, dir;
		if (e->path[0] != '/' && strchr(shown, '/') &&
		    !(stat(".", &dot) == 0 && fstat(pfd, &dir) == 0 && same_inode(&dot, &dir))) {
			copy_error(c, 0, "%s: can make relative symbolic links only in current directory",
			           diag_quote_style(c->d, 0, QUOTE_SHELL_COLON, shown));
			return 1;
		}
		if (symlinkat(e->path, pfd, name) < 0) {
			copy_error(c, errno, "cannot create symbolic link %s to %s", cq(c, 0, shown),
			           cq(c, 1, e->path));
			return 1;
		}
	}
	return 0;
}

int special_link(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	const char *backup;
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	if (s == DEST_SKIP || s == DEST_FAIL)
		return 1;
	if (link_instead(c, e, pfd, name) == 0)
		replace_made(c, e, pfd, name, backup);
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

void special_copy(struct copy *c, const struct sweep_entry *e)
{
	const char *name, *backup;
	int pfd = special_place(c, e, "", &name);
	if (pfd < 0)
		return;
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	if (s == DEST_SKIP || s == DEST_FAIL || make_node(c, e, pfd, name) < 0)
		return;
	replace_made(c, e, pfd, name, backup);
	hardlink_remember(c, e);
	attrs_at(c, pfd, name, &e->st, true);
	c->made = true;
}
