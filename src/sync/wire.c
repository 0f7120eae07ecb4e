/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wire.c: frames over a pair of descriptors (see wire.h): buffered both
 * ways, checked on the way in so that a peer that lies about a length or
 * stops half way gives a message, never a read past the payload or a hang
 * at the greeting.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "wire.h"

#define IBUF_SIZE (256u << 10)
#define OBUF_FLUSH (256u << 10)
static const char greeting[10] = "SWEEPSYNC";

int wire_init(struct wire *w, int in, int out, const char *prog, const char *peer)
{
	memset(w, 0, sizeof(*w));
	w->in = in;
	w->out = out;
	w->prog = prog;
	w->peer = peer;
	w->timeout_ms = -1;
	w->ibuf = malloc(IBUF_SIZE);
	w->icap = IBUF_SIZE;
	return w->ibuf ? 0 : -1;
}

void wire_free(struct wire *w)
{
	sb_free(&w->obuf);
	free(w->ibuf);
	w->ibuf = NULL;
}

/* The connection broke: said once. */
static int broken(struct wire *w, int err, const char *what)
{
	if (!w->failed) {
		fflush(stdout);
		if (err)
			fprintf(stderr, "%s: %s %s: %s (%d)\n", w->prog, what, w->peer,
			        strerror(err), err);
		else
			fprintf(stderr, "%s: %s %s (%llu bytes received so far)\n", w->prog, what,
			        w->peer, (unsigned long long)w->received);
	}
	w->failed = true;
	return -1;
}

int wire_bad(struct wire *w, const char *what)
{
	if (!w->failed) {
		fflush(stdout);
		fprintf(stderr, "%s: protocol error: %s from %s\n", w->prog, what, w->peer);
	}
	w->failed = true;
	return -1;
}

/* Something moved: a --timeout watch hears of it. */
static void wire_alive(struct wire *w)
{
	if (w->alive)
		w->alive(w->alive_arg);
}

int wire_flush(struct wire *w)
{
	size_t done = 0;
	/* under --bwlimit, in pieces of a quarter second's worth: the far
	 * end's --timeout hears from us while the limit holds us back */
	size_t piece = w->rate.limit ? (size_t)(w->rate.limit / 4) : SIZE_MAX;
	if (piece < 512)
		piece = 512;
	while (done < w->obuf.len && !w->failed) {
		size_t len = w->obuf.len - done < piece ? w->obuf.len - done : piece;
		ssize_t n = write(w->out, w->obuf.s + done, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return broken(w, n < 0 ? errno : EPIPE, "cannot write to");
		done += (size_t)n;
		wire_alive(w);
		rate_moved(&w->rate, (uint64_t)n, w->alive, w->alive_arg);
	}
	w->sent += done;
	sb_reset(&w->obuf);
	return w->failed ? -1 : 0;
}

/* Read more into ibuf (what was taken is dropped first); waits at most
 * timeout_ms when it is set. Returns the bytes read, 0 at the end, -1. */
static ssize_t fill(struct wire *w)
{
	if (w->ipos > 0) {
		memmove(w->ibuf, w->ibuf + w->ipos, w->ilen - w->ipos);
		w->ilen -= w->ipos;
		w->ipos = 0;
	}
	if (w->timeout_ms >= 0) {
		struct pollfd p = { .fd = w->in, .events = POLLIN };
		int r;
		while ((r = poll(&p, 1, w->timeout_ms)) < 0 && errno == EINTR)
			;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
	ssize_t n;
	while ((n = read(w->in, w->ibuf + w->ilen, w->icap - w->ilen)) < 0 && errno == EINTR)
		;
	if (n > 0) {
		w->ilen += (size_t)n;
		w->received += (uint64_t)n;
		wire_alive(w);
	}
	return n;
}

/* At least n bytes in ibuf past ipos. Returns 0, 1 at a clean end before
 * any of them, or -1 (errno set; 0 for an end inside them). */
static int need(struct wire *w, size_t n)
{
	size_t start = w->ilen - w->ipos;
	if (n > w->icap) { /* a frame longer than any before: room for it */
		char *b = realloc(w->ibuf, n);
		if (!b)
			return -1; /* errno ENOMEM */
		w->ibuf = b;
		w->icap = n;
	}
	while (w->ilen - w->ipos < n) {
		ssize_t got = fill(w);
		if (got < 0)
			return -1;
		if (got == 0) {
			errno = 0;
			return w->ilen - w->ipos == 0 && start == 0 ? 1 : -1;
		}
	}
	return 0;
}

/* What the peer sent instead of a greeting, printable, for the message. */
static void show_bytes(const char *p, size_t n, char *out, size_t outsize)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < outsize; i++)
		out[k++] = isprint((unsigned char)p[i]) ? p[i] : '.';
	out[k] = 0;
}

int wire_greet(struct wire *w)
{
	char mine[sizeof(greeting) + 4];
	memcpy(mine, greeting, sizeof(greeting));
	for (int i = 0; i < 4; i++)
		mine[sizeof(greeting) + i] = (char)(WIRE_VERSION >> (8 * i));
	/* a peer that is not sweep-sync may have said what it is and gone
	 * before ours is written: what it said tells more than EPIPE does */
	ssize_t wrote;
	while ((wrote = write(w->out, mine, sizeof(mine))) < 0 && errno == EINTR)
		;
	int werr = wrote == (ssize_t)sizeof(mine) ? 0 : wrote < 0 ? errno : EPIPE;
	w->sent += wrote > 0 ? (uint64_t)wrote : 0;
	if (need(w, sizeof(mine)) != 0) {
		if (errno == ETIMEDOUT)
			return broken(w, 0, "no greeting in time from");
		if (errno)
			return broken(w, errno, "cannot read from");
		if (werr && w->ilen == w->ipos)
			return broken(w, werr, "cannot write to");
		if (w->ilen > w->ipos) {
			char shown[64];
			show_bytes(w->ibuf + w->ipos, w->ilen - w->ipos, shown, sizeof(shown));
			fprintf(stderr, "%s: %s is not sweep-sync --server: it said \"%s\" "
			        "(is the remote shell clean?)\n", w->prog, w->peer, shown);
			w->failed = true;
			return -1;
		}
		return broken(w, 0, "connection closed before a greeting from");
	}
	const char *p = w->ibuf + w->ipos;
	if (memcmp(p, greeting, sizeof(greeting)) != 0) {
		char shown[64];
		show_bytes(p, sizeof(mine), shown, sizeof(shown));
		fprintf(stderr, "%s: %s is not sweep-sync --server: it said \"%s\" "
		        "(is the remote shell clean?)\n", w->prog, w->peer, shown);
		w->failed = true;
		return -1;
	}
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)(unsigned char)p[sizeof(greeting) + i] << (8 * i);
	w->ipos += sizeof(mine);
	if (v != WIRE_VERSION) {
		fprintf(stderr, "%s: protocol version mismatch: ours is %u, %s speaks %u\n",
		        w->prog, WIRE_VERSION, w->peer, v);
		w->failed = true;
		return -1;
	}
	w->timeout_ms = -1;
	return 0;
}

void wire_begin(struct wire_frame *f, enum wire_type type)
{
	sb_reset(&f->b);
	char head[5] = { 0, 0, 0, 0, (char)type };
	sb_add(&f->b, head, sizeof(head));
}

void wire_u8(struct wire_frame *f, uint8_t v)
{
	sb_addc(&f->b, (char)v);
}

void wire_u32(struct wire_frame *f, uint32_t v)
{
	char b[4];
	for (int i = 0; i < 4; i++)
		b[i] = (char)(v >> (8 * i));
	sb_add(&f->b, b, sizeof(b));
}

void wire_u64(struct wire_frame *f, uint64_t v)
{
	char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (char)(v >> (8 * i));
	sb_add(&f->b, b, sizeof(b));
}

void wire_str(struct wire_frame *f, const char *s, size_t n)
{
	wire_u32(f, (uint32_t)n);
	sb_add(&f->b, s, n);
}

int wire_send(struct wire *w, struct wire_frame *f)
{
	/* a failed addition left the frame short: its length tells */
	if (!f->b.s || f->b.len < 5 || f->b.len - 4 > WIRE_MAX_FRAME) {
		errno = ENOMEM;
		return broken(w, ENOMEM, "cannot build a frame for");
	}
	uint32_t n = (uint32_t)(f->b.len - 4);
	for (int i = 0; i < 4; i++)
		f->b.s[i] = (char)(n >> (8 * i));
	if (sb_add(&w->obuf, f->b.s, f->b.len) < 0)
		return broken(w, ENOMEM, "cannot send to");
	if ((unsigned char)f->b.s[4] == W_ENTRY)
		w->list_bytes += f->b.len;
	wire_alive(w); /* a walk that finds what to say is alive, sent or not */
	return w->obuf.len >= OBUF_FLUSH ? wire_flush(w) : 0;
}

int wire_send_data(struct wire *w, const char *buf, size_t n)
{
	struct wire_frame f = { STRBUF_INIT };
	uLongf zlen = compressBound((uLong)n);
	int r = -1;
	if (w->compress && sb_reserve(&f.b, 9 + zlen) == 0) {
		wire_begin(&f, W_DATAZ);
		wire_u32(&f, (uint32_t)n);
		if (compress2((Bytef *)f.b.s + f.b.len, &zlen, (const Bytef *)buf, (uLong)n,
		              w->compress_level ? w->compress_level : 6) == Z_OK) {
			f.b.len += zlen;
			r = wire_send(w, &f);
			sb_free(&f.b);
			return r;
		}
	}
	wire_begin(&f, W_DATA);
	sb_add(&f.b, buf, n);
	r = wire_send(w, &f);
	sb_free(&f.b);
	return r;
}

/* Inflate a W_DATAZ payload into buf; m then reads buf. */
static int inflate_data(struct wire *w, struct wire_msg *m, struct strbuf *buf)
{
	uint32_t raw = wire_get_u32(m);
	uLongf n = raw;
	sb_reset(buf);
	if (m->bad || raw > WIRE_CHUNK || sb_reserve(buf, raw + 1) < 0 ||
	    uncompress((Bytef *)buf->s, &n, (const Bytef *)m->p, (uLong)(m->end - m->p)) != Z_OK ||
	    n != raw)
		return wire_bad(w, "data that does not inflate");
	buf->len = raw;
	m->type = W_DATA;
	m->p = buf->s;
	m->end = buf->s + raw;
	return 0;
}

int wire_recv(struct wire *w, struct wire_msg *m, struct strbuf *buf)
{
	if (w->failed)
		return -1;
	if (wire_flush(w) < 0) /* the peer may be waiting for what we said */
		return -1;
	int r = need(w, 5);
	if (r != 0)
		return r > 0 ? broken(w, 0, "connection closed by")
		             : broken(w, errno, errno ? "cannot read from" : "connection closed by");
	const unsigned char *h = (const unsigned char *)w->ibuf + w->ipos;
	uint32_t len = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
	               (uint32_t)h[3] << 24;
	if (len < 1 || len > WIRE_MAX_FRAME)
		return wire_bad(w, "a frame of impossible length");
	if (need(w, 4 + (size_t)len) != 0)
		return broken(w, errno, errno ? "cannot read from" : "connection closed by");
	m->type = (enum wire_type)(unsigned char)w->ibuf[w->ipos + 4];
	m->p = w->ibuf + w->ipos + 5;
	m->end = w->ibuf + w->ipos + 4 + len;
	m->bad = false;
	w->ipos += 4 + (size_t)len;
	if (m->type == W_ENTRY)
		w->list_bytes += 4 + (size_t)len;
	if (m->type == W_DATAZ)
		return inflate_data(w, m, buf);
	return 0;
}

static const char *take(struct wire_msg *m, size_t n)
{
	if (m->bad || (size_t)(m->end - m->p) < n) {
		m->bad = true;
		return NULL;
	}
	const char *p = m->p;
	m->p += n;
	return p;
}

uint8_t wire_get_u8(struct wire_msg *m)
{
	const char *p = take(m, 1);
	return p ? (uint8_t)*p : 0;
}

uint32_t wire_get_u32(struct wire_msg *m)
{
	const unsigned char *p = (const unsigned char *)take(m, 4);
	uint32_t v = 0;
	for (int i = 0; p && i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

uint64_t wire_get_u64(struct wire_msg *m)
{
	const unsigned char *p = (const unsigned char *)take(m, 8);
	uint64_t v = 0;
	for (int i = 0; p && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

const char *wire_get_str(struct wire_msg *m, size_t *n)
{
	*n = wire_get_u32(m);
	const char *p = take(m, *n);
	if (!p)
		*n = 0;
	return p;
}

bool wire_get_cstr(struct wire_msg *m, struct strbuf *sb)
{
	size_t n;
	const char *p = wire_get_str(m, &n);
	sb_reset(sb);
	if (m->bad || memchr(p, 0, n) || sb_add(sb, p, n) < 0 || sb_addc(sb, 0) < 0) {
		m->bad = true;
		return false;
	}
	sb->len = n;
	return true;
}
