/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reread.c: the order in which GNU du would have met the children of a
 * directory, for the few directories where that order decides which name of
 * a hard-linked file is counted (N_ORDER, set by dedup.c).
 *
 * GNU du walks depth-first through fts, which takes a directory's entries in
 * the order getdents returns them, except that a batch of more than 10,000
 * entries is sorted by inode number on file systems where that helps (not
 * tmpfs, NFS or CIFS). The walk here went in disk order, so those
 * directories are read once more, from their root down with openat(), and
 * each child node gets its rank. A directory that cannot be read again
 * keeps UINT32_MAX ranks: its children then go by name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "du.h"

#define SORT_THRESHOLD 10000   /* fts sorts larger batches by inode */
#define BATCH          100000  /* fts reads at most this many at once */
#define TMPFS_MAGIC    0x01021994
#define NFS_MAGIC      0x6969
#define CIFS_MAGIC     0xFF534D42u

struct dent {
	uint64_t ino;
	uint32_t seq;
	uint32_t node; /* the child node with this name, or NO_NODE */
};

struct reader {
	struct du *du;
	char *buf;
	size_t bufsize;
	struct dent *v;
	size_t n, cap;
	uint32_t *kids; /* the children of the directory being read, by name */
	size_t nkids, capkids;
};

static int by_ino(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool inode_sort_helps(int fd)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0)
		return true;
	unsigned long t = (unsigned long)sf.f_type;
	return t != TMPFS_MAGIC && t != NFS_MAGIC && t != CIFS_MAGIC;
}

/* The child of the directory being read named name (kids are in name
 * order, the nameless last: below the depth printed, where their rank
 * changes no line), or NO_NODE. */
static uint32_t find_kid(struct reader *r, const char *name)
{
	size_t lo = 0, hi = r->nkids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *kid = tree_node(&r->du->tree, r->kids[mid])->name;
		int c = kid ? strcmp(kid, name) : 1;
		if (c == 0)
			return r->kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NO_NODE;
}

static int push_dent(struct reader *r, uint64_t ino, const char *name)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct dent *v = reallocarray(r->v, cap, sizeof(*v));
		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n] = (struct dent){ ino, (uint32_t)r->n, find_kid(r, name) };
	r->n++;
	return 0;
}

static int collect_kids(struct reader *r, uint32_t dir)
{
	r->nkids = 0;
	for (uint32_t c = tree_node(&r->du->tree, dir)->first_child; c != NO_NODE;
	     c = tree_node(&r->du->tree, c)->next_sibling) {
		if (r->nkids == r->capkids) {
			size_t cap = r->capkids ? r->capkids * 2 : 64;
			uint32_t *v = reallocarray(r->kids, cap, sizeof(*v));
			if (!v)
				return -1;
			r->kids = v;
			r->capkids = cap;
		}
		r->kids[r->nkids++] = c;
	}
	return 0;
}

static bool is_dot(const char *s)
{
	return s[0] == '.' && (s[1] == 0 || (s[1] == '.' && s[2] == 0));
}

static int read_entries(struct reader *r, int fd)
{
	r->n = 0;
	for (;;) {
		ssize_t len = getdents64(fd, r->buf, r->bufsize);
		if (len <= 0)
			return len < 0 ? -1 : 0;
		for (ssize_t off = 0; off < len;) {
			const struct dirent64 *de = (const void *)(r->buf + off);
			off += de->d_reclen;
			if (!is_dot(de->d_name) && push_dent(r, de->d_ino, de->d_name) < 0)
				return -1;
		}
	}
}

/* Rank the children: fts order within each batch of BATCH entries. */
static void assign_positions(struct reader *r, bool sort_helps)
{
	for (size_t start = 0; start < r->n; start += BATCH) {
		size_t len = r->n - start < BATCH ? r->n - start : BATCH;
		if (sort_helps && len > SORT_THRESHOLD)
			qsort(r->v + start, len, sizeof(*r->v), by_ino);
	}
	for (size_t k = 0; k < r->n; k++)
		if (r->v[k].node != NO_NODE)
			r->du->tree.pos[r->v[k].node] = (uint32_t)k;
}

static int open_dir(struct reader *r, int pfd, uint32_t i)
{
	const struct du_node *n = tree_node(&r->du->tree, i);
	const struct du_ident *id = tree_ident(&r->du->tree, i);
	enum sweep_follow f = r->du->opt.follow;
	bool follow = f == SWEEP_FOLLOW_ALL || (f == SWEEP_FOLLOW_ROOTS && n->parent == NO_NODE);
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW);
	if (!n->name) /* below the depth printed: its order changes no line */
		return -1;
	int fd = openat(pfd, n->name, flags);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != id->dev || st.st_ino != id->ino)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Rank the children of N_ORDER directory i, then do the same below it. */
static void reread_dir(struct reader *r, int pfd, uint32_t i)
{
	int fd = open_dir(r, pfd, i);
	if (fd < 0)
		return;
	if (collect_kids(r, i) == 0 && read_entries(r, fd) == 0)
		assign_positions(r, inode_sort_helps(fd));
	for (uint32_t c = tree_node(&r->du->tree, i)->first_child; c != NO_NODE;
	     c = tree_node(&r->du->tree, c)->next_sibling)
		if (tree_node(&r->du->tree, c)->flags & N_ORDER)
			reread_dir(r, fd, c);
	close(fd);
}

void du_reread(struct du *du)
{
	struct du_tree *t = &du->tree;
	struct reader r = { .du = du, .bufsize = 64u << 10 };
	r.buf = malloc(r.bufsize);
	t->pos = malloc((size_t)t->n * sizeof(*t->pos) + 1);
	if (!r.buf || !t->pos) {
		free(r.buf);
		free(t->pos);
		t->pos = NULL;
		return;
	}
	memset(t->pos, 0xff, (size_t)t->n * sizeof(*t->pos)); /* UINT32_MAX: unknown */
	for (uint32_t k = 0; k < t->nroots; k++) {
		uint32_t root = t->roots[k];
		t->pos[root] = k;
		if (tree_node(&du->tree, root)->flags & N_ORDER)
			reread_dir(&r, AT_FDCWD, root);
	}
	free(r.buf);
	free(r.v);
	free(r.kids);
}
