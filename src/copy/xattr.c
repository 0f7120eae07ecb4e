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
 * alone (setting it would move the file's ctime), and one the source lacks
 * is taken off, as rsync -X does; copy_xattrs_differ() tells its -i
 * letters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "copyint.h"
#include "procfd.h"

/* The f*xattr calls, for a descriptor opened O_PATH too (a fifo, a device:
 * nodes never opened for their data), through its /proc/self/fd name,
 * which reaches the same inode (the f* calls say EBADF for it). */

static ssize_t x_list(int fd, char *list, size_t size)
{
	char p[PROCFD_NAME_MAX];
	ssize_t r = flistxattr(fd, list, size);
	return r < 0 && errno == EBADF ? listxattr(procfd_name(fd, p), list, size) : r;
}

static ssize_t x_get(int fd, const char *name, void *v, size_t size)
{
	char p[PROCFD_NAME_MAX];
	ssize_t r = fgetxattr(fd, name, v, size);
	return r < 0 && errno == EBADF ? getxattr(procfd_name(fd, p), name, v, size) : r;
}

static int x_set(int fd, const char *name, const void *v, size_t size)
{
	char p[PROCFD_NAME_MAX];
	int r = fsetxattr(fd, name, v, size, 0);
	return r < 0 && errno == EBADF ? setxattr(procfd_name(fd, p), name, v, size, 0) : r;
}

static int x_remove(int fd, const char *name)
{
	char p[PROCFD_NAME_MAX];
	int r = fremovexattr(fd, name);
	return r < 0 && errno == EBADF ? removexattr(procfd_name(fd, p), name) : r;
}

bool xattr_drop_access_acl(int fd)
{
	return x_get(fd, "system.posix_acl_access", NULL, 0) >= 0 &&
	       x_remove(fd, "system.posix_acl_access") == 0;
}

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
		ssize_t n = x_list(sfd, NULL, 0);
		if (n <= 0)
			return n;
		char *v = realloc(*list, (size_t)n);
		if (!v)
			return -1;
		*list = v;
		ssize_t got = x_list(sfd, v, (size_t)n);
		if (got >= 0 || errno != ERANGE)
			return got;
	}
}

static bool same_values(const char *name, const char *a, ssize_t na, const char *b, ssize_t nb);

/* Whether dfd has attribute name with value v (n bytes) already. */
static bool same_value(int dfd, const char *name, const char *v, ssize_t n)
{
	char small[4096];
	if (n > (ssize_t)sizeof(small))
		return false; /* rare enough to be set again */
	ssize_t m = x_get(dfd, name, small, sizeof(small));
	return m >= 0 && same_values(name, small, m, v, n);
}

/* The value of fd's attribute name: in small (cap bytes) or in *big (to
 * be freed); its length, or -1. */
static ssize_t get_value(int fd, const char *name, char *small, size_t cap, char **big)
{
	*big = NULL;
	ssize_t n = x_get(fd, name, small, cap);
	if (n < 0 && errno == ERANGE) {
		n = x_get(fd, name, NULL, 0);
		*big = n > 0 ? malloc((size_t)n) : NULL;
		n = *big ? x_get(fd, name, *big, (size_t)n) : -1;
	}
	return n;
}

/* Copy one attribute. Returns 0 or the errno of the failure. */
static int copy_one(int sfd, int dfd, const char *name, bool only_changed)
{
	char small[4096], *big;
	ssize_t n = get_value(sfd, name, small, sizeof(small), &big);
	const char *buf = big ? big : small;
	int err = n < 0 ? errno : 0;
	if (n >= 0 && !(only_changed && same_value(dfd, name, buf, n)) &&
	    x_set(dfd, name, buf, (size_t)n) < 0)
		err = errno;
	free(big);
	return err;
}

static bool listed(const char *list, ssize_t len, const char *name)
{
	for (const char *p = list; list && len > 0 && p < list + len; p += strlen(p) + 1)
		if (strcmp(p, name) == 0)
			return true;
	return false;
}

/* Whether a copy carries the attribute name: an ACL with want_acl, another
 * with want_xattr, never those above. */
static bool carried(const char *name, bool want_xattr, bool want_acl)
{
	return is_acl(name) ? want_acl : want_xattr && !never_copied(name);
}

/* Whether a copy's own attribute is compared with the source's and taken
 * off where the source lacks it: not the file system's own (system.*, the
 * ACLs apart), which it may show on any file; and in a user's run only
 * user.* ones, as rsync's (security.* and trusted.* are root's to set). */
static bool compared(const char *name, bool want_xattr, bool want_acl)
{
	if (is_acl(name))
		return want_acl;
	return carried(name, want_xattr, want_acl) && strncmp(name, "system.", 7) != 0 &&
	       (strncmp(name, "user.", 5) == 0 || geteuid() == 0);
}

/* fd's attribute names as list_names() gives them, where a file system
 * that has none (ENOTSUP) lists none; -1 only for a failure. */
static ssize_t names_or_none(int fd, char **list)
{
	ssize_t n = list_names(fd, list);
	if (n < 0 && errno == ENOTSUP) {
		free(*list);
		*list = NULL;
		return 0;
	}
	return n;
}

/* An access ACL's entries beside the mode's own bits (the owner's,
 * other's, the mask's, and the owning group's where no mask stands for
 * it), as the kernel stores them: a 4-byte version, then 8-byte entries (tag, perm,
 * id), in order. Whether a and b have the same, as rsync judges an ACL
 * "equal enough"; false where either does not parse. */
static bool same_acl_beside_mode(const unsigned char *a, size_t na, const unsigned char *b,
                                 size_t nb)
{
	enum { USER_OBJ = 1, GROUP_OBJ = 4, MASK = 0x10, OTHER = 0x20 };
	if (na < 4 || nb < 4 || (na - 4) % 8 || (nb - 4) % 8)
		return false;
	const unsigned char *v[2] = { a, b };
	size_t n[2] = { na, nb }, kept[2] = { 0, 0 };
	unsigned char keep[2][64][8];
	for (int k = 0; k < 2; k++) {
		bool mask = false;
		for (size_t i = 4; i < n[k]; i += 8)
			mask |= (v[k][i] | v[k][i + 1] << 8) == MASK;
		for (size_t i = 4; i < n[k]; i += 8) {
			unsigned tag = v[k][i] | v[k][i + 1] << 8;
			if (tag == USER_OBJ || tag == OTHER || (tag == GROUP_OBJ && !mask))
				continue;
			if (kept[k] == 64)
				return false; /* long: compared byte for byte */
			memcpy(keep[k][kept[k]], v[k] + i, 8);
			if (tag == MASK) /* its bits are the mode's group bits */
				keep[k][kept[k]][2] = keep[k][kept[k]][3] = 0;
			kept[k]++;
		}
	}
	return kept[0] == kept[1] && memcmp(keep[0], keep[1], kept[0] * 8) == 0;
}

/* Whether two values of the attribute name say the same. */
static bool same_values(const char *name, const char *a, ssize_t na, const char *b, ssize_t nb)
{
	if (na == nb && (na <= 0 || memcmp(a, b, (size_t)na) == 0))
		return true;
	return na > 0 && nb > 0 && strcmp(name, "system.posix_acl_access") == 0 &&
	       same_acl_beside_mode((const unsigned char *)a, (size_t)na,
	                            (const unsigned char *)b, (size_t)nb);
}

/* The attributes dfd has that the source's list (len bytes) lacks, taken
 * off: an ACL a new file inherited from its directory's default ACL, and
 * under only_changed whatever an older copy has (rsync -X leaves the copy
 * with the source's own set). One call where it has none. */
static void drop_extras(const struct copy_opts *o, int dfd, const char *list, ssize_t len,
                        bool want_xattr, bool want_acl)
{
	char *have;
	ssize_t n = list_names(dfd, &have);
	for (const char *p = have; n > 0 && p < have + n; p += strlen(p) + 1)
		if (compared(p, want_xattr && o->only_changed, want_acl) && !listed(list, len, p))
			x_remove(dfd, p);
	free(have);
}

/* Whether name has the same value on a and b (both lack it: the same). */
static bool same_attr(int a, int b, const char *name)
{
	char sa[1024], sb[1024], *ba, *bb;
	ssize_t na = get_value(a, name, sa, sizeof(sa), &ba);
	ssize_t nb = get_value(b, name, sb, sizeof(sb), &bb);
	bool same = same_values(name, ba ? ba : sa, na, bb ? bb : sb, nb);
	free(ba);
	free(bb);
	return same;
}

unsigned copy_xattrs_differ(const struct copy_opts *o, int sfd, int dfd)
{
	bool want_xattr = o->preserve_xattr;
	bool want_acl = o->acls_apart ? o->preserve_acl : o->preserve_mode;
	char *slist, *dlist;
	ssize_t sn = names_or_none(sfd, &slist), dn = names_or_none(dfd, &dlist);
	unsigned d = 0;
	if (sn < 0 || dn < 0) /* not known: nothing said (the copy says why) */
		sn = dn = 0;
	for (int side = 0; side < 2; side++) {
		const char *list = side ? dlist : slist;
		ssize_t n = side ? dn : sn;
		for (const char *p = list; n > 0 && p < list + n; p += strlen(p) + 1)
			if (compared(p, want_xattr, want_acl) &&
			    !(side && listed(slist, sn, p)) && !same_attr(sfd, dfd, p))
				d |= is_acl(p) ? COPY_XATTR_ACL : COPY_XATTR_OTHER;
	}
	free(slist);
	free(dlist);
	return d;
}

int xattr_copy(struct copy *c, int sfd, int dfd, bool acl_only)
{
	char *list;
	ssize_t len = list_names(sfd, &list);
	int r = 0;
	bool want_xattr = c->o->preserve_xattr && !acl_only;
	bool want_acl = c->o->acls_apart ? c->o->preserve_acl : c->o->preserve_mode;
	if (len < 0) {
		bool none = errno == ENOTSUP; /* the source's file system has none */
		if (!none || c->o->require_xattr) {
			copy_warn(c, c->o->require_xattr, errno, "listing attributes of %s",
			          cq(c, 0, sb_str(&c->shown)));
			r = -1;
		}
		/* what the source has is not known: the copy's own are left,
		 * never taken off for a failure to read them */
		if (!none) {
			free(list);
			return r;
		}
		len = 0;
	}
	for (const char *p = list; p && p < list + len; p += strlen(p) + 1) {
		bool acl = is_acl(p);
		/* sweep-sync as a user: its own (user.*) only, as rsync's, which
		 * does not try security.* or trusted.* there */
		if (!carried(p, want_xattr, want_acl) ||
		    (c->o->only_changed && !acl && !compared(p, want_xattr, want_acl)))
			continue;
		int err = copy_one(sfd, dfd, p, c->o->only_changed);
		if (err && (err != ENOTSUP || c->o->require_xattr || acl)) {
			copy_warn(c, c->o->require_xattr || (acl && c->o->require_preserve), err,
			          "setting attribute %s for %s", cq(c, 1, p),
			          cq(c, 0, sb_str(&c->shown)));
			r = -1;
		}
	}
	if (want_acl || (want_xattr && c->o->only_changed))
		drop_extras(c->o, dfd, list, len, want_xattr, want_acl);
	free(list);
	return r;
}
