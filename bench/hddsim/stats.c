/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c: the counters as "name value" lines, the format of the stats file.
 * Times are in modelled nanoseconds, whatever the scale; the bench diffs two
 * readings taken around a run.
 */
#include <inttypes.h>
#include <stdio.h>
#include "hddsim.h"

/* One more request of len bytes in the counts. */
void hd_stats_count(struct hd_stats *st, uint64_t len, int write)
{
	st->requests++;
	if (write) {
		st->writes++;
		st->bytes_written += len;
	} else {
		st->reads++;
		st->bytes_read += len;
	}
}

/* Writes the lines into buf; returns their length, or -1 if buf is too small. */
int hd_stats_format(const struct hd_stats *s, const struct hd_params *p,
		    const struct hd_geom *g, char *buf, size_t len)
{
	int n = snprintf(buf, len,
		"requests %" PRIu64 "\n" "reads %" PRIu64 "\n" "writes %" PRIu64 "\n"
		"bytes_read %" PRIu64 "\n" "bytes_written %" PRIu64 "\n"
		"seeks %" PRIu64 "\n" "seek_cylinders %" PRIu64 "\n"
		"buffer_hits %" PRIu64 "\n" "queue_max %" PRIu64 "\n"
		"busy_ns %.0f\n" "idle_ns %.0f\n" "seek_ns %.0f\n" "rotation_ns %.0f\n" "transfer_ns %.0f\n"
		"cylinders %" PRIu32 "\n" "zones %u\n" "scale %g\n" "depth %u\n"
		"policy %s\n" "class %s\n",
		s->requests, s->reads, s->writes, s->bytes_read, s->bytes_written,
		s->seeks, s->seek_cylinders, s->buffer_hits, s->queue_max,
		s->busy_ns, s->idle_ns, s->seek_ns, s->rot_ns, s->xfer_ns,
		g->cylinders, g->nzones, p->scale, p->depth, p->satf ? "satf" : "fifo", p->class_name);
	return n < 0 || (size_t)n >= len ? -1 : n;
}
