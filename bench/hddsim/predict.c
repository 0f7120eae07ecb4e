/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * predict.c: what the model expects of the two fio jobs that validate the
 * emulator (bench/hddsim-validate): random reads at depth 1 over the whole
 * disk, and sequential reads over its outermost zone. It drives the same model code
 * as the server, without threads or sleeping, so a mismatch with fio points
 * at the serving path (FUSE, loop, timers), not at the arithmetic.
 */
#include <inttypes.h>
#include <stdio.h>
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

/* Serves one request arriving at t; returns its completion time. */
static double serve(const struct hd_params *p, const struct hd_geom *g, struct hd_head *h,
		    struct hd_stats *st, uint64_t off, uint64_t len, double t)
{
	struct hd_cost c;
	struct hd_buffer b = hd_buffer_of(p);
	hd_cost(g, h, &b, off, len, 0, t, &c);
	return hd_commit(g, h, &b, off, len, 0, t, &c, st);
}

static void predict_random(const struct hd_params *p, const struct hd_geom *g)
{
	struct hd_head h;
	struct hd_stats st = {0};
	uint64_t s = 0x9e3779b97f4a7c15ull, blocks = p->size / p->predict_bs;
	double t = 0;
	hd_head_init(&h);
	for (int i = 0; i < RAND_SAMPLES; i++) {
		uint64_t off = next_rand(&s) % blocks * p->predict_bs;
		t = serve(p, g, &h, &st, off, p->predict_bs, t) + HOST_GAP_NS / (p->scale > 0 ? p->scale : 1);
	}
	double n = (double)st.requests;
	printf("rand_read_bytes %" PRIu64 "\n", p->predict_bs);
	printf("rand_read_ms %.4f\n", st.busy_ns / n / 1e6);
	printf("rand_seek_ms %.4f\nrand_rotation_ms %.4f\nrand_transfer_ms %.4f\n",
	       st.seek_ns / n / 1e6, st.rot_ns / n / 1e6, st.xfer_ns / n / 1e6);
	printf("rand_read_iops %.2f\n", n / (st.busy_ns / 1e9));
}

static void predict_seq(const struct hd_params *p, const struct hd_geom *g)
{
	struct hd_head h;
	struct hd_stats st = {0};
	/* The outermost zone only: fio loops over it for as long as it runs, so
	 * the rate must not depend on how far it gets. */
	uint64_t span = g->zone[0].bytes < SEQ_SPAN ? g->zone[0].bytes : SEQ_SPAN, off;
	if (span > p->size)
		span = p->size;
	double t = 0;
	hd_head_init(&h);
	for (off = 0; off + p->predict_seq <= span; off += p->predict_seq)
		t = serve(p, g, &h, &st, off, p->predict_seq, t) + HOST_GAP_NS / (p->scale > 0 ? p->scale : 1);
	printf("seq_read_bytes %" PRIu64 "\nseq_span_bytes %" PRIu64 "\n", p->predict_seq, span);
	printf("seq_read_mibs %.3f\n", (double)st.bytes_read / 1048576.0 / (t / 1e9));
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
	predict_random(p, g);
	predict_seq(p, g);
	return 0;
}
