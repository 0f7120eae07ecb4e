/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * regular.c: a regular file's copy, made when its data comes (in the data
 * phase, in the order of the source's blocks), or when it is a later name
 * of a file the walk handed out before (a hard link, linked to the first
 * copy, or copied again from a descriptor opened here).
 *
 * A new file is made with O_EXCL|O_NOFOLLOW, with the source's mode less
 * what GNU cp holds back until the owner is set; an existing one is
 * truncated and written into (see replace.c). A file whose bytes could not
 * all be copied is reported and left as far as it got, shorter than its
 * source, as GNU cp leaves it; it then gets no attributes, so it keeps its
 * creation time and never looks like a finished copy. sweep-sync writes
 * aside and renames (tempfile.c), or, with --inplace, into the file
 * itself but never through a symbolic link.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "copyint.h"
#include "procfd.h"

/* The source of a name the walk handed out without its data. */
static int open_source(struct copy *c, const struct sweep_entry *e, struct stat *st)
{
	int nofollow = copy_follows(c, e) ? 0 : O_NOFOLLOW;
	int fd = openat(e->dirfd, e->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | nofollow);
	if (fd >= 0 && fstat(fd, st) == 0)
		return fd;
	copy_error(c, errno, "cannot open %s for reading", cq(c, 0, e->path));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Cut the existing file open at fd to nothing (O_TRUNC's work), once no
 * copy still queued to the write thread reads it or writes it under
 * another name (a hard link or a symbolic link in the destination, to
 * another destination or to a source): cut first, the earlier copy would
 * write past the new end, or read nothing. Returns 0 or -1 (errno). */
static int cut(struct copy *c, int fd)
{
	struct stat now;
	if (fstat(fd, &now) < 0 || !S_ISREG(now.st_mode))
		return 0; /* (a device or a fifo: O_TRUNC left it as it was) */
	writer_wait_for(c, &now);
	return ftruncate(fd, 0);
}

/* sweep-sync writing into an existing file of the user's that its owner
 * may not write (--inplace, --append): made writable to be opened, as rsync
 * makes it, and given its mode back at once (the descriptor writes all the
 * same), so that no signal, failure or crash leaves it writable. Returns
 * the file opened with flags, or -1 with errno EACCES. */
static int open_unwritable(struct copy *c, int pfd, const char *name, int flags)
{
	struct stat was, now;
	char node_name[PROCFD_NAME_MAX];
	int fd = -1, node = openat(pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (node < 0 || fstat(node, &was) < 0 || !S_ISREG(was.st_mode) ||
	    was.st_uid != geteuid() || (was.st_mode & S_IWUSR) ||
	    chmod(procfd_name(node, node_name), (was.st_mode & 07777) | S_IWUSR) < 0)
		goto out;
	fd = destdir_openat(c, pfd, name, flags | O_NOFOLLOW, 0);
	if (fd >= 0 && (fstat(fd, &now) < 0 || !same_inode(&now, &was))) {
		close(fd); /* another file put there meanwhile */
		fd = -1;
	}
	if (fd < 0)
		(void)chmod(node_name, was.st_mode & 07777);
	else if (fchmod(fd, was.st_mode & 07777) < 0)
		(void)chmod(node_name, was.st_mode & 07777);
out:
	if (node >= 0)
		close(node);
	if (fd < 0)
		errno = EACCES;
	return fd;
}

/* Open the destination as replace.c decided. Returns its descriptor, or
 * -1 (reported); *created tells whether it is new, with *mode. */
static int open_dest(struct copy *c, const struct stat *st, int pfd, const char *name,
                     enum dest_state s, bool *created, mode_t *mode)
{
	const char *shown = sb_str(&c->shown);
	int fd;
	*created = false;
	if (s == DEST_EXISTS) {
		bool trunc = !c->o->attributes_only && !c->o->append;
		int nofollow = c->o->decide ? O_NOFOLLOW : 0;
		int rw = c->o->append_verify ? O_RDWR : O_WRONLY; /* (what it holds is read) */
		fd = destdir_openat(c, pfd, name, rw | O_CLOEXEC | O_NOCTTY | nofollow, 0);
		if (fd < 0 && errno == EACCES && c->o->decide)
			fd = open_unwritable(c, pfd, name, rw | O_CLOEXEC | O_NOCTTY);
		/* sweep-sync as a user: the set-ID bits the kernel clears when
		 * the file is cut or written are given back once it is whole,
		 * as rsync gives it its mode again (GNU cp leaves them off) */
		struct stat was;
		if (fd >= 0 && c->o->decide && !c->o->preserve_mode && geteuid() != 0 &&
		    fstat(fd, &was) == 0 && S_ISREG(was.st_mode) &&
		    (was.st_mode & (S_ISUID | S_ISGID)))
			*mode = (was.st_mode & 07777) | MODE_RESTORE;
		if (fd >= 0 && trunc && cut(c, fd) < 0) { /* as an O_TRUNC refused */
			int err = errno;
			close(fd);
			fd = -1;
			errno = err;
		}
		struct stat now;
		if (fd >= 0 && c->o->append && fstat(fd, &now) == 0 && S_ISREG(now.st_mode) &&
		    now.st_size < st->st_size) {
			c->append_from = now.st_size;
			c->appending = true;
		}
		else if (fd >= 0 && c->o->append && ftruncate(fd, 0) < 0) {
			c->write_failed = true;
			copy_error(c, errno, "cannot truncate %s", cq(c, 0, shown));
			close(fd);
			return -1;
		}
		if (fd >= 0)
			return fd;
		if (!c->o->force && !(nofollow && errno == ELOOP)) {
			copy_error(c, errno, "cannot create regular file %s", cq(c, 0, shown));
			return -1;
		}
		if (replace_remove(c, pfd, name) < 0)
			return -1;
	}
	fd = destdir_openat(c, pfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
	            create_mode(c, st));
	/* the mode it was made with (the umask, a default ACL) counts only
	 * where the source's is not given it (attrs.c) */
	struct stat now;
	if (fd < 0 || (!c->o->preserve_mode && fstat(fd, &now) < 0)) {
		copy_error(c, errno, "cannot create regular file %s", cq(c, 0, shown));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*created = true;
	*mode = c->o->preserve_mode ? 0 : now.st_mode & 07777;
	return fd;
}

int regular_fill(struct copy *c, int sfd, const struct stat *st, int dfd, const char *src,
                 bool created, mode_t mode)
{
	if (!c->o->attributes_only &&
	    (data_copy(c, sfd, st, dfd, created, src) < 0 || data_synced(c, dfd) < 0))
		return 1; /* (a part: no set-ID bit given back) */
	bool restore = !created && (mode & MODE_RESTORE);
	attrs_fd(c, dfd, sfd, st, created, mode & 07777, restore ? DIR_RESTORE : 0);
	return 0;
}

int regular_finish(struct copy *c, int sfd, const struct stat *st, int dfd, const char *src,
                   bool created, mode_t mode)
{
	int r = regular_fill(c, sfd, st, dfd, src, created, mode);
	if (close(dfd) < 0) {
		c->write_failed = true;
		copy_error(c, errno, "failed to close %s", cq(c, 0, sb_str(&c->shown)));
		if (r == 0)
			r = -1;
	}
	return r;
}

void regular_copy(struct copy *c, const struct sweep_entry *e)
{
	const char *name, *backup;
	c->append_from = 0; /* open_dest()'s to set */
	c->appending = false;
	int pfd = special_place(c, e, "regular file ", &name);
	if (pfd < 0)
		return;
	struct stat st = e->st;
	/* from a stream (copy_stream), e->fd is the source stand-in, if any */
	bool stream = c->o->read_data != NULL;
	int sfd = e->kind == SWEEP_DATA || stream ? e->fd : open_source(c, e, &st);
	if (sfd < 0 && !stream)
		return;
	if (sfd != e->fd && c->o->source_view) {
		/* the fresh status, but the mode and owner the copy is to see
		 * (sweep-sync --chmod, --chown) */
		st.st_mode = e->st.st_mode;
		st.st_uid = e->st.st_uid;
		st.st_gid = e->st.st_gid;
	}
	bool created;
	mode_t mode = 0;
	int dfd = -1;
	if (c->o->temp_rename) {
		if (tempfile_copy(c, e, sfd, &st, pfd, name) == 0) {
			hardlink_remember(c, e);
			c->made = true;
		}
		goto out;
	}
	enum dest_state s = replace_prepare(c, e, pfd, name, &backup);
	/* GNU cp -u: a copy kept as newer is the first name its file's later
	 * names are linked to */
	if (s == DEST_SKIP && c->o->update && !c->o->decide)
		hardlink_remember(c, e);
	if (s == DEST_SKIP || s == DEST_FAIL)
		goto out;
	/* (sweep-sync's backups are made by temp_rename or in place, and
	 * stay, as rsync's) */
	bool undo = backup && !c->o->decide && !c->o->backup_dir;
	dfd = open_dest(c, &st, pfd, name, s, &created, &mode);
	if (dfd < 0) {
		if (undo)
			replace_unbackup(c, pfd, name, backup);
		goto out;
	}
	replace_made(c, e, pfd, name);
	c->entry = e;
	struct writer_job j = { .e = e, .sfd = sfd, .dfd = dfd, .st = &st, .created = created,
	                        .mode = mode, .pfd = -1 };
	/* (a backup to put back if the copy fails: the walk's to copy) */
	if (!c->o->attributes_only && !undo && writer_give(c, &j))
		goto out; /* the rest is the writer's */
	writer_wait_for(c, &st); /* its source may be a queued copy's file */
	if (regular_finish(c, sfd, &st, dfd, e->path, created, mode) == 0) {
		hardlink_remember(c, e);
		c->made = true;
	} else if (undo) {
		replace_unbackup(c, pfd, name, backup);
	}
	c->append_from = 0;
	c->appending = false;
out:
	if (sfd != e->fd)
		close(sfd);
}
