/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr.c: --xattrs and --acls on create.
 *
 * Attributes are read through a descriptor, never a path, since paths may
 * exceed PATH_MAX: the data descriptor of a regular file, or an O_PATH
 * descriptor reached through /proc/self/fd (the *xattr calls refuse O_PATH
 * descriptors themselves, but the proc link names the very inode, symlinks
 * included).
 *
 * POSIX ACLs are the system.posix_acl_* attributes; with --acls they are
 * decoded into libarchive's ACL entries (stored as SCHILY.acl.* in pax, what
 * GNU tar reads), and with --xattrs they are not stored again as raw bytes.
 */
#include <archive_entry.h>
#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "create.h"
#include "procfd.h"

#define ACL_ACCESS  "system.posix_acl_access"
#define ACL_DEFAULT "system.posix_acl_default"

/* Linux's binary POSIX ACL (include/uapi/linux/posix_acl_xattr.h). */
struct acl_header { uint32_t version; };
struct acl_entry { uint16_t tag, perm; uint32_t id; };
enum { ACL_USER_OBJ = 1, ACL_USER = 2, ACL_GROUP_OBJ = 4, ACL_GROUP = 8, ACL_MASK = 16,
       ACL_OTHER = 32 };

/* A handle on e for the xattr calls: either a descriptor (fd >= 0) or a
 * /proc path. */
struct xhandle {
	int fd;
	int opened;
	char path[PROCFD_NAME_MAX];
};

static int xopen(struct xhandle *h, const struct create *cr, const struct sweep_entry *e)
{
	h->fd = h->opened = -1;
	if (e->kind == SWEEP_DATA && e->fd >= 0) {
		h->fd = e->fd;
		return 0;
	}
	int flags = O_PATH | O_CLOEXEC | (cr->t->opt.dereference ? 0 : O_NOFOLLOW);
	h->opened = openat(e->dirfd, e->name, flags);
	if (h->opened < 0)
		return -1;
	procfd_name(h->opened, h->path);
	return 0;
}

static ssize_t xlist(struct xhandle *h, char *buf, size_t size)
{
	return h->fd >= 0 ? flistxattr(h->fd, buf, size) : listxattr(h->path, buf, size);
}

static ssize_t xget(struct xhandle *h, const char *name, void *buf, size_t size)
{
	return h->fd >= 0 ? fgetxattr(h->fd, name, buf, size) : getxattr(h->path, name, buf, size);
}

/* The value of attribute name into sb (sb->len its length). Returns 0, or
 * -1 with errno set. */
static int read_value(struct xhandle *h, const char *name, struct strbuf *sb)
{
	for (;;) {
		ssize_t n = xget(h, name, NULL, 0);
		sb_reset(sb);
		if (n < 0 || sb_reserve(sb, (size_t)n + 1) < 0)
			return -1;
		ssize_t m = xget(h, name, sb->s, (size_t)n + 1);
		if (m >= 0) {
			sb->len = (size_t)m;
			return 0;
		}
		if (errno != ERANGE)
			return -1;
	}
}

/* Add the ACL in value (len bytes) of type (ARCHIVE_ENTRY_ACL_TYPE_*). */
static void add_acl(struct create *cr, const char *value, size_t len, int type)
{
	static const struct { uint16_t tag; int archive_tag; } tags[] = {
		{ ACL_USER_OBJ, ARCHIVE_ENTRY_ACL_USER_OBJ }, { ACL_USER, ARCHIVE_ENTRY_ACL_USER },
		{ ACL_GROUP_OBJ, ARCHIVE_ENTRY_ACL_GROUP_OBJ }, { ACL_GROUP, ARCHIVE_ENTRY_ACL_GROUP },
		{ ACL_MASK, ARCHIVE_ENTRY_ACL_MASK }, { ACL_OTHER, ARCHIVE_ENTRY_ACL_OTHER },
	};
	for (size_t off = sizeof(struct acl_header); off + sizeof(struct acl_entry) <= len;
	     off += sizeof(struct acl_entry)) {
		struct acl_entry a;
		memcpy(&a, value + off, sizeof(a));
		for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
			if (tags[i].tag != a.tag)
				continue;
			const char *name = a.tag == ACL_USER ? idcache_user(&cr->t->ids, a.id)
			                 : a.tag == ACL_GROUP ? idcache_group(&cr->t->ids, a.id)
			                 : NULL;
			archive_entry_acl_add_entry(cr->entry, type, a.perm & 7, tags[i].archive_tag,
			                            (int)a.id, name);
		}
	}
}

/* Whether a pattern of ex matches name, as GNU tar's masks do. */
static bool mask_match(const struct exclude *ex, const char *name)
{
	for (size_t i = 0; i < ex->n; i++)
		if (fnmatch(ex->v[i].pattern, name, 0) == 0)
			return true;
	return false;
}

bool xattr_wanted(const struct tar_opts *o, const char *name, bool archiving)
{
	bool in = o->xattr_include.n ? mask_match(&o->xattr_include, name)
	          : archiving || strncmp(name, "user.", 5) == 0;
	return in && !mask_match(&o->xattr_exclude, name);
}

/* Store one attribute as the options ask. */
static void add_one(struct create *cr, struct xhandle *h, const char *name,
                    const struct sweep_entry *e)
{
	bool access = strcmp(name, ACL_ACCESS) == 0, dflt = strcmp(name, ACL_DEFAULT) == 0;
	if ((access || dflt) ? !cr->t->opt.acls : !cr->t->opt.xattrs)
		return;
	if (!access && !dflt && !xattr_wanted(&cr->t->opt, name, true))
		return;
	if (read_value(h, name, &cr->xattr) < 0) {
		if (errno != ENODATA)
			tar_warn(cr->t, errno, "%s: Cannot get xattr %s", tq(cr->t, 0, e->path), name);
		return;
	}
	if (access || dflt)
		add_acl(cr, cr->xattr.s, cr->xattr.len,
		        access ? ARCHIVE_ENTRY_ACL_TYPE_ACCESS : ARCHIVE_ENTRY_ACL_TYPE_DEFAULT);
	else
		archive_entry_xattr_add_entry(cr->entry, name, cr->xattr.s, cr->xattr.len);
}

void xattr_fill(struct create *cr, const struct sweep_entry *e)
{
	struct xhandle h;
	struct strbuf names = STRBUF_INIT;
	if (xopen(&h, cr, e) < 0)
		goto fail;
	ssize_t n;
	while ((n = xlist(&h, NULL, 0)) > 0) {
		sb_reset(&names);
		if (sb_reserve(&names, (size_t)n) < 0)
			goto fail;
		n = xlist(&h, names.s, (size_t)n);
		if (n >= 0 || errno != ERANGE)
			break;
	}
	if (n < 0 && errno != ENOTSUP)
		goto fail;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names.s + i) + 1)
		add_one(cr, &h, names.s + i, e);
	goto out;
fail:
	tar_warn(cr->t, errno, "%s: Cannot list xattrs", tq(cr->t, 0, e->path));
out:
	if (h.opened >= 0)
		close(h.opened);
	sb_free(&names);
}
