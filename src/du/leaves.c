/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * leaves.c: files' lines kept in a bounded chunk, spilled to a temporary
 * file in runs, sorted and merged into the output's order (leaves.h).
 *
 * A line is packed as: directory (u32), length of the name with its NUL
 * (u32), bytes (u64), with --time seconds and nanoseconds (i64 each), the
 * name. Runs are sorted in place in the file, one at a time, in the
 * chunk's room; merging reads each run through a buffer of its share of
 * the chunk (4 KiB at least), the runs kept in a heap by their next line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "leaves.h"

#define HEAD_BYTES 16
#define TIME_BYTES 16
#define RUN_BUF_MIN (4u << 10)
#define RUN_BUF_MAX (256u << 10)
#define STAGE_BYTES (64u << 10)

struct leaves_run {
	off_t start, end;   /* its bytes in the file */
	off_t pos;          /* the next byte to read */
	char *buf;          /* merging: what was read of it */
	size_t cap, len, off;
	size_t taken;       /* bytes of head in buf */
	bool memory;        /* the chunk in memory, not a run of the file */
	struct du_leaf head; /* its next line */
};

void leaves_init(struct du_leaves *l, size_t chunk, bool times)
{
	*l = (struct du_leaves){ .chunk = chunk ? chunk : LEAVES_BYTES, .times = times, .fd = -1 };
}

static size_t line_bytes(const struct du_leaves *l, size_t namelen)
{
	return HEAD_BYTES + (l->times ? TIME_BYTES : 0) + namelen + 1;
}

/* The line at p (whole), decoded. */
static size_t decode(const struct du_leaves *l, const char *p, struct du_leaf *out)
{
	uint32_t len;
	memcpy(&out->dir, p, 4);
	memcpy(&len, p + 4, 4);
	memcpy(&out->bytes, p + 8, 8);
	p += HEAD_BYTES;
	out->time = (struct timespec){ 0 };
	if (l->times) {
		int64_t sec, nsec;
		memcpy(&sec, p, 8);
		memcpy(&nsec, p + 8, 8);
		out->time = (struct timespec){ (time_t)sec, (long)nsec };
		p += TIME_BYTES;
	}
	out->name = p;
	return HEAD_BYTES + (l->times ? TIME_BYTES : 0) + len;
}

/* An unnamed file in $TMPDIR, else /tmp; -1 with errno. */
static int temporary_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	char path[4096];
	if ((size_t)snprintf(path, sizeof(path), "%s/sweep-du.XXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* A failure of the last call (errno): memory, or the temporary file. */
static void note_failure(struct du_leaves *l)
{
	if (errno == ENOMEM)
		l->nomem = true;
	else
		l->err = errno;
}

static int write_all(int fd, const char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
		at += w;
	}
	return 0;
}

static int add_run(struct du_leaves *l, off_t start, off_t end)
{
	if (l->nruns == l->capruns) {
		size_t cap = l->capruns ? l->capruns * 2 : 16;
		struct leaves_run *v = reallocarray(l->runs, cap, sizeof(*v));
		if (!v)
			return -1;
		l->runs = v;
		l->capruns = cap;
	}
	l->runs[l->nruns++] = (struct leaves_run){ .start = start, .end = end };
	return 0;
}

/* Whether a file of size bytes is past RLIMIT_FSIZE: writing it would
 * raise SIGXFSZ, which kills (ulimit -f; GNU du writes no file). */
static bool past_size_limit(off_t size)
{
	struct rlimit r;
	return getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
	       (rlim_t)size > r.rlim_cur;
}

/* The chunk to the file as a run; on a failure, the chunk stays (and from
 * then on grows). */
static void spill(struct du_leaves *l)
{
	if (past_size_limit(l->spilled + (off_t)l->used) ||
	    (l->fd < 0 && (l->fd = temporary_file()) < 0)) {
		l->in_memory = true;
		return;
	}
	if (write_all(l->fd, l->buf, l->used, l->spilled) < 0 ||
	    add_run(l, l->spilled, l->spilled + (off_t)l->used) < 0) {
		l->in_memory = true;
		return;
	}
	l->spilled += (off_t)l->used;
	l->used = l->idx.n = 0;
}

static int grow_index(struct leaves_index *x)
{
	if (x->n < x->cap)
		return 0;
	size_t cap = x->cap ? x->cap * 2 : 1024;
	size_t *v = reallocarray(x->at, cap, sizeof(*v));
	if (!v)
		return -1;
	x->at = v;
	x->cap = cap;
	return 0;
}

/* Room for a line of size bytes in the chunk (and its place in at). */
static int room(struct du_leaves *l, size_t size)
{
	if (l->used + size > l->chunk && l->idx.n && !l->in_memory)
		spill(l);
	if (l->used + size > l->bufcap) {
		size_t cap = l->bufcap ? l->bufcap * 2 : 16384;
		while (cap < l->used + size)
			cap *= 2;
		if (!l->in_memory && cap > l->chunk && l->used + size <= l->chunk)
			cap = l->chunk;
		char *b = realloc(l->buf, cap);
		if (!b)
			return -1;
		l->buf = b;
		l->bufcap = cap;
	}
	return grow_index(&l->idx);
}

int leaves_add(struct du_leaves *l, uint32_t dir, const char *name, uint64_t bytes,
               const struct timespec *time)
{
	size_t namelen = strlen(name);
	size_t size = line_bytes(l, namelen);
	if (room(l, size) < 0)
		return -1;
	char *p = l->buf + l->used;
	uint32_t len = (uint32_t)namelen + 1;
	memcpy(p, &dir, 4);
	memcpy(p + 4, &len, 4);
	memcpy(p + 8, &bytes, 8);
	p += HEAD_BYTES;
	if (l->times) {
		int64_t sec = time->tv_sec, nsec = time->tv_nsec;
		memcpy(p, &sec, 8);
		memcpy(p + 8, &nsec, 8);
		p += TIME_BYTES;
	}
	memcpy(p, name, len);
	l->idx.at[l->idx.n++] = l->used;
	l->used += size;
	return 0;
}

static int by_leaf(const struct du_leaves *l, const struct du_leaf *a, const struct du_leaf *b)
{
	uint32_t ra = l->rank[a->dir], rb = l->rank[b->dir];
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct sort_arg {
	const struct du_leaves *l;
	const char *base;
};

static int by_line(const void *x, const void *y, void *arg)
{
	const struct sort_arg *s = arg;
	struct du_leaf a, b;
	decode(s->l, s->base + *(const size_t *)x, &a);
	decode(s->l, s->base + *(const size_t *)y, &b);
	return by_leaf(s->l, &a, &b);
}

/* The lines packed in base[0, len) indexed into x (unless indexed) and
 * sorted. */
static int index_and_sort(struct du_leaves *l, struct leaves_index *x, const char *base,
                          size_t len, bool indexed)
{
	for (size_t off = 0; !indexed && off < len;) {
		if (grow_index(x) < 0)
			return -1;
		struct du_leaf line;
		x->at[x->n++] = off;
		off += decode(l, base + off, &line);
	}
	struct sort_arg s = { l, base };
	qsort_r(x->at, x->n, sizeof(*x->at), by_line, &s);
	return 0;
}

static int read_all(int fd, char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t r = pread(fd, p, n, at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO; /* the file is shorter than what was written */
			return -1;
		}
		p += r;
		n -= (size_t)r;
		at += r;
	}
	return 0;
}

/* Sort run r of the file in place, read into space (its size at least),
 * indexed in x. */
static int sort_run(struct du_leaves *l, const struct leaves_run *r, char *space,
                    struct leaves_index *x)
{
	size_t len = (size_t)(r->end - r->start);
	x->n = 0;
	if (read_all(l->fd, space, len, r->start) < 0 || index_and_sort(l, x, space, len, false) < 0)
		return -1;
	char stage[STAGE_BYTES];
	size_t staged = 0;
	off_t at = r->start;
	for (size_t i = 0; i < x->n; i++) {
		struct du_leaf line;
		const char *p = space + x->at[i];
		size_t size = decode(l, p, &line);
		if (staged + size > sizeof(stage)) {
			if (write_all(l->fd, stage, staged, at) < 0)
				return -1;
			at += (off_t)staged;
			staged = 0;
		}
		if (size > sizeof(stage)) { /* a name longer than NAME_MAX */
			if (write_all(l->fd, p, size, at) < 0)
				return -1;
			at += (off_t)size;
			continue;
		}
		memcpy(stage + staged, p, size);
		staged += size;
	}
	return write_all(l->fd, stage, staged, at);
}

/* At least need bytes of run r's next ones in its buffer. */
static int run_fill(struct du_leaves *l, struct leaves_run *r, size_t need)
{
	if (r->len - r->off >= need)
		return 0;
	memmove(r->buf, r->buf + r->off, r->len - r->off);
	r->len -= r->off;
	r->off = 0;
	if (need > r->cap) {
		char *b = realloc(r->buf, need);
		if (!b)
			return -1;
		r->buf = b;
		r->cap = need;
	}
	size_t want = r->cap - r->len;
	if ((off_t)want > r->end - r->pos)
		want = (size_t)(r->end - r->pos);
	if (read_all(l->fd, r->buf + r->len, want, r->pos) < 0)
		return -1;
	r->pos += (off_t)want;
	r->len += want;
	if (r->len < need) {
		errno = EIO; /* a line cut short */
		return -1;
	}
	return 0;
}

/* Run r's next line into r->head: false at its end, or on a failure
 * (l->err). */
static bool run_advance(struct du_leaves *l, struct leaves_run *r)
{
	if (r->memory) {
		if (l->mem_next == l->idx.n)
			return false;
		decode(l, l->buf + l->idx.at[l->mem_next++], &r->head);
		return true;
	}
	r->off += r->taken;
	r->taken = 0;
	if (r->off == r->len && r->pos == r->end)
		return false;
	uint32_t len;
	if (run_fill(l, r, HEAD_BYTES) < 0)
		goto fail;
	memcpy(&len, r->buf + r->off + 4, 4);
	if (run_fill(l, r, HEAD_BYTES + (l->times ? TIME_BYTES : 0) + len) < 0)
		goto fail;
	r->taken = decode(l, r->buf + r->off, &r->head);
	return true;
fail:
	note_failure(l);
	return false;
}

static bool heap_less(const struct du_leaves *l, size_t a, size_t b)
{
	return by_leaf(l, &l->runs[l->heap[a]].head, &l->runs[l->heap[b]].head) < 0;
}

static void sift_down(struct du_leaves *l, size_t i)
{
	for (;;) {
		size_t least = i, c = 2 * i + 1;
		if (c < l->nheap && heap_less(l, c, least))
			least = c;
		if (c + 1 < l->nheap && heap_less(l, c + 1, least))
			least = c + 1;
		if (least == i)
			return;
		size_t t = l->heap[i];
		l->heap[i] = l->heap[least];
		l->heap[least] = t;
		i = least;
	}
}

/* Every run of the file sorted in place: through the chunk's buffer where
 * the chunk went to the file too, else through one of their size. */
static int sort_runs(struct du_leaves *l)
{
	size_t longest = 0;
	for (size_t i = 0; i < l->nruns; i++)
		if ((size_t)(l->runs[i].end - l->runs[i].start) > longest)
			longest = (size_t)(l->runs[i].end - l->runs[i].start);
	char *space = l->idx.n ? malloc(longest) : l->buf; /* runs came from it */
	struct leaves_index x = { 0 };
	int r = 0;
	for (size_t i = 0; i < l->nruns && r == 0 && space; i++)
		r = sort_run(l, &l->runs[i], space, &x);
	if (!space || r < 0)
		note_failure(l);
	free(x.at);
	if (space != l->buf)
		free(space);
	if (!l->idx.n) { /* room for the merge's buffers */
		free(l->buf);
		l->buf = NULL;
		l->bufcap = l->used = 0;
	}
	return l->err || l->nomem ? -1 : 0;
}

/* The runs' cursors, each with its share of the chunk, in a heap. */
static int start_merge(struct du_leaves *l)
{
	size_t k = l->nruns + (l->idx.n ? 1 : 0);
	if (l->idx.n && add_run(l, 0, 0) < 0)
		return -1;
	if (l->idx.n)
		l->runs[l->nruns - 1].memory = true;
	l->heap = malloc((k ? k : 1) * sizeof(*l->heap));
	if (!l->heap)
		return -1;
	size_t share = l->chunk / (k ? k : 1);
	share = share < RUN_BUF_MIN ? RUN_BUF_MIN : share > RUN_BUF_MAX ? RUN_BUF_MAX : share;
	for (size_t i = 0; i < l->nruns; i++) {
		struct leaves_run *r = &l->runs[i];
		r->pos = r->start;
		if (!r->memory && !(r->buf = malloc(r->cap = share)))
			return -1;
		if (run_advance(l, r))
			l->heap[l->nheap++] = i;
		else if (l->err || l->nomem)
			return -1;
	}
	for (size_t i = l->nheap / 2; i-- > 0;)
		sift_down(l, i);
	return 0;
}

int leaves_sort(struct du_leaves *l, const uint32_t *rank)
{
	l->rank = rank;
	if (l->nruns && l->idx.n && !l->in_memory)
		spill(l); /* all of them in the file, if it takes them */
	if ((l->nruns && sort_runs(l) < 0) ||
	    (l->idx.n && index_and_sort(l, &l->idx, l->buf, l->used, true) < 0) ||
	    start_merge(l) < 0) {
		l->nheap = 0;
		if (!l->err)
			l->nomem = true;
		errno = l->err ? l->err : ENOMEM;
		return -1;
	}
	return 0;
}

const struct du_leaf *leaves_peek(struct du_leaves *l)
{
	return l->nheap ? &l->runs[l->heap[0]].head : NULL;
}

void leaves_next(struct du_leaves *l)
{
	if (!l->nheap)
		return;
	if (!run_advance(l, &l->runs[l->heap[0]]))
		l->heap[0] = l->heap[--l->nheap];
	if (l->err || l->nomem)
		l->nheap = 0; /* the rest of a run cannot be read: no line more */
	sift_down(l, 0);
}

void leaves_free(struct du_leaves *l)
{
	if (l->fd >= 0)
		close(l->fd);
	for (size_t i = 0; i < l->nruns; i++)
		free(l->runs[i].buf);
	free(l->runs);
	free(l->heap);
	free(l->buf);
	free(l->idx.at);
	leaves_init(l, l->chunk, l->times);
}
