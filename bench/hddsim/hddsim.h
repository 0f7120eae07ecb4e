/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hddsim.h: an emulated 7200 RPM disk served over FUSE, or (--class flat,
 * ssd) a device whose requests cost the same wherever they land.
 *
 * The parts: params.c (the figures and the command line), geom.c (zones,
 * cylinders, the seek curve), model.c (what one request costs and what it
 * leaves behind in the head and the track buffer), flat.c (the same for a
 * device without an arm), arm.c (the one arm that serves requests one at a
 * time, sleeping the modelled time; or the flat device's), stats.c (the
 * counters as text), predict.c (what the model expects of fio), fs.c (the
 * FUSE file system: the files "disk" and "stats"), main.c (wiring).
 *
 * Model time is in nanoseconds, as doubles: exact enough for months, and the
 * arithmetic of angles and rates needs fractions anyway.
 */
#ifndef HDDSIM_H
#define HDDSIM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Every figure of the model; all of them are command-line options. */
struct hd_params {
	const char *image;     /* backing file, sparse, on a real file system */
	uint64_t size;         /* bytes served; 0: the image's current size */
	uint64_t disk_size;    /* capacity the full stroke spans; 0: size */
	double scale;          /* real time per modelled time; 0: never sleep */
	double rpm;
	double seek_min_ms;    /* track to track */
	double seek_avg_ms;    /* mean over uniformly random cylinder pairs */
	double seek_max_ms;    /* full stroke */
	double knee;           /* fraction of the stroke where sqrt turns linear */
	double rate_max_mibs;  /* media rate of the outermost zone */
	double rate_min_mibs;  /* media rate of the innermost zone */
	unsigned zones;
	unsigned heads;
	uint64_t buffer;       /* track buffer; read-ahead fills it */
	uint64_t prefetch;     /* read-ahead past a read's end; 0: buffer */
	int hit_filled;        /* 0: a read starting anywhere in the stream hits, even
	                          ahead of it; 1: only in what it has read already */
	unsigned depth;        /* requests the drive sees at once */
	int satf;              /* 0: serve them FIFO; 1: shortest access first */
	unsigned threads;      /* FUSE worker threads (concurrency offered) */
	int flat;              /* no arm: flat.c's model instead of the disk's */
	const char *class_name; /* hdd, hdd-ncq, flat or ssd: what set the defaults */
	double latency_us;     /* flat: what a request waits, wherever it lands */
	unsigned channels;     /* flat: requests served at once */
	double link_mibs;      /* flat: the rate of the link all of them share */
	double host_us;        /* host round trip charged to each request and paid
	                          back by answering that much before its end */
	int predict;           /* print the model's expectations and exit */
	uint64_t predict_bs;   /* random read size for the prediction */
	uint64_t predict_seq;  /* sequential read size for the prediction */
};

/* One recording zone: constant bytes per track. */
struct hd_zone {
	uint64_t start, bytes; /* byte range on the disk */
	double track;          /* bytes per revolution (one head) */
	double rate;           /* media rate, bytes per ns */
	uint32_t cyl0, ncyl;
};

struct hd_geom {
	uint64_t size;         /* disk capacity modelled */
	double rev_ns;         /* one revolution */
	unsigned heads, nzones;
	struct hd_zone *zone;
	uint32_t cylinders;
	double sa, sb, sc, se; /* seek ns: sa + sb*sqrt(x) below knee, sc + se*x above */
	double knee;           /* x = distance / (cylinders - 1) */
};

/* Where the arm and the track buffer are, between requests. */
struct hd_head {
	double now;            /* model time the arm became free */
	uint32_t cyl;
	int last_write;        /* last request was a write ending at last_end */
	uint64_t last_end;
	int ra_on;             /* a read-ahead stream exists */
	uint64_t ra_start;     /* where the stream began (buffer low bound) */
	uint64_t ra_pos0;      /* stream position at ra_t0 */
	double ra_t0;
	uint64_t ra_limit;     /* the stream stops here (buffer full) */
	double ra_rate;        /* bytes per ns */
};

/* The track buffer as the model uses it (from hd_params). */
struct hd_buffer {
	uint64_t size, prefetch;
	int hit_filled;
};

/* What serving one request costs, computed before it is served. */
struct hd_cost {
	uint32_t dist;         /* cylinders travelled */
	double seek, rot, xfer; /* ns */
	int hit;               /* started inside the track buffer */
};

/* Counters; everything since the server started. */
struct hd_stats {
	uint64_t requests, reads, writes, bytes_read, bytes_written;
	uint64_t seeks, seek_cylinders, buffer_hits, queue_max;
	double busy_ns, seek_ns, rot_ns, xfer_ns;
	double idle_ns;        /* arm idle, waiting for the host */
};

/* The flat device's state between requests (flat.c). */
struct hd_flat {
	double *chan_free;     /* model time each channel becomes free */
	unsigned n;
	double link_free;      /* ... and the link */
	double busy_until;     /* the end of the last request */
};

struct hd_req;

/* The arm: a queue of waiting requests and the thread that serves them. */
struct hd_arm {
	pthread_mutex_t mu;
	pthread_cond_t work;
	struct hd_req *first, *last;
	unsigned pending;
	int stop, started;
	pthread_t thread;
	const struct hd_params *p;
	const struct hd_geom *g;
	struct hd_buffer buf;
	struct hd_head head;
	struct hd_flat flat;   /* with p->flat, instead of head and thread */
	unsigned in_flight;    /* flat: requests being served */
	struct hd_stats stats;
	struct timespec t0;    /* real time of model time 0 */
};

/* params.c */
void hd_params_default(struct hd_params *p);
int hd_params_class(struct hd_params *p, const char *name, int policy_given);
int hd_params_check(const struct hd_params *p, char *err, size_t errlen);
int hd_parse_size(const char *s, uint64_t *out);
void hd_usage(const char *prog);

/* geom.c */
int hd_geom_init(struct hd_geom *g, const struct hd_params *p, char *err, size_t errlen);
void hd_geom_free(struct hd_geom *g);
const struct hd_zone *hd_zone_of(const struct hd_geom *g, uint64_t off);
uint32_t hd_cyl_of(const struct hd_geom *g, uint64_t off);
double hd_angle_of(const struct hd_geom *g, uint64_t off);
double hd_seek_ns(const struct hd_geom *g, uint32_t dist);
double hd_seek_avg_ns(const struct hd_geom *g);

/* model.c */
void hd_head_init(struct hd_head *h);
struct hd_buffer hd_buffer_of(const struct hd_params *p);
void hd_cost(const struct hd_geom *g, const struct hd_head *h, const struct hd_buffer *b,
	     uint64_t off, uint64_t len, int write, double t, struct hd_cost *c);
double hd_commit(const struct hd_geom *g, struct hd_head *h, const struct hd_buffer *b,
		 uint64_t off, uint64_t len, int write, double t,
		 const struct hd_cost *c, struct hd_stats *st);

/* flat.c */
int hd_flat_init(struct hd_flat *f, const struct hd_params *p);
void hd_flat_free(struct hd_flat *f);
double hd_flat_serve(struct hd_flat *f, const struct hd_params *p, uint64_t len, int write,
		     double t, struct hd_stats *st);

/* arm.c */
int hd_arm_start(struct hd_arm *a, const struct hd_params *p, const struct hd_geom *g);
void hd_arm_stop(struct hd_arm *a);
int hd_arm_submit(struct hd_arm *a, uint64_t off, uint64_t len, int write);
void hd_arm_stats(struct hd_arm *a, struct hd_stats *out);

/* stats.c */
void hd_stats_count(struct hd_stats *st, uint64_t len, int write);
int hd_stats_format(const struct hd_stats *s, const struct hd_params *p,
		    const struct hd_geom *g, char *buf, size_t len);

/* predict.c */
int hd_predict(const struct hd_params *p, const struct hd_geom *g);

/* fs.c */
int hd_fs_main(int argc, char **argv, struct hd_params *p, struct hd_geom *g, int fd);

#endif
