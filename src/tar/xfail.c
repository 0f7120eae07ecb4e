/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xfail.c: a member that could not be created on disk, in GNU tar's words.
 *
 * libarchive says "Can't create 'NAME'" whatever NAME is; GNU tar names the
 * call that failed and why: "dev: Cannot mknod: Operation not permitted",
 * "file: Cannot open: Read-only file system". The errno is libarchive's;
 * the call follows from the member's type. A parent directory that cannot
 * be made is, as in GNU tar, its own "Cannot mkdir" and then the member's
 * failure for want of it (ENOENT). An existing file (or symlink) that
 * cannot be removed to make room is GNU's EEXIST. libarchive has no other channel for any of
 * this than its message, so the message's fixed words are matched here.
 * So are those of its warnings that extended attributes or an ACL could
 * not be set (GNU's "setxattrat: Cannot set 'user.a' extended attribute
 * for file 'f'", "acl_set_file_at: Cannot set POSIX ACLs for file 'f'",
 * warnings with the kernel's reason).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "xfail.h"

/* Member name as GNU tar says it: a directory without its trailing '/'. */
static const char *plain_name(struct strbuf *sb, const char *name)
{
	size_t n = names_bare_len(name);
	sb_reset(sb);
	if (sb_add(sb, name, n) < 0)
		return name;
	return sb_str(sb);
}

void xfail_said(struct tar *t, struct archive_entry *e, const char *name, int err)
{
	struct strbuf sb = { 0 };
	const char *q = tq(t, 0, plain_name(&sb, name));
	const char *link = archive_entry_hardlink(e);
	if (link) {
		tar_error(t, err, "%s: Cannot hard link to %s", q,
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, link));
		goto out;
	}
	switch (archive_entry_filetype(e)) {
	case AE_IFDIR:
		tar_error(t, err, "%s: Cannot mkdir", q);
		break;
	case AE_IFLNK:
		tar_error(t, err, "%s: Cannot create symlink to %s", q,
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, archive_entry_symlink(e)));
		break;
	case AE_IFCHR:
	case AE_IFBLK:
		tar_error(t, err, "%s: Cannot mknod", q);
		break;
	case AE_IFIFO:
		tar_error(t, err, "%s: Cannot mkfifo", q);
		break;
	default:
		tar_error(t, err, "%s: Cannot open", q);
		break;
	}
out:
	sb_free(&sb);
}

/* Why directory dir could not be made. libarchive's errno is that of the
 * stat it tries after mkdir fails (ENOENT where there was no space, no
 * inode, no permission), so mkdir is asked again for its own; one that
 * is made now (space come back) is taken away again, its member failed,
 * and libarchive's word stands. */
static int mkdir_errno(const char *dir, int fallback)
{
	if (mkdir(dir, 0700) == 0) {
		(void)rmdir(dir);
		return fallback;
	}
	return errno == EEXIST ? fallback : errno;
}

/* The quoted name in libarchive's "... 'NAME'" message, into sb; NULL when
 * there is none. */
static const char *quoted(struct strbuf *sb, const char *msg, const char *prefix)
{
	size_t n = strlen(prefix), len = strlen(msg);
	if (strncmp(msg, prefix, n) != 0 || len < n + 1 || msg[len - 1] != '\'')
		return NULL;
	sb_reset(sb);
	if (sb_add(sb, msg + n, len - n - 1) < 0)
		return NULL;
	return sb_str(sb);
}

bool xfail_create(struct tar *t, struct archive *disk, struct archive_entry *e,
                  const char *name)
{
	const char *msg = archive_error_string(disk);
	int err = archive_errno(disk);
	struct strbuf sb = { 0 };
	const char *dir;
	bool known = true;
	if (!msg || err <= 0)
		known = false;
	else if (strncmp(msg, "Can't create '", 14) == 0)
		xfail_said(t, e, name, err);
	else if (strcmp(msg, "Can't unlink already-existing object") == 0 ||
	         strcmp(msg, "Can't replace existing directory with non-directory") == 0 ||
	         strncmp(msg, "Could not remove symlink ", 25) == 0)
		xfail_said(t, e, name, EEXIST);
	else if ((dir = quoted(&sb, msg, "Failed to create dir '")) != NULL) {
		tar_error(t, mkdir_errno(dir, err), "%s: Cannot mkdir", tq(t, 0, dir));
		xfail_said(t, e, name, ENOENT);
	} else
		known = false;
	sb_free(&sb);
	return known;
}

/* Whether name has attribute attr with value (size bytes). */
static bool has_xattr(const char *name, const char *attr, const void *value, size_t size)
{
	char buf[256];
	if (size > sizeof(buf))
		return false; /* (set again: the same bytes again) */
	ssize_t n = lgetxattr(name, attr, buf, sizeof(buf));
	return n >= 0 && (size_t)n == size && memcmp(buf, value, size) == 0;
}

/* The extended attributes of member e that name lacks after libarchive
 * said it could not set some (its errno is not the kernel's; a later
 * failure, an ACL's, takes the place of its message): each is set again,
 * and one that fails still is said in GNU tar's words, with the kernel's
 * reason, before the ACL's, in the archive's order (libarchive hands
 * them out last first). */
static void xattrs_failed(struct tar *t, struct archive_entry *e, const char *name)
{
	const char *call = archive_entry_filetype(e) == AE_IFLNK ? "lsetxattr" : "setxattrat";
	int n = archive_entry_xattr_reset(e);
	struct { const char *attr; const void *value; size_t size; } *v;
	if (!t->opt.xattrs || n <= 0 || !(v = calloc((size_t)n, sizeof(*v))))
		return;
	int k = 0;
	while (k < n && archive_entry_xattr_next(e, &v[k].attr, &v[k].value, &v[k].size) == ARCHIVE_OK)
		k++;
	while (k-- > 0) {
		if (strncmp(v[k].attr, "system.posix_acl_", 17) == 0 ||
		    has_xattr(name, v[k].attr, v[k].value, v[k].size) ||
		    lsetxattr(name, v[k].attr, v[k].value, v[k].size, 0) == 0)
			continue;
		tar_warn(t, errno, "%s: Cannot set '%s' extended attribute for file '%s'", call,
		         v[k].attr, name);
	}
	free(v);
}

void xfail_acl(struct tar *t, const char *name, int err)
{
	char *bare = names_without_slash(name); /* (a directory as GNU names it) */
	tar_warn(t, err, "acl_set_file_at: Cannot set POSIX ACLs for file '%s'", bare ? bare : name);
	free(bare);
}

bool xfail_attrs(struct tar *t, struct archive *disk, struct archive_entry *e, const char *name)
{
	const char *msg = archive_error_string(disk);
	int err = archive_errno(disk);
	if (!msg)
		return false;
	if (strncmp(msg, "Cannot restore extended attributes", 34) == 0) {
		xattrs_failed(t, e, name);
	} else if (strncmp(msg, "Failed to set acl", 17) == 0 && err > 0) {
		xattrs_failed(t, e, name);
		xfail_acl(t, name, err);
	} else {
		return false;
	}
	return true;
}
