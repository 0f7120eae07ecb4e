/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * model.c: what one request costs on the drive, and the state it leaves.
 *
 * A request that misses the track buffer pays seek + rotational wait +
 * transfer: the seek by cylinder distance (0 on the same cylinder), the wait
 * until the platter, turning since model time 0, brings the first byte under
 * the head, the transfer at the zone's media rate.
 *
 * After every read the drive keeps reading ahead at the media rate into its
 * buffer until it holds `prefetch` bytes past the request (by default the
 * whole buffer), as drives do, and keeps the last `size` bytes it read; a
 * read starting inside that stream (already read, or about to be) waits only
 * for the stream to pass its end. That is what makes a sequential reader see
 * the media rate although each of its requests arrives a little after the
 * last one finished. Drives differ in what they count as inside: with
 * hit_filled only what the stream has read by the request's arrival is, and
 * a read just ahead of it pays the platter's turn as a miss. A write ends
 * the stream. A write continuing the previous write costs its transfer only
 * (the write cache hides the gap).
 */
#include <math.h>
#include <string.h>
#include "hddsim.h"

void hd_head_init(struct hd_head *h)
{
	memset(h, 0, sizeof(*h));
}

struct hd_buffer hd_buffer_of(const struct hd_params *p)
{
	return (struct hd_buffer){ .size = p->buffer,
				   .prefetch = p->prefetch ? p->prefetch : p->buffer,
				   .hit_filled = p->hit_filled };
}

/* Where the read-ahead stream is at time t (it stops at its limit). */
static uint64_t ra_at(const struct hd_head *h, double t)
{
	if (t <= h->ra_t0)
		return h->ra_pos0;
	double p = (double)h->ra_pos0 + (t - h->ra_t0) * h->ra_rate;
	return p >= (double)h->ra_limit ? h->ra_limit : (uint64_t)p;
}

/* Lowest byte still in the buffer while the stream is at pos. */
static uint64_t ra_low(const struct hd_head *h, uint64_t pos, uint64_t buffer)
{
	return pos - h->ra_start > buffer ? pos - buffer : h->ra_start;
}

/* The arm's cylinder at time t: a reading stream carries the arm along. */
static uint32_t head_cyl(const struct hd_geom *g, const struct hd_head *h, double t)
{
	if (!h->ra_on)
		return h->cyl;
	uint64_t pos = ra_at(h, t);
	return hd_cyl_of(g, pos ? pos - 1 : 0);
}

/* Revolutions' worth of waiting, in ns, until byte off passes the head at t. */
static double rot_wait(const struct hd_geom *g, uint64_t off, double t)
{
	double now = t / g->rev_ns;
	double w = hd_angle_of(g, off) - (now - floor(now));
	return (w < 0 ? w + 1 : w) * g->rev_ns;
}

/* Seek, wait and transfer for len bytes at off, the arm leaving at t. */
static void access_cost(const struct hd_geom *g, const struct hd_head *h,
			uint64_t off, uint64_t len, double t, struct hd_cost *c)
{
	uint32_t from = head_cyl(g, h, t), to = hd_cyl_of(g, off);
	c->dist = from > to ? from - to : to - from;
	c->seek = hd_seek_ns(g, c->dist);
	c->rot = rot_wait(g, off, t + c->seek);
	c->xfer = (double)len / hd_zone_of(g, off)->rate;
}

/* Fills c with what serving the request at model time t would cost. */
void hd_cost(const struct hd_geom *g, const struct hd_head *h, const struct hd_buffer *b,
	     uint64_t off, uint64_t len, int write, double t, struct hd_cost *c)
{
	uint64_t end = off + len;
	memset(c, 0, sizeof(*c));
	if (!write && h->ra_on) {
		uint64_t pos = ra_at(h, t);
		uint64_t top = b->hit_filled ? pos : h->ra_limit;
		if (off >= ra_low(h, pos, b->size) && off <= top) {
			c->hit = 1;
			if (pos < h->ra_limit) { /* still streaming towards end */
				uint64_t from = off > pos ? off : pos;
				c->rot = (double)(off > pos ? off - pos : 0) / h->ra_rate;
				c->xfer = end > from ? (double)(end - from) / h->ra_rate : 0;
			} else if (end > h->ra_limit) { /* stopped short of end */
				access_cost(g, h, h->ra_limit, end - h->ra_limit, t, c);
			}
			return;
		}
	}
	if (write && h->last_write && off == h->last_end) {
		c->xfer = (double)len / hd_zone_of(g, off)->rate;
		return;
	}
	access_cost(g, h, off, len, t, c);
}

/* Leaves a read-ahead stream going from pos at time t0 for a read ending at end. */
static void ra_restart(const struct hd_geom *g, struct hd_head *h, uint64_t start,
		       uint64_t pos, double t0, uint64_t end, const struct hd_buffer *b)
{
	h->ra_on = 1;
	h->ra_start = start;
	h->ra_limit = end + b->prefetch < g->size ? end + b->prefetch : g->size;
	h->ra_pos0 = pos < h->ra_limit ? pos : h->ra_limit;
	h->ra_t0 = t0;
	h->ra_rate = hd_zone_of(g, h->ra_pos0 ? h->ra_pos0 - 1 : 0)->rate;
}

static void read_leaves(const struct hd_geom *g, struct hd_head *h, const struct hd_buffer *b,
			uint64_t off, uint64_t end, double t, double tc,
			const struct hd_cost *c)
{
	if (!c->hit) {
		ra_restart(g, h, off, end, tc, end, b);
	} else if (ra_at(h, t) < h->ra_limit) {
		uint64_t pos = ra_at(h, tc);
		ra_restart(g, h, h->ra_start, pos > end ? pos : end, tc, end, b);
	} else if (end <= h->ra_limit) {
		/* Served from a full buffer: reading resumes at its end once the
		 * platter brings that byte round again. */
		uint64_t lim = h->ra_limit;
		ra_restart(g, h, h->ra_start, lim, tc + rot_wait(g, lim, tc), end, b);
	} else {
		ra_restart(g, h, h->ra_start, end, tc, end, b);
	}
}

/* Serves the request costed in c from time t: updates the head and the
 * counters, returns the model time it completes. */
double hd_commit(const struct hd_geom *g, struct hd_head *h, const struct hd_buffer *b,
		 uint64_t off, uint64_t len, int write, double t,
		 const struct hd_cost *c, struct hd_stats *st)
{
	double tc = t + c->seek + c->rot + c->xfer;
	uint64_t end = off + len;
	hd_stats_count(st, len, write);
	if (c->dist) {
		st->seeks++;
		st->seek_cylinders += c->dist;
	}
	st->buffer_hits += c->hit;
	st->busy_ns += tc - t;
	st->seek_ns += c->seek;
	st->rot_ns += c->rot;
	st->xfer_ns += c->xfer;

	if (write) {
		h->ra_on = 0;
		h->last_write = 1;
		h->last_end = end;
		h->cyl = hd_cyl_of(g, end - 1);
	} else {
		read_leaves(g, h, b, off, end, t, tc, c);
		h->last_write = 0;
		h->cyl = hd_cyl_of(g, end - 1);
	}
	h->now = tc;
	return tc;
}
