/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * overwrite.c: -x over files already there, as --overwrite and
 * --no-overwrite-dir ask.
 *
 * By default an existing file is unlinked and a new one made in its place
 * (libarchive's disk writer does that, as GNU tar does). GNU tar's
 * --overwrite instead writes a regular file's member into the regular file
 * there: the same inode, so its other hard links and whoever has it open
 * see the new contents. libarchive's disk writer cannot, so such a
 * member's data goes here through a descriptor of the file there, and its
 * owner, mode and time are set here as the disk writer would set them
 * (extended attributes and ACLs are not). Whatever else is there (a
 * symbolic link, a device) is replaced as by default; a directory in the
 * way stays, "Is a directory", as in GNU tar.
 *
 * --no-overwrite-dir keeps the mode and owner of a directory that is there
 * already; GNU tar still gives it the member's time.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"

mode_t member_mode(const struct tar *t, struct archive_entry *e)
{
	mode_t mode = archive_entry_perm(e) & 07777;
	return t->opt.same_perms ? mode : mode & 0777 & ~t->opt.umask;
}

/* Owner (under --same-owner), then mode (chown may clear set-id bits),
 * then time (unless -m) of the file written in place; failures reported
 * in GNU tar's words. */
static void set_attributes(struct extract *x, struct archive_entry *e, int fd, const char *name)
{
	struct tar *t = x->t;
	if (t->opt.same_owner) {
		uid_t uid = (uid_t)archive_write_disk_uid(x->disk, archive_entry_uname(e),
		                                          archive_entry_uid(e));
		gid_t gid = (gid_t)archive_write_disk_gid(x->disk, archive_entry_gname(e),
		                                          archive_entry_gid(e));
		if (fchown(fd, uid, gid) < 0)
			tar_error(t, errno, "%s: Cannot change ownership to uid %ju, gid %ju",
			          tq(t, 0, name), (uintmax_t)uid, (uintmax_t)gid);
	}
	mode_t mode = member_mode(t, e);
	if (fchmod(fd, mode) < 0)
		tar_cannot_chmod(t, name, mode, errno);
	if (t->opt.touch)
		return;
	struct timespec times[2] = {
		{ .tv_nsec = UTIME_NOW },
		{ archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
	};
	if (archive_entry_atime_is_set(e))
		times[0] = (struct timespec){ archive_entry_atime(e), archive_entry_atime_nsec(e) };
	if (futimens(fd, times) < 0)
		tar_cannot(t, name, "utime", errno);
}

/* The regular file at name, opened to be written over, or -1: not one
 * (*there says whether something else is), or it cannot be opened
 * (reported, *there true). */
static int open_existing(struct tar *t, const char *name, bool *there)
{
	struct stat st;
	*there = lstat(name, &st) == 0;
	if (!*there || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		*there = false;
		return -1;
	}
	int fd = open(name, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		tar_cannot(t, name, "open", errno);
	return fd;
}

int overwrite_file(struct extract *x, struct archive_entry *e, const char *name, uint64_t size)
{
	struct tar *t = x->t;
	bool there;
	if (!t->opt.overwrite || !x->disk || archive_entry_filetype(e) != AE_IFREG ||
	    archive_entry_hardlink(e))
		return 0;
	int fd = open_existing(t, name, &there);
	if (fd < 0)
		return there ? (t->fatal ? -1 : 1) : 0;
	x->out_fd = fd;
	int r = xdata_copy(x, name, size);
	x->out_fd = -1;
	if (r < 0) {
		close(fd);
		if (sb_addstr(&x->partial, name) < 0)
			tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	/* data that ends in a hole: the file gets its whole size */
	if (!x->write_failed && x->written < size && ftruncate(fd, (off_t)size) < 0)
		tar_error(t, errno, "%s: Cannot write", tq(t, 0, name));
	set_attributes(x, e, fd, name);
	if (close(fd) < 0)
		tar_cannot(t, name, "close", errno);
	return 1;
}

void overwrite_dir_keep(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st;
	if (!x->t->opt.no_overwrite_dir || archive_entry_filetype(e) != AE_IFDIR ||
	    lstat(name, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	archive_entry_set_perm(e, st.st_mode & 07777);
	archive_entry_set_uid(e, st.st_uid);
	archive_entry_set_gid(e, st.st_gid);
	/* the disk writer would look the names up again */
	archive_entry_set_uname(e, NULL);
	archive_entry_set_gname(e, NULL);
}
