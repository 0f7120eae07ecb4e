/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattrs.c: extended attributes on the wire (see xattrs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include "procfd.h"
#include "xattrs.h"

#define MAX_ATTRS 4096

static bool is_acl(const char *name)
{
	return strncmp(name, "system.posix_acl_", 17) == 0;
}

/* fd's names into buf (n bytes; 0: their length), by /proc's name of an
 * O_PATH descriptor where by_path. */
static ssize_t list_of(int fd, bool by_path, char *buf, size_t n)
{
	char path[PROCFD_NAME_MAX];
	if (!by_path)
		return flistxattr(fd, buf, n);
	return listxattr(procfd_name(fd, path), buf, n);
}

static ssize_t get_of(int fd, bool by_path, const char *name, char *buf, size_t n)
{
	char path[PROCFD_NAME_MAX];
	if (!by_path)
		return fgetxattr(fd, name, buf, n);
	return getxattr(procfd_name(fd, path), name, buf, n);
}

/* One attribute's value into v; its length, or -1. */
static ssize_t value(int fd, bool by_path, const char *name, struct strbuf *v)
{
	sb_reset(v);
	ssize_t n = get_of(fd, by_path, name, NULL, 0);
	if (n < 0 || sb_reserve(v, (size_t)n + 1) < 0)
		return -1;
	n = get_of(fd, by_path, name, v->s, (size_t)n);
	v->len = n > 0 ? (size_t)n : 0;
	return n;
}

/* fd's names (NUL-separated) into *list; their length, 0 where the file
 * system has none, or -1 with errno. */
static ssize_t names_of(int fd, bool by_path, char **list)
{
	*list = NULL;
	for (;;) {
		ssize_t n = list_of(fd, by_path, NULL, 0);
		if (n < 0 && errno == ENOTSUP)
			return 0;
		if (n <= 0)
			return n;
		char *v = realloc(*list, (size_t)n);
		if (!v)
			return -1;
		*list = v;
		ssize_t got = list_of(fd, by_path, v, (size_t)n);
		if (got >= 0 || errno != ERANGE)
			return got;
	}
}

int xattrs_put(struct wire_frame *f, int fd, bool by_path, bool acl_only)
{
	char *list = NULL;
	ssize_t len = fd >= 0 ? names_of(fd, by_path, &list) : -1;
	struct strbuf pairs = STRBUF_INIT, v = STRBUF_INIT;
	uint32_t count = 0;
	int err = len < 0 ? (fd < 0 ? EBADF : errno) : 0;
	for (const char *p = list; !err && len > 0 && p < list + len; p += strlen(p) + 1) {
		if (acl_only && !is_acl(p))
			continue;
		if (count == MAX_ATTRS) {
			err = E2BIG;
			break;
		}
		if (value(fd, by_path, p, &v) < 0) {
			if (errno == ENODATA) /* gone since the listing */
				continue;
			err = errno;
			break;
		}
		uint32_t nl = (uint32_t)strlen(p), vl = (uint32_t)v.len;
		char b[4];
		for (int i = 0; i < 4; i++)
			b[i] = (char)(nl >> (8 * i));
		sb_add(&pairs, b, 4);
		sb_add(&pairs, p, nl);
		for (int i = 0; i < 4; i++)
			b[i] = (char)(vl >> (8 * i));
		sb_add(&pairs, b, 4);
		sb_add(&pairs, v.s, vl);
		count++;
	}
	wire_u32(f, err ? XATTRS_UNKNOWN : count);
	if (!err)
		sb_add(&f->b, pairs.s, pairs.len);
	sb_free(&pairs);
	sb_free(&v);
	free(list);
	errno = err;
	return err ? -1 : 0;
}

bool xattrs_take(struct wire_msg *m, struct strbuf *sb, unsigned *count)
{
	sb_reset(sb);
	*count = wire_get_u32(m);
	if (*count == XATTRS_UNKNOWN)
		return !m->bad;
	if (*count > MAX_ATTRS)
		return false;
	for (unsigned i = 0; i < *count; i++) {
		size_t nl, vl;
		const char *name = wire_get_str(m, &nl);
		const char *val = wire_get_str(m, &vl);
		/* kept as name NUL, 32-bit length, value */
		uint32_t l = (uint32_t)vl;
		if (m->bad || nl == 0 || memchr(name, 0, nl) || sb_add(sb, name, nl) < 0 ||
		    sb_addc(sb, 0) < 0 || sb_add(sb, &l, sizeof(l)) < 0 || sb_add(sb, val, vl) < 0)
			return false;
	}
	return !m->bad;
}

int xattrs_apply(const struct strbuf *sb, int fd)
{
	int err = 0;
	for (size_t i = 0; i < sb->len;) {
		const char *name = sb->s + i;
		uint32_t l;
		i += strlen(name) + 1;
		memcpy(&l, sb->s + i, sizeof(l));
		i += sizeof(l);
		if (fsetxattr(fd, name, sb->s + i, l, 0) < 0 && !err)
			err = errno;
		i += l;
	}
	return err;
}
