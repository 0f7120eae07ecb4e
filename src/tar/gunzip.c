/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gunzip.c: a gzip archive's input for libarchive, inflated here. When the
 * input ends early (an archive cut short by a full disk), libarchive's own
 * gzip reader drops what it inflated last, up to 64 KiB: dozens of small
 * files at the end of a damaged backup. Here every byte the input holds is
 * handed on before the end is reported, as GNU tar's "gzip -d" gives them.
 * Concatenated gzip members are read as one stream; bytes after the last
 * that are not one are ignored, as gzip ignores trailing garbage. A pipe
 * is told by its first bytes, and passed through unless they are gzip's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <archive.h>
#include <zlib.h>
#include "extract.h"

#define OUT_SIZE (128u << 10)

struct gunzip {
	int fd;
	size_t in_size;
	z_stream z;
	bool started;   /* inflateInit2 done */
	bool looked;    /* the first bytes were looked at */
	bool raw;       /* not gzip: passed through */
	bool ended;     /* the last member ended */
	bool cut;       /* the input ended inside a member */
	bool bad;       /* the data is not gzip's */
	bool garbage;   /* bytes after the last member, not zeros */
	const char *why; /* bad: what zlib found, in gzip's words */
	unsigned char *in, *out;
};

static bool gzip_magic(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

bool gunzip_head(const struct tar *t, const void *head, size_t len)
{
	return (t->opt.filter == FLT_NONE || t->opt.filter == FLT_GZIP) && gzip_magic(head, len);
}

bool gunzip_wanted(const struct tar *t, int fd)
{
	unsigned char magic[2];
	if (t->opt.filter != FLT_NONE && t->opt.filter != FLT_GZIP)
		return false;
	/* a file is looked at where it is read from (any other stays with
	 * libarchive's reader, which skips what it need not read); a pipe is
	 * looked at as it is read */
	off_t at = lseek(fd, 0, SEEK_CUR);
	return at < 0 ? errno == ESPIPE : pread(fd, magic, 2, at) == 2 && gzip_magic(magic, 2);
}

/* More input, when what was read is used up. Returns the bytes now there,
 * 0 at the input's end, or -1 (errno). */
static ssize_t fill(struct gunzip *g)
{
	if (g->z.avail_in)
		return g->z.avail_in;
	ssize_t n;
	do
		n = read(g->fd, g->in, g->in_size);
	while (n < 0 && errno == EINTR);
	g->z.next_in = g->in;
	g->z.avail_in = n > 0 ? (uInt)n : 0;
	return n;
}

/* Whether the rest of the input, from what is read of it, is zeros. */
static bool all_zeros(struct gunzip *g)
{
	for (;;) {
		for (uInt i = 0; i < g->z.avail_in; i++)
			if (g->z.next_in[i])
				return false;
		g->z.avail_in = 0;
		ssize_t n = fill(g);
		if (n <= 0)
			return n == 0;
	}
}

/* What zlib found wrong, in gzip's words. */
static const char *gzip_words(const z_stream *z)
{
	if (z->msg && strcmp(z->msg, "incorrect data check") == 0)
		return "invalid compressed data--crc error";
	if (z->msg && strcmp(z->msg, "incorrect length check") == 0)
		return "invalid compressed data--length error";
	return "invalid compressed data--format violated";
}

/* A gzip member ended: another follows, or the stream is over. */
static int member_end(struct gunzip *g)
{
	ssize_t n = fill(g);
	if (n < 0)
		return -1;
	if (n >= 2 && gzip_magic(g->z.next_in, g->z.avail_in))
		return inflateReset(&g->z) == Z_OK ? 0 : -1;
	g->ended = true;
	/* what follows: zeros are passed over in silence, a lone start of a
	 * member is one cut short, anything else garbage, as gzip says */
	if (n == 1 && g->z.next_in[0] == 0x1f)
		g->cut = true;
	else
		g->garbage = n > 0 && !all_zeros(g);
	return 0;
}

/* A pipe's first bytes, or any of it when they are not gzip's: passed
 * through. Returns their count, 0 at the end, -1 (reported); or -2: gzip. */
static la_ssize_t pass_raw(struct archive *a, struct gunzip *g, const void **buf)
{
	if (!g->looked) {
		g->looked = true;
		ssize_t n = fill(g);
		g->raw = n < 0 || !gzip_magic(g->in, (size_t)n);
		if (!g->raw)
			return -2;
		g->z.avail_in = 0;
		*buf = g->in;
		if (n < 0)
			archive_set_error(a, errno, "Error reading archive");
		return n;
	}
	if (!g->raw)
		return -2;
	ssize_t n = fill(g);
	g->z.avail_in = 0;
	*buf = g->in;
	if (n < 0)
		archive_set_error(a, errno, "Error reading archive");
	return n;
}

/* One read, if the input read is used up, inflated into what is left of
 * g->out. Returns 0 (the stream's state, ended, cut or bad, in g), or the
 * errno of a failed read. */
static int inflate_step(struct gunzip *g)
{
	ssize_t n = fill(g);
	if (n <= 0) {
		g->cut = n == 0;
		return n < 0 ? errno : 0;
	}
	int r = inflate(&g->z, Z_NO_FLUSH);
	if (r == Z_STREAM_END)
		return member_end(g) < 0 ? (errno ? errno : ENOMEM) : 0;
	if (r != Z_OK && r != Z_BUF_ERROR) {
		g->bad = true;
		g->why = gzip_words(&g->z);
	}
	return 0;
}

static la_ssize_t gunzip_read(struct archive *a, void *arg, const void **buf)
{
	struct gunzip *g = arg;
	la_ssize_t raw = pass_raw(a, g, buf);
	if (raw != -2)
		return raw;
	g->z.next_out = g->out;
	g->z.avail_out = OUT_SIZE;
	int err = 0;
	while (g->z.avail_out && !g->ended && !g->cut && !g->bad && !err)
		err = inflate_step(g);
	size_t made = OUT_SIZE - g->z.avail_out;
	*buf = g->out;
	if (made)
		return (la_ssize_t)made; /* the failure, if any, on the next call */
	if (err)
		archive_set_error(a, err, "Error reading archive");
	else if (g->bad)
		archive_set_error(a, EIO, "%s", g->why);
	else if (g->cut)
		archive_set_error(a, EIO, "truncated gzip input");
	return err || g->bad || g->cut ? -1 : 0;
}

static int gunzip_close(struct archive *a, void *arg)
{
	(void)a;
	struct gunzip *g = arg;
	if (g->started)
		inflateEnd(&g->z);
	free(g->in);
	free(g->out);
	free(g);
	return ARCHIVE_OK;
}

const char *gunzip_end(struct gunzip *g)
{
	if (g->raw)
		return NULL;
	while (!g->ended && !g->cut && !g->bad) {
		g->z.next_out = g->out; /* (the rest's bytes: not kept) */
		g->z.avail_out = OUT_SIZE;
		if (inflate_step(g)) /* (a read that fails: as an end) */
			g->cut = true;
	}
	return g->bad ? g->why : g->cut ? "unexpected end of file"
	       : g->garbage ? "decompression OK, trailing garbage ignored" : NULL;
}

int gunzip_open(struct archive *a, int fd, size_t block, const void *head, size_t len,
                struct gunzip **out)
{
	struct gunzip *g = calloc(1, sizeof(*g));
	if (g) {
		g->fd = fd;
		g->in_size = block > (256u << 10) ? block : (256u << 10);
		if (g->in_size < len)
			g->in_size = len;
		g->in = malloc(g->in_size);
		g->out = malloc(OUT_SIZE);
		g->started = g->in && g->out && inflateInit2(&g->z, 16 + MAX_WBITS) == Z_OK;
	}
	if (!g || !g->started) {
		if (g)
			gunzip_close(a, g);
		archive_set_error(a, ENOMEM, "memory exhausted");
		return ARCHIVE_FATAL;
	}
	if (len) { /* read already: the first to come */
		memcpy(g->in, head, len);
		g->z.next_in = g->in;
		g->z.avail_in = (uInt)len;
	}
	*out = g;
	return archive_read_open(a, g, NULL, gunzip_read, gunzip_close);
}
