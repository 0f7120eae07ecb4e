/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flat.c: a device whose requests cost the same wherever they land, as
 * network block storage (a cloud volume, iSCSI, Ceph RBD) or an SSD: no
 * arm, so the order of requests is nothing to it and their number in flight
 * everything.
 *
 * A request takes the channel free first (waiting if all `channels` are
 * busy), spends `latency` there (the round trip, the flash or the remote
 * server: what overlaps between channels), then its bytes cross one link
 * shared by all channels at the link rate, after the bytes before them. A
 * request at depth 1 costs latency + len / rate; at depth N, N of them
 * overlap their latencies until the link is full.
 *
 * This is the model only, with no lock and no clock: arm.c serves the
 * FUSE threads' requests with it in real time and predict.c runs it alone.
 */
#include <stdlib.h>
#include "hddsim.h"

int hd_flat_init(struct hd_flat *f, const struct hd_params *p)
{
	*f = (struct hd_flat){ .n = p->channels };
	f->chan_free = calloc(p->channels, sizeof(*f->chan_free));
	return f->chan_free ? 0 : -1;
}

void hd_flat_free(struct hd_flat *f)
{
	free(f->chan_free);
	f->chan_free = NULL;
}

/* Serves a request of len bytes arriving at model time t; returns its
 * completion time and counts it in st. */
double hd_flat_serve(struct hd_flat *f, const struct hd_params *p, uint64_t len, int write,
		     double t, struct hd_stats *st)
{
	unsigned c = 0;
	for (unsigned i = 1; i < f->n; i++)
		if (f->chan_free[i] < f->chan_free[c])
			c = i;
	double start = t > f->chan_free[c] ? t : f->chan_free[c];
	double ready = start + p->latency_us * 1e3;
	double xfer = (double)len / (p->link_mibs * 1048576.0 / 1e9);
	double link = ready > f->link_free ? ready : f->link_free;
	double end = link + xfer;
	f->link_free = f->chan_free[c] = end;

	hd_stats_count(st, len, write);
	st->xfer_ns += xfer;
	/* busy: time with at least one request in service; requests end in
	 * the order they cross the link, so one running mark is enough */
	if (start > f->busy_until) {
		st->idle_ns += f->busy_until ? start - f->busy_until : 0;
		st->busy_ns += end - start;
	} else {
		st->busy_ns += end - f->busy_until;
	}
	f->busy_until = end;
	return end;
}
