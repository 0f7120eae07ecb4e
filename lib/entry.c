/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * entry.c: the entry handed out, and the regular files and directories it
 * is made of.
 *
 * Every layer that hands something out (the walk, serving a name, the data
 * phase) fills sw->ent through these, so an entry looks the same whichever
 * path made it: a regular file is opened and checked to be the file that
 * was stat-ed wherever it is handed out, and one that became a directory
 * meanwhile is walked as that directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

void sw_ent_fill(struct sweep *sw, enum sweep_kind kind, const struct stat *st,
                 int dirfd, int depth, struct sw_dir *parent)
{
	struct sweep_entry *e = &sw->ent;
	e->kind = kind;
	e->flags = 0;
	e->dirfd = dirfd;
	e->fd = -1;
	e->depth = depth;
	e->op = SWEEP_OP_NONE;
	e->error = 0;
	if (st)
		e->st = *st;
	else
		memset(&e->st, 0, sizeof(e->st));
	e->phys = SWEEP_PHYS_NONE;
	e->link_first = NULL;
	e->dir_id = 0;
	e->parent_id = parent ? parent->id : 0;
	sw->fds.pinned = parent;
}

/* Open a regular file for its data. O_NONBLOCK keeps a file swapped for a
 * fifo behind our back from hanging the walk; O_NOATIME is asked only where
 * the kernel allows it (owner or root), to spare a failing call. */
int sw_open_file(uid_t euid, int dirfd, const char *name, bool follow,
                 const struct stat *st)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	if (!follow)
		flags |= O_NOFOLLOW;
	if (euid == 0 || euid == st->st_uid) {
		int fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd >= 0 || errno != EPERM)
			return fd;
	}
	return openat(dirfd, name, flags);
}

/* Hands out the entry being made as an error: op failed with err. The
 * kernel's ENOMEM from one call stays that call's failure (a FUSE file
 * system may answer so for one file, and GNU's tools go on past it); only
 * our own memory running out is SWEEP_OP_NOMEM, given as such. */
const struct sweep_entry *sw_emit_error(struct sweep *sw, enum sweep_op op, int err)
{
	sw->ent.kind = SWEEP_ERROR;
	sw->ent.op = op;
	sw->ent.error = err;
	return &sw->ent;
}

static bool multiply_linked(const struct stat *st)
{
	return st->st_nlink > 1 && !S_ISDIR(st->st_mode); /* nlink 0 under NOSTAT */
}

/* Set link_first for a non-directory handed out before under another name;
 * else, if remember, make this the name later ones point to. A name is only
 * remembered once it is surely handed out (not for a file that then fails to
 * open), or later names would point at a member nobody has. Not under
 * SWEEP_NOSTAT: there an entry has its link count only when the walk or the
 * threads happened to stat it, and the table would cost a path for each. */
void sw_note_link(struct sweep *sw, bool remember)
{
	const struct stat *st = &sw->ent.st;
	if (!multiply_linked(st) || (sw->opt.flags & SWEEP_NOSTAT))
		return;
	sw->ent.link_first = sw_links_find(sw->links, st);
	if (!sw->ent.link_first && remember && sw_links_add(sw->links, st, sw->ent.path) < 0)
		sw->rel.links_lost = true;
}

/* Hands out v, stat-ed as st, as a directory (read on the next call), or a
 * loop error. */
const struct sweep_entry *sw_emit_dir(struct sweep *sw, const struct sw_name *v,
                                     int pfd, const struct stat *st, bool follow)
{
	if (v->parent && sw_dir_is_ancestor(v->parent, st)) {
		sw->rel.done_node = v->node;
		return sw_emit_error(sw, SWEEP_OP_LOOP, ELOOP);
	}
	struct sw_dir *d = sw_dir_new(sw, v->parent, v->name, v->namelen, st);
	if (!d) {
		sw->rel.done_node = v->node;
		return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
	}
	d->basefd = v->basefd;
	d->follow = follow;
	d->root_dev = v->parent ? v->parent->root_dev : st->st_dev;
	sw_name_take_ref(sw, v);
	sw->ent.kind = SWEEP_DIR;
	sw->ent.dir_id = d->id;
	sw->ent.dirfd = pfd;
	if ((sw->opt.flags & SWEEP_XDEV) && st->st_dev != d->root_dev) {
		sw->ent.flags |= SWEEP_E_XDEV;
		sw->rel.done_parent = d;
	} else {
		sw->rel.to_read = d;
	}
	return &sw->ent;
}

/* v, stat-ed as a regular file, is a directory now that it is open: it is
 * walked as the directory it became, as GNU tar does. Whatever holds v's
 * reference on its parent (a node or a file freed after this entry) keeps
 * it; the directory takes one of its own. */
static const struct sweep_entry *serve_became_dir(struct sweep *sw, const struct sw_name *v,
                                                  int dirfd, bool follow)
{
	struct sw_name dir = *v;
	dir.node = NULL;
	struct sw_node *done = sw->rel.done_node;
	sw->ent.phys = SWEEP_PHYS_NONE;
	const struct sweep_entry *e = sw_emit_dir(sw, &dir, dirfd, &sw->ent.st, follow);
	sw->rel.done_node = done;
	return e;
}

/* ent, a regular file as st says, handed out with fd (-1: not opened, as
 * SWEEP_EMPTY_UNOPENED asks), its first name remembered if it has more. */
static const struct sweep_entry *emit_data(struct sweep *sw, int fd)
{
	sw->ent.kind = SWEEP_DATA;
	sw->ent.fd = fd;
	if (multiply_linked(&sw->ent.st) && sw_links_add(sw->links, &sw->ent.st, sw->ent.path) < 0)
		sw->rel.links_lost = true;
	return &sw->ent;
}

/* Hand out regular file v with its data: opened (unless fd is one opened
 * ahead), checked to be the file that was stat-ed, or a SWEEP_FILE when it is
 * a second name of a file already handed out. ent.path is built already. */
const struct sweep_entry *sw_emit_regular(struct sweep *sw, const struct sw_name *v, int dirfd,
                                          bool follow, int fd)
{
	sw_note_link(sw, false);
	if (sw->ent.link_first) {
		if (fd >= 0)
			close(fd);
		sw->ent.kind = SWEEP_FILE;
		return &sw->ent;
	}
	if (fd < 0 && sw->ent.st.st_size == 0 && (sw->opt.flags & SWEEP_EMPTY_UNOPENED))
		return emit_data(sw, -1);
	unsigned waits = 0;
	while (fd < 0 && (fd = sw_open_file(sw->euid, dirfd, sw->ent.name, follow, &sw->ent.st)) < 0 &&
	       sw_fds_retry(sw, NULL, errno, &waits))
		;
	if (fd < 0)
		return sw_emit_error(sw, SWEEP_OP_OPEN, errno);
	struct stat now;
	if (fstat(fd, &now) < 0) {
		int err = errno;
		close(fd);
		return sw_emit_error(sw, SWEEP_OP_OPEN, err);
	}
	sw->ent.st = now;
	if (!S_ISREG(now.st_mode)) {
		/* replaced since it was stat-ed: handed out as it is now */
		close(fd);
		if (S_ISDIR(now.st_mode))
			return serve_became_dir(sw, v, dirfd, follow);
		sw->ent.kind = SWEEP_FILE;
		return &sw->ent;
	}
	return emit_data(sw, fd); /* ent.st is now */
}
