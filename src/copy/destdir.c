/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * destdir.c: descriptors of the destination directories the walk is
 * inside, by libsweep's directory id.
 *
 * In disk order the walk hops between directories all the time, so each
 * one's descriptor is kept from its SWEEP_DIR to its SWEEP_DIR_POST entry;
 * past max_open() some are closed, and reopened when needed from the top
 * one component at a time with O_NOFOLLOW, never from a full path (which
 * may exceed PATH_MAX, and whose symbolic links would be followed). The
 * map holds one small record per directory, never per file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "copyint.h"

/* At most this many destination directories are kept open, and never
 * more than an eighth of RLIMIT_NOFILE: the walk has its own directories
 * and files to open within the same limit. */
#define MAX_OPEN 256
#define MIN_OPEN 1

static size_t max_open(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / 8 >= MAX_OPEN)
		return MAX_OPEN;
	return rl.rlim_cur / 8 > MIN_OPEN ? (size_t)(rl.rlim_cur / 8) : MIN_OPEN;
}

/* Whether the open directories are at c's limit (found once per copy). */
static bool full(struct copy *c)
{
	if (!c->max_open)
		c->max_open = max_open();
	return c->nopen >= c->max_open;
}

/* Packed value: fd + 1 (0: closed) | flags << 32 | mode << 40. */
static uint64_t pack(int fd, unsigned flags, mode_t mode)
{
	return (uint64_t)(uint32_t)(fd + 1) | (uint64_t)(flags & 0xff) << 32 |
	       (uint64_t)(mode & 07777) << 40;
}

static int unpack_fd(uint64_t v)
{
	return (int)(uint32_t)v - 1;
}

/* A directory below fd, not through a link. One the copy may go through
 * and write into but not read (mode 311, made so by a copy before) is
 * opened as a path (O_PATH): the *at calls that make names take it. */
static int open_below(int fd, const char *name)
{
	int r = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r < 0 && errno == EACCES)
		r = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return r;
}

int destdir_walk(int basefd, const char *path, size_t len)
{
	int fd = dup(basefd);
	const char *p = path, *end = path + len;
	char *name = NULL;
	while (fd >= 0 && p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = (size_t)((slash ? slash : end) - p);
		if (n) {
			free(name);
			name = strndup(p, n);
			int next = name ? open_below(fd, name) : -1;
			int err = errno;
			close(fd);
			fd = next;
			errno = err;
		}
		p += n + 1;
	}
	free(name);
	return fd;
}

/* Close about half the open descriptors (never those of directories whose
 * flags say they must stay: none yet), so the next ones have room. */
static void evict(struct copy *c)
{
	for (size_t i = 0; i < c->dirs.cap && c->nopen > c->max_open / 2; i++) {
		struct keymap_slot *s = &c->dirs.slots[i];
		int fd = s->used ? unpack_fd(s->value) : -1;
		if (fd < 0)
			continue;
		close(fd);
		s->value &= ~(uint64_t)0xffffffffu;
		c->nopen--;
	}
}

/* Close every kept descriptor but keep's. Returns whether one was. */
static bool shed(struct copy *c, int keep)
{
	bool any = writer_drain(c); /* its queue's descriptors first */
	for (size_t i = 0; i < c->dirs.cap; i++) {
		struct keymap_slot *s = &c->dirs.slots[i];
		int fd = s->used ? unpack_fd(s->value) : -1;
		if (fd < 0 || fd == keep)
			continue;
		close(fd);
		s->value &= ~(uint64_t)0xffffffffu;
		c->nopen--;
		any = true;
	}
	return any;
}

int destdir_openat(struct copy *c, int pfd, const char *name, int flags, mode_t mode)
{
	int fd;
	/* out of descriptors (the walk's read-ahead shares the limit): the
	 * directories kept open give theirs back, they reopen on demand */
	while ((fd = openat(pfd, name, flags, mode)) < 0 && (errno == EMFILE || errno == ENFILE) &&
	       shed(c, pfd))
		;
	return fd;
}

int destdir_add(struct copy *c, uint64_t id, int fd, unsigned flags, mode_t mode)
{
	if (full(c))
		evict(c);
	if (keymap_put(&c->dirs, id, 0, pack(fd, flags, mode)) < 0) {
		close(fd);
		return -1;
	}
	c->nopen++;
	return 0;
}

/* The descriptor of the directory drel's first len bytes name, for id:
 * the one kept, or reopened (and kept again). */
static int lookup(struct copy *c, uint64_t id, const char *drel, size_t len)
{
	uint64_t *v = keymap_get(&c->dirs, id, 0);
	if (!v) {
		errno = ENOENT;
		return -2;
	}
	int fd = unpack_fd(*v);
	if (fd >= 0)
		return fd;
	uint64_t keep = *v & ~(uint64_t)0xffffffffu;
	if (full(c))
		evict(c);
	fd = destdir_walk(c->top_fd, drel, len);
	if (fd < 0)
		return -1;
	v = keymap_get(&c->dirs, id, 0);
	*v = keep | (uint32_t)(fd + 1);
	c->nopen++;
	return fd;
}

int destdir_parent(struct copy *c, const struct sweep_entry *e, const char **name)
{
	if (e->depth == 0) {
		*name = c->top_name;
		return c->top_fd;
	}
	*name = e->name;
	const char *drel = sb_str(&c->drel);
	const char *slash = strrchr(drel, '/');
	int fd = lookup(c, e->parent_id, drel, slash ? (size_t)(slash - drel) : 0);
	return fd < 0 ? -1 : fd;
}

bool destdir_fresh(struct copy *c, const struct sweep_entry *e)
{
	uint64_t *v = e->depth > 0 ? keymap_get(&c->dirs, e->parent_id, 0) : NULL;
	return v && ((unsigned)(*v >> 32) & DIR_FRESH);
}

int destdir_take(struct copy *c, uint64_t id, const char *drel, unsigned *flags,
                 mode_t *mode)
{
	int fd = lookup(c, id, drel, strlen(drel));
	if (fd == -2)
		return -2;
	uint64_t *v = keymap_get(&c->dirs, id, 0);
	*flags = (unsigned)(*v >> 32) & 0xff;
	*mode = (mode_t)(*v >> 40) & 07777;
	if (unpack_fd(*v) >= 0)
		c->nopen--;
	keymap_del(&c->dirs, id, 0);
	return fd;
}

void destdir_close_all(struct copy *c)
{
	for (size_t i = 0; i < c->dirs.cap; i++) {
		struct keymap_slot *s = &c->dirs.slots[i];
		if (s->used && unpack_fd(s->value) >= 0)
			close(unpack_fd(s->value));
	}
	keymap_free(&c->dirs);
	c->nopen = 0;
}
