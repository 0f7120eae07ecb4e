/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dirs.c: directories with pending descendants, and their descriptors.
 *
 * A walk in inode order has many directories in flight at once, far more than
 * a process may keep open. Each sw_dir therefore keeps a descriptor only while
 * it sits in a small LRU cache; an evicted one is reopened with openat() from
 * its parent (recursively), which also makes paths longer than PATH_MAX work.
 * A reopened directory is checked against the device and inode it had, so a
 * directory renamed or replaced behind our back is never walked in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

/* What a directory takes, charged against the bound. */
static size_t dir_size(size_t namelen)
{
	return sizeof(struct sw_dir) + namelen + 1;
}

struct sw_dir *sw_dir_new(struct sweep *sw, struct sw_dir *parent, const char *name,
                          size_t namelen, const struct stat *st)
{
	size_t size = dir_size(namelen);
	struct sw_dir *d = sw_alloc(sw, size);
	if (!d)
		return NULL;
	memset(d, 0, size);
	d->parent = parent;
	d->fd = -1;
	d->basefd = AT_FDCWD;
	d->refs = 1;
	d->depth = parent ? parent->depth + 1 : 0;
	d->id = ++sw->next_dir_id;
	d->st = *st;
	d->namelen = namelen;
	memcpy(d->name, name, namelen);
	sw_mem_charge(&sw->mem, size, false);
	return d;
}

static void lru_unlink(struct sw_fds *c, struct sw_dir *d)
{
	if (d->lru_prev)
		d->lru_prev->lru_next = d->lru_next;
	else
		c->lru_head = d->lru_next;
	if (d->lru_next)
		d->lru_next->lru_prev = d->lru_prev;
	else
		c->lru_tail = d->lru_prev;
	d->lru_prev = d->lru_next = NULL;
}

static void lru_push_front(struct sw_fds *c, struct sw_dir *d)
{
	d->lru_prev = NULL;
	d->lru_next = c->lru_head;
	if (c->lru_head)
		c->lru_head->lru_prev = d;
	c->lru_head = d;
	if (!c->lru_tail)
		c->lru_tail = d;
}

static void dir_close_fd(struct sw_fds *c, struct sw_dir *d)
{
	if (d->fd < 0)
		return;
	lru_unlink(c, d);
	close(d->fd);
	d->fd = -1;
	c->nfds--;
}

/* Close the least recently used descriptors beyond the cache's size, sparing
 * keep (being opened now) and the one the caller holds as entry->dirfd. */
static void lru_trim(struct sw_fds *c, const struct sw_dir *keep)
{
	struct sw_dir *d = c->lru_tail;
	while (c->nfds > c->max_fds && d) {
		struct sw_dir *prev = d->lru_prev;
		if (d != keep && d != c->pinned)
			dir_close_fd(c, d);
		d = prev;
	}
}

/* Out of descriptors: give back half of the cache (sparing keep, which is
 * being used, and the one the caller holds), and keep no more than that
 * from now on: what the limit leaves is shared (the caller's files, other
 * walks), and a cache that grew back would run out again. Whether any was
 * closed. */
static bool dir_fds_shrink(struct sw_fds *c, const struct sw_dir *keep)
{
	size_t before = c->nfds;
	c->max_fds = before / 2 > 1 ? before / 2 : 1;
	lru_trim(c, keep);
	return c->nfds < before;
}

/* Out of descriptors: close the files the data phase opened ahead (they
 * were announced; each is opened again when its turn comes). Whether any
 * was. */
static bool close_ahead(struct sw_dataq *q)
{
	bool closed = false;
	for (size_t i = q->data_pos; q->flushing && i < q->ra_pos; i++) {
		struct sw_file *f = q->data[i];
		if (f->fd >= 0) {
			close(f->fd);
			f->fd = -1;
			closed = true;
		}
	}
	return closed;
}

/* Out of descriptors: give back the files opened ahead, then half of the
 * directory cache (sparing keep, being opened from). Whether any was
 * closed, so that the caller may try again. */
bool sw_fds_shed(struct sweep *sw, const struct sw_dir *keep)
{
	if (close_ahead(&sw->dq))
		return true;
	return dir_fds_shrink(&sw->fds, keep);
}

/* The waits for descriptors another holder may close, at most, doubling
 * from a millisecond (a second in all). */
#define FDS_WAITS 10

bool sw_fds_retry(struct sweep *sw, const struct sw_dir *keep, int err, unsigned *waits)
{
	if (!sw_fds_out(err))
		return false;
	if (sw_fds_shed(sw, keep))
		return true;
	/* nothing of the walk's own to give back: the rest are another's (a
	 * walk beside this one, the caller), who may close some soon; not
	 * waited for again once waiting went unrewarded */
	if (sw->fds.wait_futile || *waits >= FDS_WAITS) {
		sw->fds.wait_futile = true;
		return false;
	}
	struct timespec pause = { 0, 1000000L << *waits };
	(*waits)++;
	while (nanosleep(&pause, &pause) < 0 && errno == EINTR)
		;
	return true;
}

int sw_parent_fd(struct sweep *sw, struct sw_dir *parent, int basefd)
{
	return parent ? sw_dir_fd(sw, parent) : basefd;
}

/* An open descriptor on d, or -1 with errno set. */
int sw_dir_fd(struct sweep *sw, struct sw_dir *d)
{
	if (d->fd >= 0) {
		if (sw->fds.lru_head != d) {
			lru_unlink(&sw->fds, d);
			lru_push_front(&sw->fds, d);
		}
		return d->fd;
	}
	int pfd = sw_parent_fd(sw, d->parent, d->basefd);
	if (pfd < 0 && pfd != AT_FDCWD)
		return -1;
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	if (!d->follow)
		flags |= O_NOFOLLOW;
	int fd;
	unsigned waits = 0;
	while ((fd = openat(pfd, d->name, flags)) < 0 && sw_fds_retry(sw, d->parent, errno, &waits))
		;
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_dev != d->st.st_dev || st.st_ino != d->st.st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	d->fd = fd;
	sw->fds.nfds++;
	lru_push_front(&sw->fds, d);
	lru_trim(&sw->fds, d);
	return fd;
}

void sw_dir_free(struct sweep *sw, struct sw_dir *d)
{
	dir_close_fd(&sw->fds, d);
	sw_mem_uncharge(&sw->mem, dir_size(d->namelen), false);
	free(d);
}

/* Drop one reference; a directory left with none is complete: it goes on the
 * post-order list when those entries are wanted, else it is freed and lets go
 * of its own parent. */
void sw_dir_unref(struct sweep *sw, struct sw_dir *d)
{
	while (d && --d->refs == 0) {
		if (sw->opt.flags & SWEEP_POSTORDER) {
			d->in_post = true;
			if (sw->post_tail)
				sw->post_tail->post_next = d;
			else
				sw->post_head = d;
			sw->post_tail = d;
			/* its descriptor is not needed again before its post entry */
			dir_close_fd(&sw->fds, d);
			return;
		}
		struct sw_dir *parent = d->parent;
		sw_dir_free(sw, d);
		d = parent;
	}
}

/* Whether st is d itself or one of its ancestors: a file system loop. */
bool sw_dir_is_ancestor(const struct sw_dir *d, const struct stat *st)
{
	for (; d; d = d->parent)
		if (d->st.st_ino == st->st_ino && d->st.st_dev == st->st_dev)
			return true;
	return false;
}
