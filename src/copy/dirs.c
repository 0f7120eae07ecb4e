/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dirs.c: directories. Made (or found) when the metadata phase meets them,
 * given their mode, owner and times when the walk is done with them
 * (SWEEP_DIR_POST), after everything inside: a directory that is to be
 * read-only is made writable for the copy, and stays so until its
 * contents are in. In a dry run an existing directory is only opened (for
 * the decide hook's look at what it holds) and a new one is not made.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "copyint.h"

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

/* Whether the directory fd tells names apart byte by byte, as the source
 * does: not on file systems that fold case or normalise (vfat, ntfs, cifs
 * and the like, kept out by naming those that do not), nor in an ext4,
 * f2fs or tmpfs directory with the casefold attribute. An xfs made with
 * -n version=ci folds ASCII case and passes: two such names then meet
 * "File exists" (O_EXCL), as with GNU cp, and nothing is overwritten. */
static bool names_exact(int fd)
{
	struct statfs sfs;
	int attrs = 0;
	if (fstatfs(fd, &sfs) < 0)
		return false;
	switch ((unsigned long)sfs.f_type) {
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
		return true;
	case EXT4_SUPER_MAGIC:
	case F2FS_SUPER_MAGIC:
	case TMPFS_MAGIC:
		return ioctl(fd, FS_IOC_GETFLAGS, &attrs) == 0 && !(attrs & FS_CASEFOLD_FL);
	default:
		return false;
	}
}

mode_t omitted_mode(const struct copy *c, const struct stat *st)
{
	/* as GNU cp: no one else gets in before the owner is right (a copy
	 * with the default modes never has more than the umask allows);
	 * rsync gives a directory its permissions as it makes it, and a run
	 * cut short leaves its directories with theirs, not closed to all
	 * but their owner: sweep-sync's (decide) too; its files are made
	 * their owner's alone under -p (create_mode()), and without -p with
	 * the mode they keep, the umask's or a default ACL's */
	if (c->o->no_preserve_mode || c->o->decide)
		return 0;
	if (c->o->preserve_owner)
		return st->st_mode & (S_IRWXG | S_IRWXO);
	if (c->o->preserve_mode)
		return st->st_mode & (S_IWGRP | S_IWOTH);
	return 0;
}

mode_t create_mode(const struct copy *c, const struct stat *st)
{
	if (c->o->no_preserve_mode) /* (a directory's sticky bit kept, as GNU's) */
		return S_ISDIR(st->st_mode) ? 0777 | (st->st_mode & S_ISVTX) : 0666;
	bool dir = S_ISDIR(st->st_mode);
	/* rsync -p: its copy of a file is its owner's alone until whole,
	 * then given its mode (without -p it is made with the mode it keeps) */
	if (c->o->decide && !dir && c->o->preserve_mode)
		return st->st_mode & S_IRWXU;
	/* set-id bits only with the mode (the kernel keeps a directory's
	 * sticky bit and takes its set-group-id from the parent); without
	 * -p, rsync's new directories have none of their own; a regular file
	 * gets them with its owner, once whole (GNU cp's copy that fails half
	 * way is no set-user-ID program of root's); GNU cp -r makes a fifo or
	 * a device with them */
	bool setid = dir ? c->o->preserve_mode || !c->o->decide
	                 : !S_ISREG(st->st_mode) && !c->o->decide;
	return st->st_mode & (setid ? 07777 : 0777) & ~omitted_mode(c, st);
}

/* sweep-cp -L: directories made are remembered (not sweep-sync's: a
 * stream's entries have the sender's inode numbers, and rsync -L has no
 * such guard either) */
static bool guards_made(const struct copy *c)
{
	return c->o->follow == SWEEP_FOLLOW_ALL && !c->o->decide && !c->o->read_data;
}

/* Look at what is at name in pfd, where e's directory goes: 1 when a
 * directory is to be made there (what was there removed or backed up), 0
 * when one is there, -1 (reported); -2 in a dry run when there is none. */
static int look_dir(struct copy *c, const struct sweep_entry *e, int pfd, const char *name,
                    const char **backup)
{
	struct stat st;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) {
			copy_error(c, errno, "cannot stat %s", cq(c, 0, sb_str(&c->shown)));
			return -1;
		}
		return c->o->dry_run ? -2 : 1;
	}
	if (S_ISDIR(st.st_mode))
		return 0;
	if (c->o->dry_run)
		return -2;
	/* GNU cp refuses, a backup asked for or not; rsync replaces it,
	 * moved aside as its backup under -b */
	if (!c->o->replace_nondir) {
		copy_error(c, 0, "cannot overwrite non-directory %s with directory %s",
		           cq(c, 0, sb_str(&c->shown)), cq(c, 1, e->path));
		return -1;
	}
	if (c->o->backup)
		return backup_make(c, pfd, name, backup, false) < 0 ? -1 : 1;
	return replace_remove(c, pfd, name) < 0 ? -1 : 1;
}

/* Make the directory for e at name in pfd, or find the one there. Returns
 * its descriptor, or -1 (reported); -2 in a dry run when there is none. */
static int make_dir(struct copy *c, const struct sweep_entry *e, int pfd, const char *name,
                    unsigned *flags, mode_t *mode)
{
	struct stat st;
	const char *backup = NULL;
	/* in a fresh directory the name is free (no look), unless the source
	 * changed under the walk: then what is there is looked at after all */
	bool fresh = destdir_fresh(c, e);
	int make = fresh ? 1 : look_dir(c, e, pfd, name, &backup);
	if (make < 0)
		return make;
	/* searchable and writable by us until its contents are in: made so,
	 * not changed later, which would leave a moment when the copy cannot
	 * open it (sweep-sync's as root with its own mode, as rsync's: root
	 * needs no such bits, and a run cut short leaves it as it is to be) */
	mode_t made_mode = create_mode(c, &e->st) | (c->o->decide && geteuid() == 0 ? 0 : S_IRWXU);
	while (make && mkdirat(pfd, name, made_mode) < 0) {
		if (!fresh || errno != EEXIST) {
			copy_error(c, errno, "cannot create directory %s", cq(c, 0, sb_str(&c->shown)));
			return -1;
		}
		fresh = false;
		make = look_dir(c, e, pfd, name, &backup);
		if (make < 0)
			return make;
	}
	if (make) {
		*flags |= DIR_CREATED;
		copy_verbose(c, e, backup);
	}
	int fd = destdir_openat(c, pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0 || fstat(fd, &st) < 0) {
		copy_error(c, errno, "cannot access %s", cq(c, 0, sb_str(&c->shown)));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* rsync -p: the permissions the umask left out given at once (a run
	 * cut short leaves the directory with them) */
	if ((*flags & DIR_CREATED) && c->o->decide && c->o->preserve_mode &&
	    (st.st_mode & 07777) != made_mode && fchmod(fd, made_mode) == 0)
		st.st_mode = (st.st_mode & ~(mode_t)07777) | made_mode;
	*mode = st.st_mode & 07777;
	/* (without memory: not guarded, as GNU cp is not; it stops at PATH_MAX) */
	if ((*flags & DIR_CREATED) && guards_made(c))
		(void)keymap_put(&c->made_dirs, (uint64_t)st.st_dev, (uint64_t)st.st_ino, 1);
	/* each name of a local walk comes once; a stream's are a peer's word */
	if ((*flags & DIR_CREATED) && !c->o->read_data && names_exact(fd))
		*flags |= DIR_FRESH;
	mode_t want = create_mode(c, &e->st) & ~c->umask & S_IRWXU;
	if ((*flags & DIR_CREATED) && want != S_IRWXU) {
		*mode = (*mode & ~(mode_t)S_IRWXU) | want;
		*flags |= DIR_RESTORE;
	}
	if (!(*flags & DIR_CREATED) && c->o->open_dirs && !c->o->dry_run &&
	    (st.st_mode & S_IRWXU) != S_IRWXU && geteuid() != 0 &&
	    fchmod(fd, (st.st_mode & 07777) | S_IRWXU) == 0)
		*flags |= DIR_RESTORE; /* *mode: to be given back, or the source's */
	return fd;
}

/* -L: whether e is a directory this run made, which a link followed led
 * back to (the copy would go on into itself for ever: GNU cp's stops at
 * PATH_MAX, sweep-cp has none). Said so. */
static bool made_here(struct copy *c, const struct sweep_entry *e)
{
	if (!guards_made(c) ||
	    !keymap_get(&c->made_dirs, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino))
		return false;
	copy_error(c, 0, "cannot copy a directory, %s, into itself, %s", cq(c, 0, e->path),
	           cq(c, 1, sb_str(&c->shown)));
	return true;
}

/* operand_dirs_once: whether e is a directory operand met again (said so, as
 * GNU cp says it); an operand is remembered. Links followed there (-L, -H
 * for an operand) copy it again, as GNU's. */
static bool operand_again(struct copy *c, const struct sweep_entry *e)
{
	if (!c->o->operand_dirs_once)
		return false;
	uint64_t *at = keymap_get(&c->operand_dirs, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino);
	if (!at) {
		size_t off = c->operand_names.len;
		/* (without memory: not remembered, copied again as before) */
		if (e->depth == 0 && sb_add(&c->operand_names, c->shown.s, c->shown.len + 1) == 0 &&
		    keymap_put(&c->operand_dirs, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino,
		               off + 1) < 0)
			c->operand_names.len = off;
		return false;
	}
	if (c->o->follow == SWEEP_FOLLOW_ALL || (e->depth == 0 && c->o->follow == SWEEP_FOLLOW_ROOTS))
		return false;
	/* (--parents may give it the same place again: copied into its copy) */
	if (strcmp(c->operand_names.s + *at - 1, sb_str(&c->shown)) == 0)
		return false;
	copy_error(c, 0, "will not create hard link %s to directory %s",
	           cq(c, 0, sb_str(&c->shown)), cq(c, 1, c->operand_names.s + *at - 1));
	return true;
}

void dirs_enter(struct copy *c, const struct sweep_entry *e)
{
	const char *name;
	unsigned flags = 0;
	mode_t mode = 0;
	if (made_here(c, e) || operand_again(c, e)) {
		copy_prune(c, e);
		return;
	}
	errno = 0;
	int pfd = destdir_parent(c, e, &name);
	if (pfd < 0 && c->o->dry_run)
		return; /* inside a directory a real run would make */
	int fd = pfd < 0 ? -1 : make_dir(c, e, pfd, name, &flags, &mode);
	if (fd == -2)
		return;
	if (pfd < 0)
		copy_error(c, errno, "cannot create directory %s", cq(c, 0, sb_str(&c->shown)));
	if (fd < 0 || destdir_add(c, e->dir_id, fd, flags, mode) < 0) {
		if (fd >= 0)
			copy_error(c, ENOMEM, "%s", cq(c, 0, e->path));
		/* nothing below it can be made: do not read it */
		copy_prune(c, e);
	}
}

/* The source directory, for its extended attributes; -1 when it cannot be
 * opened (the attributes are then left alone). */
static int open_source(struct copy *c, const struct sweep_entry *e)
{
	int nofollow = copy_follows(c, e) ? 0 : O_NOFOLLOW;
	return openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | nofollow);
}

void dirs_leave(struct copy *c, const struct sweep_entry *e)
{
	unsigned flags;
	mode_t mode;
	int fd = destdir_take(c, e->dir_id, sb_str(&c->drel), &flags, &mode);
	if (fd == -2)
		return; /* never made: reported */
	if (fd < 0) {
		copy_error(c, errno, "cannot access %s", cq(c, 0, sb_str(&c->shown)));
		return;
	}
	if (c->o->dry_run) {
		close(fd);
		return;
	}
	int sfd = c->o->preserve_xattr || c->o->preserve_mode || c->o->preserve_acl
	          ? open_source(c, e) : -1;
	/* after the files the writer thread may still be finishing in it
	 * (sweep-sync renames them into place: the directory's times move) */
	if (writer_give_dir(c, e, fd, sfd, flags, mode))
		return;
	attrs_fd(c, fd, sfd, &e->st, flags & DIR_CREATED, mode, flags);
	if (sfd >= 0)
		close(sfd);
	close(fd);
}
