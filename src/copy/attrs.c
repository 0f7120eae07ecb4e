/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * attrs.c: owner, extended attributes, mode and times of a copy, in GNU
 * cp's order of concerns: the owner first (a chown clears set-id bits, and
 * permissions held back for safety are given only once it is right), the
 * mode after the ACLs, and the times last, which nothing after them moves.
 * Under only_changed (sweep-sync) each is set only where the destination
 * differs, so that a file already right keeps its ctime.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "copyint.h"

/* GNU cp says nothing when a user cannot give a file away. */
static bool chown_ignorable(int err)
{
	return (err == EPERM || err == EINVAL) && geteuid() != 0;
}

/* Set the owner; false when it could not be. */
static bool set_owner(struct copy *c, int dfd, int pfd, const char *name,
                      const struct stat *st)
{
	uid_t uid = c->o->no_uid ? (uid_t)-1 : st->st_uid;
	gid_t gid = c->o->no_gid ? (gid_t)-1 : st->st_gid;
	int r = dfd >= 0 ? fchown(dfd, uid, gid)
	                 : fchownat(pfd, name, uid, gid, AT_SYMLINK_NOFOLLOW);
	if (r == 0)
		return true;
	int err = errno;
	if (chown_ignorable(err)) {
		/* the group alone may still be ours to give, if it is asked for */
		if (c->o->no_gid)
			return false;
		if (dfd >= 0)
			r = fchown(dfd, (uid_t)-1, st->st_gid);
		else
			r = fchownat(pfd, name, (uid_t)-1, st->st_gid, AT_SYMLINK_NOFOLLOW);
		(void)r;
		return false;
	}
	copy_warn(c, c->o->require_preserve, err, "failed to preserve ownership for %s",
	          cq(c, 0, sb_str(&c->shown)));
	return false;
}

/* The mode a copy ends with, or (mode_t)-1 to leave it as created. */
static mode_t final_mode(const struct copy *c, const struct stat *st, bool created,
                         mode_t created_mode, unsigned dflags, bool owner_ok)
{
	if (c->o->preserve_mode) {
		mode_t m = st->st_mode & 07777;
		/* GNU cp sets a directory it made to the source's mode only
		 * when that has bits mkdir may leave out: one without keeps
		 * the set-group-ID bit it took from its parent */
		if (created && !c->o->decide && S_ISDIR(st->st_mode) && !(m & 07000))
			m |= created_mode & S_ISGID;
		return owner_ok || c->o->keep_setid ? m : m & ~(mode_t)(S_ISUID | S_ISGID);
	}
	mode_t omitted = omitted_mode(c, st);
	if (created && (omitted || (dflags & DIR_RESTORE)))
		return created_mode | (omitted & ~c->umask);
	if (dflags & DIR_RESTORE) /* an existing directory opened for the copy, a file
	                            written whose set-ID bits went */
		return created_mode;
	return (mode_t)-1;
}

/* Whether the destination now (NULL: unknown) has st's owner already. */
static bool same_owner(const struct copy *c, const struct stat *now, const struct stat *st)
{
	return now && (c->o->no_uid || now->st_uid == st->st_uid) &&
	       (c->o->no_gid || now->st_gid == st->st_gid);
}

int copy_cmp_mtime(const struct timespec *a, const struct timespec *b, int window)
{
	if (a->tv_sec != b->tv_sec) {
		bool newer = a->tv_sec > b->tv_sec;
		/* (the distance as unsigned: no time_t overflows) */
		uint64_t d = newer ? (uint64_t)a->tv_sec - (uint64_t)b->tv_sec
		                   : (uint64_t)b->tv_sec - (uint64_t)a->tv_sec;
		if (window <= 0 || d > (uint64_t)window)
			return newer ? 1 : -1;
		return 0;
	}
	if (window < 0 && a->tv_nsec != b->tv_nsec)
		return a->tv_nsec > b->tv_nsec ? 1 : -1;
	return 0;
}

/* Whether the copy's time (now, as found: only_changed's, sweep-sync's) is
 * the source's already: to the nanosecond for what this run wrote or made,
 * and for a file found up to date and a directory found there as rsync
 * counts it, in whole seconds or within its --modify-window (one that close
 * is not set again; a directory whose names the run changed has the time
 * of the run). */
static bool same_mtime(const struct copy *c, const struct stat *now, const struct stat *st,
                       bool created)
{
	/* -1: to the nanosecond */
	int window = c->kept_attrs || (S_ISDIR(st->st_mode) && !created) ? c->o->mtime_window : -1;
	return now && copy_cmp_mtime(&now->st_mtim, &st->st_mtim, window) == 0;
}

static void set_times(struct copy *c, int dfd, int pfd, const char *name,
                      const struct stat *st)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	int r = dfd >= 0 ? futimens(dfd, ts) : utimensat(pfd, name, ts, AT_SYMLINK_NOFOLLOW);
	if (r < 0)
		copy_warn(c, c->o->require_preserve, errno, "preserving times for %s",
		          cq(c, 0, sb_str(&c->shown)));
}

bool attrs_same(const struct copy *c, const struct stat *now, const struct stat *st)
{
	const struct copy_opts *o = c->o;
	bool owner_ok = !o->preserve_owner || same_owner(c, now, st);
	if (!owner_ok)
		return false;
	mode_t m = S_ISLNK(st->st_mode) ? (mode_t)-1 : final_mode(c, st, false, 0, 0, true);
	return (m == (mode_t)-1 || m == (now->st_mode & 07777)) &&
	       (!o->preserve_times || same_mtime(c, now, st, false));
}

/* --no-preserve=mode: what is made anew (fd, O_PATH too) has the umask's
 * mode, not the access ACL its directory's default ACL gave it, as GNU
 * cp's (a directory keeps the default ACL it took, and its parent's
 * set-group-ID bit); m where it took none. */
static mode_t umask_mode(const struct copy *c, int fd, const struct stat *st, mode_t m)
{
	struct stat made;
	if (!xattr_drop_access_acl(fd) || fstat(fd, &made) < 0)
		return m;
	return (create_mode(c, st) & ~c->umask) | (made.st_mode & S_ISGID);
}

int attrs_fd(struct copy *c, int dfd, int sfd, const struct stat *st, bool created,
             mode_t created_mode, unsigned dflags)
{
	const struct copy_opts *o = c->o;
	int r = 0;
	struct stat nowst, *now = o->only_changed && fstat(dfd, &nowst) == 0 ? &nowst : NULL;
	bool owner_ok = !o->preserve_owner || same_owner(c, now, st);
	if (!owner_ok) {
		owner_ok = set_owner(c, dfd, -1, "", st);
		now = now && fstat(dfd, now) == 0 ? now : NULL; /* set-id bits may be gone */
	}
	bool acl = o->acls_apart ? o->preserve_acl : o->preserve_mode;
	if ((o->preserve_xattr || acl) && sfd >= 0 &&
	    xattr_copy(c, sfd, dfd, !o->preserve_xattr) < 0)
		r = -1;
	mode_t m = final_mode(c, st, created, created_mode, dflags, owner_ok);
	if (o->no_preserve_mode && created)
		m = umask_mode(c, dfd, st, m);
	if (now && m == (now->st_mode & 07777))
		m = (mode_t)-1;
	if (m != (mode_t)-1 && fchmod(dfd, m) < 0) {
		copy_warn(c, o->preserve_mode && o->require_preserve, errno,
		          "preserving permissions for %s", cq(c, 0, sb_str(&c->shown)));
		r = -1;
	}
	if (o->preserve_times && !(o->omit_dir_times && S_ISDIR(st->st_mode)) &&
	    !same_mtime(c, now, st, created))
		set_times(c, dfd, -1, "", st);
	return r;
}

int attrs_at(struct copy *c, int pfd, const char *name, const struct stat *st, bool created)
{
	const struct copy_opts *o = c->o;
	int r = 0;
	struct stat nowst, *now = o->only_changed &&
	                          fstatat(pfd, name, &nowst, AT_SYMLINK_NOFOLLOW) == 0 ? &nowst : NULL;
	bool owner_ok = !o->preserve_owner || same_owner(c, now, st);
	if (!owner_ok) {
		owner_ok = set_owner(c, -1, pfd, name, st);
		now = now && fstatat(pfd, name, now, AT_SYMLINK_NOFOLLOW) == 0 ? now : NULL;
	}
	if (!S_ISLNK(st->st_mode)) {
		mode_t m = final_mode(c, st, created, create_mode(c, st) & ~c->umask, 0, owner_ok);
		int node = o->no_preserve_mode && created ?
		           openat(pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (node >= 0) {
			m = umask_mode(c, node, st, m);
			close(node);
		}
		if (now && m == (now->st_mode & 07777))
			m = (mode_t)-1;
		/* no link followed: the node could have been swapped for one */
		if (m != (mode_t)-1 && fchmodat(pfd, name, m, AT_SYMLINK_NOFOLLOW) < 0) {
			copy_warn(c, o->require_preserve, errno, "preserving permissions for %s",
			          cq(c, 0, sb_str(&c->shown)));
			r = -1;
		}
	}
	if (o->preserve_times && !(o->omit_dir_times && S_ISDIR(st->st_mode)) &&
	    !same_mtime(c, now, st, created))
		set_times(c, -1, pfd, name, st);
	return r;
}

void attrs_of_part(const struct copy *c, const struct stat *st, mode_t created_mode,
                   struct copy_temp *t)
{
	bool owner = c->o->preserve_owner;
	t->part_uid = owner && !c->o->no_uid ? st->st_uid : (uid_t)-1;
	t->part_gid = owner && !c->o->no_gid ? st->st_gid : (gid_t)-1;
	mode_t m = final_mode(c, st, true, created_mode, 0, true);
	t->part_mode = m == (mode_t)-1 ? created_mode : m;
}
