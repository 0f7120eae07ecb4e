/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * predict.c: what the model expects of the fio jobs that validate the
 * emulator (bench/hddsim-validate): random reads at depth 1 over the whole
 * disk, sequential reads over its outermost zone, and for a flat device
 * random reads with as many in flight as it has channels (what it is
 * for). It drives the same model code
 * as the server, without threads or sleeping, so a mismatch with fio points
 * at the serving path (FUSE, loop, timers), not at the arithmetic.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "hddsim.h"

#define RAND_SAMPLES 50000
#define SEQ_SPAN (1ull << 30)
#define HOST_GAP_NS 100e3 /* host time between a completion and the next request */

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The device between requests: an arm's head, or a flat device's channels. */
struct device {
	struct hd_head h;
	struct hd_flat f;
};

/* A fresh device, as each prediction starts from; -1 without memory. */
static int device_init(struct device *d, const struct hd_params *p)
{
	hd_head_init(&d->h);
	d->f = (struct hd_flat){0};
	if (p->flat && hd_flat_init(&d->f, p) < 0) {
		fprintf(stderr, "hddsim: --predict: out of memory\n");
		return -1;
	}
	return 0;
}

/* Serves one read arriving at t; returns its completion time. */
static double serve(const struct hd_params *p, const struct hd_geom *g, struct device *d,
		    struct hd_stats *st, uint64_t off, uint64_t len, double t)
{
	if (p->flat)
		return hd_flat_serve(&d->f, p, len, 0, t, st);
	struct hd_cost c;
	struct hd_buffer b = hd_buffer_of(p);
	hd_cost(g, &d->h, &b, off, len, 0, t, &c);
	return hd_commit(g, &d->h, &b, off, len, 0, t, &c, st);
}

/* The time between an answer and the next request, in model time; a flat
 * device answers host_us early, which the host's own time then fills. */
static double host_gap(const struct hd_params *p)
{
	double gap = HOST_GAP_NS / (p->scale > 0 ? p->scale : 1);
	if (p->flat)
		gap = gap > p->host_us * 1e3 ? gap - p->host_us * 1e3 : 0;
	return gap;
}

static int predict_random(const struct hd_params *p, const struct hd_geom *g)
{
	struct device dev, *d = &dev;
	if (device_init(d, p) < 0)
		return -1;
	struct hd_stats st = {0};
	uint64_t s = 0x9e3779b97f4a7c15ull, blocks = p->size / p->predict_bs;
	double t = 0;
	for (int i = 0; i < RAND_SAMPLES; i++) {
		uint64_t off = next_rand(&s) % blocks * p->predict_bs;
		t = serve(p, g, d, &st, off, p->predict_bs, t) + host_gap(p);
	}
	double n = (double)st.requests;
	printf("rand_read_bytes %" PRIu64 "\n", p->predict_bs);
	printf("rand_read_ms %.4f\n", st.busy_ns / n / 1e6);
	printf("rand_seek_ms %.4f\nrand_rotation_ms %.4f\nrand_transfer_ms %.4f\n",
	       st.seek_ns / n / 1e6, st.rot_ns / n / 1e6, st.xfer_ns / n / 1e6);
	printf("rand_read_iops %.2f\n", n / (st.busy_ns / 1e9));
	hd_flat_free(&d->f);
	return 0;
}

/* Random reads from `channels` readers, each sending its next read as its
 * last one ends: what fio does at that iodepth. */
static int predict_random_depth(const struct hd_params *p)
{
	struct device d;
	struct hd_stats st = {0};
	double *next = calloc(p->channels, sizeof(*next)), end = 0;
	if (!next || device_init(&d, p) < 0) {
		free(next);
		if (!next)
			fprintf(stderr, "hddsim: --predict: out of memory\n");
		return -1;
	}
	for (int i = 0; i < RAND_SAMPLES; i++) {
		unsigned k = 0;
		for (unsigned j = 1; j < p->channels; j++)
			if (next[j] < next[k])
				k = j;
		double done = hd_flat_serve(&d.f, p, p->predict_bs, 0, next[k], &st);
		next[k] = done + host_gap(p);
		end = done > end ? done : end;
	}
	free(next);
	hd_flat_free(&d.f);
	printf("rand_depth %u\nrand_depth_iops %.2f\n", p->channels,
	       (double)st.requests / (end / 1e9));
	return 0;
}

static int predict_seq(const struct hd_params *p, const struct hd_geom *g)
{
	struct device dev, *d = &dev;
	if (device_init(d, p) < 0)
		return -1;
	struct hd_stats st = {0};
	/* The outermost zone only: fio loops over it for as long as it runs, so
	 * the rate must not depend on how far it gets. */
	uint64_t span = g->zone[0].bytes < SEQ_SPAN ? g->zone[0].bytes : SEQ_SPAN, off;
	if (span > p->size)
		span = p->size;
	double t = 0;
	for (off = 0; off + p->predict_seq <= span; off += p->predict_seq)
		t = serve(p, g, d, &st, off, p->predict_seq, t) + host_gap(p);
	printf("seq_read_bytes %" PRIu64 "\nseq_span_bytes %" PRIu64 "\n", p->predict_seq, span);
	printf("seq_read_mibs %.3f\n", (double)st.bytes_read / 1048576.0 / (t / 1e9));
	hd_flat_free(&d->f);
	return 0;
}

/* Prints the geometry and the predictions as "name value" lines. */
int hd_predict(const struct hd_params *p, const struct hd_geom *g)
{
	printf("size %" PRIu64 "\ncylinders %" PRIu32 "\nzones %u\n", p->size, g->cylinders, g->nzones);
	printf("rev_ms %.4f\nrot_avg_ms %.4f\n", g->rev_ns / 1e6, g->rev_ns / 2e6);
	printf("seek_1_ms %.4f\nseek_avg_ms %.4f\nseek_full_ms %.4f\n",
	       hd_seek_ns(g, 1) / 1e6, hd_seek_avg_ns(g) / 1e6,
	       hd_seek_ns(g, g->cylinders > 1 ? g->cylinders - 1 : 0) / 1e6);
	printf("rate_outer_mibs %.3f\nrate_inner_mibs %.3f\n",
	       g->zone[0].rate * 1e9 / 1048576.0, g->zone[g->nzones - 1].rate * 1e9 / 1048576.0);
	if (p->size < p->predict_bs) {
		fprintf(stderr, "hddsim: the disk is smaller than --predict-bs\n");
		return -1;
	}
	printf("class %s\n", p->class_name);
	if (predict_random(p, g) < 0 || (p->flat && predict_random_depth(p) < 0))
		return -1;
	return predict_seq(p, g);
}
