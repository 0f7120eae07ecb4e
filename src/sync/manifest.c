/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest.c: the destination's tree sent to the sender (see manifest.h).
 * The receiver's walk is libsweep's, without file data: one sweep of the
 * destination's inodes, as the source's is one sweep of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "manifest.h"
#include "walkenv.h"

#define BATCH_BYTES (64u << 10)

/* The path's hash, two 64-bit halves (a collision of both is not a
 * concern for a table of a few million paths). */
static void path_hash(const char *p, size_t n, uint64_t *a, uint64_t *b)
{
	uint64_t h = 0xcbf29ce484222325u, g = 5381u + n;
	for (size_t i = 0; i < n; i++) {
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3u;
		g = g * 33u + (unsigned char)p[i];
	}
	*a = h;
	*b = g ^ (g >> 29);
}

static const char *rel_of(const struct sweep_entry *e, size_t rootlen)
{
	const char *rel = e->depth ? e->path + rootlen : "";
	while (*rel == '/')
		rel++;
	return rel;
}

static int send_batch(struct wire *w, struct wire_frame *f, size_t *count)
{
	int r = *count ? wire_send(w, f) : 0;
	*count = 0;
	wire_begin(f, W_MANIFEST);
	return r;
}

/* A destination file's sum (-c). */
static int entry_sum(const struct sweep_entry *e, unsigned char *sum)
{
	if (e->kind == SWEEP_DATA)
		return sync_checksum(e->fd, sum);
	int fd = sync_open_read(e->dirfd, e->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
	                        &e->st);
	int r = fd >= 0 ? sync_checksum(fd, sum) : -1;
	if (fd >= 0)
		close(fd);
	return r;
}

/* The walk of name in dfd, each entry into frames. */
static int walk_dest(struct sync *s, struct wire *w, int dfd, const char *name,
                     struct wire_frame *f)
{
	/* -c reads the files too, in the walk's block order */
	struct sweep_options so = { .flags = (s->checksum ? 0 : SWEEP_NODATA) | walkenv_flags() };
	walkenv_read(&so.order, &so.warm);
	struct sweep *sw = sweep_open(NULL, &so);
	if (!sw) {
		report_error(s, errno, "[Receiver] cannot walk \"%s\"", name);
		return 0;
	}
	size_t rootlen = strlen(name), count = 0;
	int r = 0;
	if (sweep_add_root(sw, dfd, name) < 0)
		report_error(s, errno, "[Receiver] cannot walk \"%s\"", name);
	const struct sweep_entry *e;
	while (r == 0 && (e = sweep_next(sw)) != NULL) {
		if (e->kind == SWEEP_ERROR || e->kind == SWEEP_DIR_POST)
			continue; /* a destination not read is one the sender decides
			             against as new: the receiver's own check sees it */
		const char *rel = rel_of(e, rootlen);
		unsigned char sum[SYNC_SUM_LEN];
		bool has_sum = s->checksum && S_ISREG(e->st.st_mode) && entry_sum(e, sum) == 0;
		wire_str(f, rel, strlen(rel));
		wire_u32(f, (uint32_t)e->st.st_mode);
		wire_u64(f, (uint64_t)e->st.st_size);
		wire_u64(f, (uint64_t)e->st.st_mtim.tv_sec);
		wire_u32(f, (uint32_t)e->st.st_mtim.tv_nsec); /* (-@-1 compares it) */
		wire_u8(f, has_sum);
		if (has_sum)
			wire_str(f, (const char *)sum, sizeof(sum));
		if (++count && f->b.len >= BATCH_BYTES)
			r = send_batch(w, f, &count);
	}
	sweep_close(sw);
	return r < 0 ? -1 : send_batch(w, f, &count);
}

int manifest_send(struct sync *s, struct wire *w, int dfd, const char *name)
{
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_MANIFEST);
	struct stat st;
	int r = 0;
	if (dfd >= 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		r = walk_dest(s, w, dfd, name, &f);
	if (r == 0) {
		wire_begin(&f, W_MANIFEST_END);
		r = wire_send(w, &f);
	}
	sb_free(&f.b);
	return r;
}

static int add(struct manifest *m, const char *rel, size_t n, const struct manifest_entry *me)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		struct manifest_entry *v = reallocarray(m->v, cap, sizeof(*v));
		if (!v)
			return -1;
		m->v = v;
		m->cap = cap;
	}
	uint64_t a, b;
	path_hash(rel, n, &a, &b);
	if (keymap_put(&m->index, a, b, m->n + 1) < 0)
		return -1;
	m->v[m->n++] = *me;
	return 0;
}

int manifest_recv(struct manifest *m, struct wire *w)
{
	struct wire_msg msg;
	struct strbuf z = STRBUF_INIT;
	int r = -1;
	while (wire_recv(w, &msg, &z) == 0) {
		if (msg.type == W_MANIFEST_END) {
			r = 0;
			break;
		}
		if (msg.type != W_MANIFEST) {
			wire_bad(w, "a frame out of place in the manifest");
			break;
		}
		while (msg.p < msg.end && !msg.bad) {
			size_t n;
			const char *rel = wire_get_str(&msg, &n);
			struct manifest_entry me = {
				.mode = (mode_t)wire_get_u32(&msg),
				.size = (off_t)wire_get_u64(&msg),
				.mtime = (time_t)wire_get_u64(&msg),
				.mtime_nsec = (long)(wire_get_u32(&msg) % 1000000000),
				.has_sum = wire_get_u8(&msg) != 0,
			};
			size_t sl = 0;
			const char *sum = me.has_sum ? wire_get_str(&msg, &sl) : NULL;
			if (sum && sl == SYNC_SUM_LEN)
				memcpy(me.sum, sum, sl);
			else if (sum)
				msg.bad = true;
			if (!msg.bad && add(m, rel, n, &me) < 0) {
				fprintf(stderr, "%s: memory exhausted\n", w->prog);
				w->failed = true;
				goto out;
			}
		}
		if (msg.bad) {
			wire_bad(w, "a short manifest entry");
			break;
		}
	}
out:
	sb_free(&z);
	return r;
}

const struct stat *manifest_find(const struct manifest *m, const char *rel, struct stat *st)
{
	uint64_t a, b;
	path_hash(rel, strlen(rel), &a, &b);
	const uint64_t *i = keymap_get(&m->index, a, b);
	if (!i)
		return NULL;
	const struct manifest_entry *me = &m->v[*i - 1];
	memset(st, 0, sizeof(*st));
	st->st_mode = me->mode;
	st->st_size = me->size;
	st->st_mtim.tv_sec = me->mtime;
	st->st_mtim.tv_nsec = me->mtime_nsec;
	return st;
}

const unsigned char *manifest_sum(const struct manifest *m, const char *rel)
{
	uint64_t a, b;
	path_hash(rel, strlen(rel), &a, &b);
	const uint64_t *i = keymap_get(&m->index, a, b);
	return i && m->v[*i - 1].has_sum ? m->v[*i - 1].sum : NULL;
}

void manifest_free(struct manifest *m)
{
	keymap_free(&m->index);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
