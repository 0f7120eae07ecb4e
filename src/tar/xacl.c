/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xacl.c: ACLs under -x --acls, where libarchive's disk writer leaves them
 * other than the archive says, as GNU tar would not:
 * - a directory's default ACL is set only on a directory libarchive makes
 *   itself; on one that is there already (restored over, or made earlier
 *   for a member below it, as every directory of sweep-tar's own archives
 *   is, being stored after what it holds) it was lost without a word. It is
 *   set here, as the system.posix_acl_default attribute the kernel reads;
 * - a member without ACLs in the archive keeps what it inherited from its
 *   directory's default ACL; GNU tar gives it the ACL its mode says, that
 *   is none, and so does this file.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "extract.h"
#include "xfail.h"

/* The kernel's posix_acl xattr: a version, then entries sorted by tag and
 * id, little-endian. */
enum { ACL_XATTR_VERSION = 2, ACL_UNDEFINED_ID = -1 };
struct acl_xentry {
	uint16_t tag, perm;
	uint32_t id;
};

/* The kernel's tag for libarchive's, and its rank in the kernel's order. */
static uint16_t kernel_tag(int tag)
{
	switch (tag) {
	case ARCHIVE_ENTRY_ACL_USER_OBJ: return 0x01;
	case ARCHIVE_ENTRY_ACL_USER: return 0x02;
	case ARCHIVE_ENTRY_ACL_GROUP_OBJ: return 0x04;
	case ARCHIVE_ENTRY_ACL_GROUP: return 0x08;
	case ARCHIVE_ENTRY_ACL_MASK: return 0x10;
	case ARCHIVE_ENTRY_ACL_OTHER: return 0x20;
	}
	return 0;
}

static int by_tag_then_id(const void *a, const void *b)
{
	const struct acl_xentry *x = a, *y = b;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The id an ACL entry names: by its name where it has one (GNU tar's
 * archives give only names) and --numeric-owner is not given, else by its
 * number; -1 when neither says. */
static int qualifier(bool numeric, bool user, const char *name, int id)
{
	if (!numeric && name && *name) {
		struct passwd *pw = user ? getpwnam(name) : NULL;
		struct group *gr = user ? NULL : getgrnam(name);
		if (pw)
			return (int)pw->pw_uid;
		if (gr)
			return (int)gr->gr_gid;
	}
	return id;
}

/* e's default ACL in the kernel's form: its entries at *out (malloc'ed).
 * Returns how many, or -1 (ENOMEM, an entry the kernel has no tag for, or
 * one that names nobody known). */
static int kernel_acl(struct archive_entry *e, int n, bool numeric, struct acl_xentry **out)
{
	struct acl_xentry *v = calloc((size_t)n + 1, sizeof(*v));
	int type, perm, tag, id, i = 0;
	const char *name;
	if (!v)
		return -1;
	while (i < n && archive_entry_acl_next(e, ARCHIVE_ENTRY_ACL_TYPE_DEFAULT, &type, &perm,
	                                       &tag, &id, &name) == ARCHIVE_OK) {
		uint16_t k = kernel_tag(tag);
		if (!k) {
			free(v);
			errno = EINVAL;
			return -1;
		}
		bool qualified = k == 0x02 || k == 0x08;
		if (qualified && (id = qualifier(numeric, k == 0x02, name, id)) < 0) {
			free(v);
			errno = EINVAL;
			return -1;
		}
		v[i++] = (struct acl_xentry){ k, (uint16_t)(perm & 7),
		                              qualified ? (uint32_t)id : (uint32_t)ACL_UNDEFINED_ID };
	}
	qsort(v, (size_t)i, sizeof(*v), by_tag_then_id);
	*out = v;
	return i;
}

/* Serialise n entries after the version word, little-endian, into buf. */
static size_t to_xattr(const struct acl_xentry *v, int n, unsigned char *buf)
{
	size_t at = 0;
	uint32_t version = ACL_XATTR_VERSION;
	for (int b = 0; b < 4; b++)
		buf[at++] = (unsigned char)(version >> (8 * b));
	for (int i = 0; i < n; i++) {
		buf[at++] = (unsigned char)v[i].tag, buf[at++] = (unsigned char)(v[i].tag >> 8);
		buf[at++] = (unsigned char)v[i].perm, buf[at++] = (unsigned char)(v[i].perm >> 8);
		for (int b = 0; b < 4; b++)
			buf[at++] = (unsigned char)(v[i].id >> (8 * b));
	}
	return at;
}

/* Drop the ACL of the kind named by attr from name, if any. */
static void drop_acl(struct extract *x, const char *name, const char *attr)
{
	if (lremovexattr(name, attr) < 0 && errno != ENODATA && errno != ENOTSUP &&
	    errno != EOPNOTSUPP) {
		int err = errno;
		char *bare = names_without_slash(name); /* (a directory as GNU names it) */
		tar_warn(x->t, err, "%s: Cannot remove inherited ACL", tq(x->t, 0, bare ? bare : name));
		free(bare);
	}
}

/* Set directory name's default ACL to e's n entries. */
static void set_default(struct extract *x, struct archive_entry *e, const char *name, int n)
{
	struct acl_xentry *v = NULL;
	unsigned char *buf = NULL;
	int fd = -1, err = 0;
	if ((n = kernel_acl(e, n, x->t->opt.numeric_owner, &v)) < 0 || !(buf = malloc(4 + (size_t)n * 8))) {
		err = errno ? errno : ENOMEM;
		goto out;
	}
	size_t len = to_xattr(v, n, buf);
	fd = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fsetxattr(fd, "system.posix_acl_default", buf, len, 0) < 0)
		err = errno;
out:
	if (err)
		xfail_acl(x->t, name, err);
	if (fd >= 0)
		close(fd);
	free(v);
	free(buf);
}

void xacl_match(struct extract *x, struct archive_entry *e, const char *name)
{
	mode_t type = archive_entry_filetype(e);
	/* a hard link's inode has its ACLs from its first member already */
	if (!x->t->opt.acls || type == AE_IFLNK || archive_entry_hardlink(e))
		return;
	if (archive_entry_acl_reset(e, ARCHIVE_ENTRY_ACL_TYPE_ACCESS) <= 0)
		drop_acl(x, name, "system.posix_acl_access");
	else if (lgetxattr(name, "system.posix_acl_access", NULL, 0) < 0 &&
	         (errno == ENOTSUP || errno == EOPNOTSUPP))
		xfail_acl(x->t, name, errno); /* (libarchive passes it over in silence) */
	if (type != AE_IFDIR)
		return;
	int n = archive_entry_acl_reset(e, ARCHIVE_ENTRY_ACL_TYPE_DEFAULT);
	if (n > 0)
		set_default(x, e, name, n);
	else
		drop_acl(x, name, "system.posix_acl_default");
}
