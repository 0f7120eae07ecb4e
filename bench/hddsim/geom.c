/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * geom.c: the drive's layout and its seek curve.
 *
 * Zones: the outer zone records rate_max bytes per second, the inner one
 * rate_min, linearly in between; every zone has the same number of
 * cylinders, so outer zones hold more bytes. A cylinder holds `heads` tracks.
 * Angles come from the byte offset within the zone modulo the track size
 * (head switches and track skew are taken as free).
 *
 * Seek: Ruemmler & Wilkes' shape over x = distance / (cylinders - 1):
 * a + b*sqrt(x) up to the knee, c + e*x beyond, continuous at the knee, with
 * seek(1 cylinder) = seek_min, seek(full stroke) = seek_max, and b chosen so
 * that the mean over all pairs of distinct cylinders is seek_avg.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "hddsim.h"

#define NS_PER_MS 1e6
#define MIB 1048576.0

/* Lays out the zones over g->size; returns -1 if out of memory. */
static int geom_zones(struct hd_geom *g, const struct hd_params *p)
{
	double sum = 0;
	unsigned z, nz = p->zones;
	for (;;) {
		sum = 0;
		for (z = 0; z < nz; z++) {
			double f = nz > 1 ? (double)z / (nz - 1) : 0;
			double mibs = p->rate_max_mibs - f * (p->rate_max_mibs - p->rate_min_mibs);
			sum += mibs * MIB / 1e9 * g->rev_ns;
		}
		double c = nz * (double)g->size / (g->heads * sum);
		g->cylinders = c < 1 ? 1 : (uint32_t)llround(c);
		if (g->cylinders >= nz || nz == 1)
			break;
		nz = g->cylinders; /* a tiny disk: fewer zones than requested */
	}
	if (g->cylinders < nz)
		g->cylinders = nz;
	g->nzones = nz;
	g->zone = calloc(nz, sizeof(*g->zone));
	if (!g->zone)
		return -1;
	double total = 0;
	for (z = 0; z < nz; z++) {
		struct hd_zone *zn = &g->zone[z];
		double f = nz > 1 ? (double)z / (nz - 1) : 0;
		double mibs = p->rate_max_mibs - f * (p->rate_max_mibs - p->rate_min_mibs);
		zn->rate = mibs * MIB / 1e9;
		zn->track = zn->rate * g->rev_ns;
		zn->ncyl = g->cylinders / nz + (z < g->cylinders % nz);
		total += (double)zn->ncyl * g->heads * zn->track;
	}
	/* Rounding leaves the zones a little off the capacity: stretch them. */
	uint64_t start = 0;
	uint32_t cyl = 0;
	for (z = 0; z < nz; z++) {
		struct hd_zone *zn = &g->zone[z];
		uint64_t bytes = (uint64_t)((double)zn->ncyl * g->heads * zn->track
					    * (double)g->size / total);
		zn->start = start;
		zn->bytes = z + 1 == nz ? g->size - start : bytes;
		zn->cyl0 = cyl;
		start += zn->bytes;
		cyl += zn->ncyl;
	}
	return 0;
}

/* Sets sa, sc and se from sb; the curve is linear in sb. */
static void seek_shape(struct hd_geom *g, double min, double max, double b)
{
	double x1 = 1.0 / (g->cylinders - 1), k = g->knee;
	g->sb = b;
	g->sa = min - b * sqrt(x1);
	double v0 = g->sa + b * sqrt(k);
	g->se = (max - v0) / (1 - k);
	g->sc = max - g->se;
}

/* Mean seek over all ordered pairs of distinct cylinders. */
double hd_seek_avg_ns(const struct hd_geom *g)
{
	double n = g->cylinders, sum = 0;
	if (g->cylinders < 2)
		return 0;
	for (uint32_t d = 1; d < g->cylinders; d++)
		sum += (n - d) * hd_seek_ns(g, d);
	return sum * 2 / (n * (n - 1));
}

static int geom_seek(struct hd_geom *g, const struct hd_params *p, char *err, size_t errlen)
{
	double min = p->seek_min_ms * NS_PER_MS, max = p->seek_max_ms * NS_PER_MS;
	if (g->cylinders < 2)
		return 0; /* one cylinder: the arm never moves */
	seek_shape(g, min, max, 0);
	double avg0 = hd_seek_avg_ns(g);
	seek_shape(g, min, max, 1);
	double avg1 = hd_seek_avg_ns(g);
	double b = (p->seek_avg_ms * NS_PER_MS - avg0) / (avg1 - avg0);
	seek_shape(g, min, max, b);
	if (b < 0 || g->se < 0) {
		snprintf(err, errlen, "no seek curve through min %.2f, avg %.2f, max %.2f ms "
			 "with knee %.2f: move --knee or the figures",
			 p->seek_min_ms, p->seek_avg_ms, p->seek_max_ms, p->knee);
		return -1;
	}
	return 0;
}

/* Builds the layout for p; returns -1 with the reason in err. */
int hd_geom_init(struct hd_geom *g, const struct hd_params *p, char *err, size_t errlen)
{
	*g = (struct hd_geom){0};
	g->size = p->disk_size ? p->disk_size : p->size;
	g->rev_ns = 60e9 / p->rpm;
	g->heads = p->heads;
	g->knee = p->knee;
	if (g->size == 0) {
		snprintf(err, errlen, "the disk has size 0: give --size");
		return -1;
	}
	if (geom_zones(g, p) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (geom_seek(g, p, err, errlen) < 0) {
		hd_geom_free(g);
		return -1;
	}
	return 0;
}

void hd_geom_free(struct hd_geom *g)
{
	free(g->zone);
	g->zone = NULL;
}

/* The zone holding byte off (the last one for offsets past the end). */
const struct hd_zone *hd_zone_of(const struct hd_geom *g, uint64_t off)
{
	unsigned lo = 0, hi = g->nzones - 1;
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;
		if (g->zone[mid].start <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &g->zone[lo];
}

uint32_t hd_cyl_of(const struct hd_geom *g, uint64_t off)
{
	const struct hd_zone *z = hd_zone_of(g, off);
	uint64_t in = off - z->start;
	uint64_t c = z->bytes ? (uint64_t)((double)in * z->ncyl / (double)z->bytes) : 0;
	return z->cyl0 + (uint32_t)(c < z->ncyl ? c : z->ncyl - 1);
}

/* Angular position of byte off, in revolutions [0, 1). */
double hd_angle_of(const struct hd_geom *g, uint64_t off)
{
	const struct hd_zone *z = hd_zone_of(g, off);
	double r = (double)(off - z->start) / z->track;
	return r - floor(r);
}

double hd_seek_ns(const struct hd_geom *g, uint32_t dist)
{
	if (dist == 0 || g->cylinders < 2)
		return 0;
	double x = (double)dist / (g->cylinders - 1);
	return x < g->knee ? g->sa + g->sb * sqrt(x) : g->sc + g->se * x;
}
