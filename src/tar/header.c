/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * header.c: an archive_entry from a walk entry: type, mode, owner (names
 * from the id cache unless --numeric-owner, or forced by --owner/--group),
 * modification time to the nanosecond, size, device numbers, and the target
 * of a symbolic or hard link.
 *
 * Only the modification time is stored: atime and ctime would make pax
 * archives differ from run to run, and GNU tar's gnu format has none.
 */
#include <archive_entry.h>
#include <errno.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "create.h"

/* The target of the symbolic link e into cr->link. Returns 0 or -1 with
 * errno set. */
static int read_symlink(struct create *cr, const struct sweep_entry *e)
{
	size_t size = e->st.st_size > 0 ? (size_t)e->st.st_size + 1 : 256;
	for (;;) {
		sb_reset(&cr->link);
		if (sb_reserve(&cr->link, size) < 0)
			return -1;
		ssize_t n = readlinkat(e->dirfd, e->name, cr->link.s, size);
		if (n < 0)
			return -1;
		if ((size_t)n < size) {
			cr->link.s[n] = 0;
			cr->link.len = (size_t)n;
			return 0;
		}
		size *= 2;
	}
}

static void set_owner(struct create *cr, const struct stat *st)
{
	struct archive_entry *ae = cr->entry;
	const struct tar_opts *o = &cr->t->opt;
	uid_t uid = o->owner_id >= 0 ? (uid_t)o->owner_id : st->st_uid;
	gid_t gid = o->group_id >= 0 ? (gid_t)o->group_id : st->st_gid;
	archive_entry_set_uid(ae, uid);
	archive_entry_set_gid(ae, gid);
	if (o->numeric_owner)
		return;
	const char *user = o->owner_name ? o->owner_name : idcache_user(&cr->t->ids, uid);
	const char *group = o->group_name ? o->group_name : idcache_group(&cr->t->ids, gid);
	if (user)
		archive_entry_copy_uname(ae, user);
	if (group)
		archive_entry_copy_gname(ae, group);
}

/* The link parts of the header: a hard link's first name, a symlink's
 * target. Returns 0 or -1 (reported). */
static int set_links(struct create *cr, const struct sweep_entry *e, const char *link)
{
	struct archive_entry *ae = cr->entry;
	const char *target;
	if (e->link_first || link) {
		/* the first name as --transform's h expressions make it, not
		 * as its own member's name (r) was made */
		target = link ? link : safename(cr->t, e->link_first, true, NULL);
		if (!(target = xform_apply(cr->t, XFORM_HARDLINK, target, &cr->link)))
			goto nomem;
		archive_entry_copy_hardlink(ae, target);
		archive_entry_set_size(ae, 0);
		return 0;
	}
	if (S_ISLNK(e->st.st_mode)) {
		if (read_symlink(cr, e) < 0) {
			tar_cannot_read(cr->t, e->path, "readlink", errno);
			return -1;
		}
		if (!(target = xform_apply(cr->t, XFORM_SYMLINK, cr->link.s, &cr->link)))
			goto nomem;
		archive_entry_copy_symlink(ae, target);
	}
	return 0;
nomem:
	tar_fatal(cr->t, ENOMEM, "memory exhausted");
	return -1;
}

int header_fill(struct create *cr, const struct sweep_entry *e, const char *member,
                const char *link)
{
	struct archive_entry *ae = cr->entry;
	const struct stat *st = &e->st;
	archive_entry_clear(ae);
	archive_entry_copy_pathname(ae, member);
	archive_entry_set_mode(ae, modechg_apply(&cr->t->opt, st->st_mode));
	set_owner(cr, st);
	struct timespec mtime = st->st_mtim;
	const struct tar_opts *o = &cr->t->opt;
	if (o->set_mtime && (!o->clamp_mtime || mtime.tv_sec > o->mtime.tv_sec ||
	                     (mtime.tv_sec == o->mtime.tv_sec && mtime.tv_nsec > o->mtime.tv_nsec)))
		mtime = o->mtime;
	archive_entry_set_mtime(ae, mtime.tv_sec, mtime.tv_nsec);
	archive_entry_set_nlink(ae, (unsigned)st->st_nlink);
	archive_entry_set_size(ae, S_ISREG(st->st_mode) ? st->st_size : 0);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		archive_entry_set_rdevmajor(ae, major(st->st_rdev));
		archive_entry_set_rdevminor(ae, minor(st->st_rdev));
	}
	return set_links(cr, e, link);
}
