/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr.c: extended attributes, read with flistxattr/fgetxattr and set
 * with fsetxattr: no library beyond libc. ACLs are the attributes
 * system.posix_acl_access and system.posix_acl_default, which GNU cp
 * copies with the mode (-p); the others go with --preserve=xattr. As
 * GNU cp does, an ACL the source lacks is taken off the copy (one a new
 * file inherited from its directory's default ACL), and a file system that
 * has no attributes is no error unless --preserve=xattr asked for them.
 * sweep-sync takes ACLs apart from the mode (-A), and under only_changed
 * an attribute the destination has already with the same value is left
 * alone (setting it would move the file's ctime).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include "copyint.h"

static const char *const acl_names[] = {
	"system.posix_acl_access", "system.posix_acl_default", NULL,
};

static bool is_acl(const char *name)
{
	return strncmp(name, "system.posix_acl_", 17) == 0;
}

/* Attributes no copy should carry: they belong to the file system or to
 * security modules this program does not speak for. */
static bool never_copied(const char *name)
{
	return strcmp(name, "security.selinux") == 0 || strcmp(name, "security.evm") == 0 ||
	       strncmp(name, "trusted.SGI_", 12) == 0;
}

/* The list of sfd's attribute names (NUL-separated) in *list; its length,
 * or -1 with errno. */
static ssize_t list_names(int sfd, char **list)
{
	*list = NULL;
	for (;;) {
		ssize_t n = flistxattr(sfd, NULL, 0);
		if (n <= 0)
			return n;
		char *v = realloc(*list, (size_t)n);
		if (!v)
			return -1;
		*list = v;
		ssize_t got = flistxattr(sfd, v, (size_t)n);
		if (got >= 0 || errno != ERANGE)
			return got;
	}
}

/* Whether dfd has attribute name with value v (n bytes) already. */
static bool same_value(int dfd, const char *name, const char *v, ssize_t n)
{
	char small[4096];
	if (n > (ssize_t)sizeof(small))
		return false; /* rare enough to be set again */
	ssize_t m = fgetxattr(dfd, name, small, sizeof(small));
	return m == n && memcmp(small, v, (size_t)n) == 0;
}

/* Copy one attribute. Returns 0 or the errno of the failure. */
static int copy_one(int sfd, int dfd, const char *name, bool only_changed)
{
	char small[4096], *buf = small;
	ssize_t n = fgetxattr(sfd, name, small, sizeof(small));
	if (n < 0 && errno == ERANGE) {
		n = fgetxattr(sfd, name, NULL, 0);
		buf = n > 0 ? malloc((size_t)n) : NULL;
		n = buf ? fgetxattr(sfd, name, buf, (size_t)n) : -1;
	}
	int err = n < 0 ? errno : 0;
	if (n >= 0 && !(only_changed && same_value(dfd, name, buf, n)) &&
	    fsetxattr(dfd, name, buf, (size_t)n, 0) < 0)
		err = errno;
	if (buf != small)
		free(buf);
	return err;
}

static bool listed(const char *list, ssize_t len, const char *name)
{
	for (const char *p = list; p < list + len; p += strlen(p) + 1)
		if (strcmp(p, name) == 0)
			return true;
	return false;
}

/* The ACLs dfd has (inherited from its directory's default ACL, or an
 * older copy's) that the source's list (len bytes) lacks, taken off: one
 * call where it has none, not one for each kind. */
static void drop_acls(int dfd, const char *list, ssize_t len)
{
	char *have;
	ssize_t n = list_names(dfd, &have);
	for (int i = 0; n > 0 && acl_names[i]; i++)
		if (listed(have, n, acl_names[i]) && !listed(list, len, acl_names[i]))
			fremovexattr(dfd, acl_names[i]);
	free(have);
}

int xattr_copy(struct copy *c, int sfd, int dfd, bool acl_only)
{
	char *list;
	ssize_t len = list_names(sfd, &list);
	int r = 0;
	bool want_xattr = c->o->preserve_xattr && !acl_only;
	bool want_acl = c->o->acls_apart ? c->o->preserve_acl : c->o->preserve_mode;
	if (len < 0) {
		if (errno != ENOTSUP || c->o->require_xattr) {
			copy_warn(c, c->o->require_xattr, errno, "listing attributes of %s",
			          cq(c, 0, sb_str(&c->shown)));
			r = -1;
		}
		len = 0;
	}
	for (const char *p = list; p && p < list + len; p += strlen(p) + 1) {
		bool acl = is_acl(p);
		if (never_copied(p) || (acl ? !want_acl : !want_xattr))
			continue;
		int err = copy_one(sfd, dfd, p, c->o->only_changed);
		if (err && (err != ENOTSUP || c->o->require_xattr || acl)) {
			copy_warn(c, c->o->require_xattr || (acl && c->o->require_preserve), err,
			          "setting attribute %s for %s", cq(c, 1, p),
			          cq(c, 0, sb_str(&c->shown)));
			r = -1;
		}
	}
	if (want_acl)
		drop_acls(dfd, list, len);
	free(list);
	return r;
}
