/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c: the archive's byte stream, gathered into few large writes with
 * no copy of file data.
 *
 * libarchive is told not to block its output (bytes_per_block 0), so every
 * piece it produces comes straight to out_write(): headers, padding, and the
 * very buffers handed to archive_write_data(). File data is read into the
 * arena below, so a piece that lies in the arena is only remembered as an
 * iovec; anything else (headers, compressed output) is copied into a small
 * staging buffer. A flush is one writev() of everything gathered, once a
 * flush's worth is there or the arena, the staging buffer or the iovec
 * array is full. This is why the create path reads files
 * through out_buffer(): the read lands where the write takes it from.
 *
 * Writes overlap with the reader on the other end: into a pipe, a flush
 * blocks until the reader has taken all but a pipe's worth, so flushes are
 * kept to a quarter of the pipe's capacity (which is raised to 1 MiB when
 * the system allows), else the two would take turns instead of running
 * side by side (measured: 3.2 s against 2.0 s for linux-source-6.1 through
 * a 64 KiB pipe with whole-pipe flushes).
 *
 * Uncompressed archives are padded to a whole record at the end, as GNU
 * tar's are; compressed ones are not, as GNU tar's compressor output is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "output.h"

#define FLUSH_MAX  (1u << 20)        /* flush past this much, at most */
#define ARENA_SIZE (2 * FLUSH_MAX)   /* file data between flushes */
#define STAGE_SIZE (1u << 20)        /* copied pieces between flushes */
#define PIPE_WANT  (1 << 20)         /* the pipe capacity asked for */

/* How much to gather before writing to fd. */
static size_t flush_size(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		return FLUSH_MAX;
	int cap = fcntl(fd, F_GETPIPE_SZ);
	if (cap < PIPE_WANT && fcntl(fd, F_SETPIPE_SZ, PIPE_WANT) >= 0)
		cap = fcntl(fd, F_GETPIPE_SZ);
	if (cap <= 0)
		return 16384;
	size_t f = (size_t)cap / 4;
	return f < 4096 ? 4096 : f > FLUSH_MAX ? FLUSH_MAX : f;
}

static const char zeros[65536];

int out_open(struct tar_out *o, const char *name, size_t record)
{
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->record = record;
	o->fd = -1;
	o->arena = malloc(ARENA_SIZE);
	o->stage = malloc(STAGE_SIZE);
	o->iov = malloc(IOV_MAX * sizeof(*o->iov));
	if (!o->arena || !o->stage || !o->iov)
		goto fail;
	if (strcmp(name, "-") == 0) {
		o->fd = STDOUT_FILENO;
		o->is_stdout = true;
		o->flush = flush_size(o->fd);
		return 0;
	}
	o->fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd >= 0) {
		o->flush = flush_size(o->fd);
		return 0;
	}
fail:;
	int err = errno;
	out_free(o);
	errno = err;
	return -1;
}

int out_open_fd(struct tar_out *o, int fd, const char *name, uint64_t base)
{
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->fd = -1;
	o->arena = malloc(ARENA_SIZE);
	o->stage = malloc(STAGE_SIZE);
	o->iov = malloc(IOV_MAX * sizeof(*o->iov));
	if (!o->arena || !o->stage || !o->iov) {
		out_free(o);
		errno = ENOMEM;
		return -1;
	}
	o->fd = fd;
	o->base = base;
	o->flush = flush_size(fd);
	return 0;
}

/* Write out everything gathered. Returns 0, or -1 with o->err set. */
int out_flush(struct tar_out *o)
{
	struct iovec *v = o->iov;
	int n = o->niov;
	while (n > 0 && !o->err) {
		ssize_t w = writev(o->fd, v, n > IOV_MAX ? IOV_MAX : n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? errno : ENOSPC;
			break;
		}
		o->written += (uint64_t)w;
		for (size_t left = (size_t)w; left > 0 && n > 0;) {
			size_t k = left < v->iov_len ? left : v->iov_len;
			v->iov_base = (char *)v->iov_base + k;
			v->iov_len -= k;
			left -= k;
			if (v->iov_len == 0) {
				v++;
				n--;
			}
		}
	}
	o->niov = 0;
	o->stage_len = 0;
	o->arena_used = 0;
	return o->err ? -1 : 0;
}

/* Remember len bytes at p for the next flush, after whatever came before;
 * the caller made sure an iovec is free. */
static void add_piece(struct tar_out *o, const void *p, size_t len)
{
	struct iovec *last = o->niov ? &o->iov[o->niov - 1] : NULL;
	if (last && (const char *)last->iov_base + last->iov_len == (const char *)p)
		last->iov_len += len;
	else
		o->iov[o->niov++] = (struct iovec){ (void *)p, len };
	o->bytes += len;
}

static bool in_arena(const struct tar_out *o, const void *p)
{
	uintptr_t a = (uintptr_t)o->arena, q = (uintptr_t)p;
	return q >= a && q < a + ARENA_SIZE;
}

int out_write(struct tar_out *o, const void *p, size_t len)
{
	if (o->err)
		return -1;
	/* Flushing leaves the arena's contents alone, so p stays valid. */
	if (o->bytes - o->written >= o->flush && out_flush(o) < 0)
		return -1;
	if (in_arena(o, p) || p == zeros) {
		if (o->niov == IOV_MAX && out_flush(o) < 0)
			return -1;
		add_piece(o, p, len);
		return 0;
	}
	while (len > 0) {
		if ((o->stage_len == STAGE_SIZE || o->niov == IOV_MAX) && out_flush(o) < 0)
			return -1;
		size_t k = STAGE_SIZE - o->stage_len;
		if (k > len)
			k = len;
		memcpy(o->stage + o->stage_len, p, k);
		add_piece(o, o->stage + o->stage_len, k);
		o->stage_len += k;
		p = (const char *)p + k;
		len -= k;
	}
	return 0;
}

void *out_buffer(struct tar_out *o, size_t want, size_t *avail)
{
	if (want > o->flush)
		want = o->flush;
	if ((ARENA_SIZE - o->arena_used < want || o->bytes - o->written >= o->flush) &&
	    out_flush(o) < 0)
		return NULL;
	*avail = want;
	return o->arena + o->arena_used;
}

void out_consume(struct tar_out *o, const void *p, size_t n)
{
	/* From p, not from arena_used: a flush since out_buffer() reset that. */
	o->arena_used = (size_t)((const char *)p - o->arena) + n;
}

uint64_t out_total(const struct tar_out *o)
{
	return o->bytes + (o->record ? o->base % o->record : 0);
}

const void *out_zeros(size_t *len)
{
	*len = sizeof(zeros);
	return zeros;
}

int out_close(struct tar_out *o)
{
	if (o->record && (o->base + o->bytes) % o->record) {
		size_t pad = o->record - (size_t)((o->base + o->bytes) % o->record);
		while (pad > 0 && !o->err) {
			size_t k = pad < sizeof(zeros) ? pad : sizeof(zeros);
			if (out_write(o, zeros, k) < 0)
				break;
			pad -= k;
		}
	}
	out_flush(o);
	if (!o->is_stdout && o->fd >= 0 && close(o->fd) < 0 && !o->err)
		o->err = errno;
	o->fd = -1;
	return o->err ? -1 : 0;
}

void out_free(struct tar_out *o)
{
	if (!o->is_stdout && o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->arena);
	free(o->stage);
	free(o->iov);
	o->arena = o->stage = NULL;
	o->iov = NULL;
}

int fd_write_all(int fd, const void *buf, size_t len, int64_t *at)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t w = at && *at >= 0 ? pwrite(fd, p, len, (off_t)*at) : write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
		if (at && *at >= 0)
			*at += w;
	}
	return 0;
}
