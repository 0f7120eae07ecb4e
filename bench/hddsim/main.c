/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: hddsim, a FUSE server that serves a disk image as slowly as a
 * rotating disk would, or another class of device (see hddsim.h for the map
 * of the parts). Reads the options, opens or creates the sparse image, lays
 * out the drive, then
 * either prints the model's predictions (--predict) or mounts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fuse.h>
#include "hddsim.h"

/* Options as fuse_opt hands them over: numbers directly, sizes as text. */
struct raw_opts {
	struct hd_params p;
	char *size, *disk_size, *buffer, *prefetch, *hit, *policy, *pbs, *pseq, *klass;
	int help;
};

#define OPT(t, f) { t, offsetof(struct raw_opts, f), 0 }
static const struct fuse_opt opt_spec[] = {
	OPT("--image=%s", p.image), OPT("--size=%s", size), OPT("--disk-size=%s", disk_size),
	OPT("--scale=%lf", p.scale), OPT("--rpm=%lf", p.rpm),
	OPT("--seek-min=%lf", p.seek_min_ms), OPT("--seek-avg=%lf", p.seek_avg_ms),
	OPT("--seek-max=%lf", p.seek_max_ms), OPT("--knee=%lf", p.knee),
	OPT("--rate-max=%lf", p.rate_max_mibs), OPT("--rate-min=%lf", p.rate_min_mibs),
	OPT("--zones=%u", p.zones), OPT("--heads=%u", p.heads), OPT("--buffer=%s", buffer),
	OPT("--prefetch=%s", prefetch), OPT("--hit=%s", hit),
	OPT("--depth=%u", p.depth), OPT("--policy=%s", policy), OPT("--threads=%u", p.threads),
	OPT("--host-us=%lf", p.host_us), OPT("--class=%s", klass),
	OPT("--latency-us=%lf", p.latency_us), OPT("--channels=%u", p.channels),
	OPT("--link-rate=%lf", p.link_mibs),
	OPT("--predict-bs=%s", pbs), OPT("--predict-seq=%s", pseq),
	{ "--predict", offsetof(struct raw_opts, p.predict), 1 },
	{ "--help", offsetof(struct raw_opts, help), 1 },
	{ "-h", offsetof(struct raw_opts, help), 1 },
	FUSE_OPT_END
};

static int size_opt(const char *name, const char *text, uint64_t *out)
{
	if (!text)
		return 0;
	if (hd_parse_size(text, out) == 0)
		return 0;
	fprintf(stderr, "hddsim: %s: not a size: %s\n", name, text);
	return -1;
}

/* Turns the text options into p; returns -1 after reporting a bad one. */
static int raw_finish(struct raw_opts *r)
{
	if (size_opt("--size", r->size, &r->p.size) < 0 ||
	    size_opt("--disk-size", r->disk_size, &r->p.disk_size) < 0 ||
	    size_opt("--buffer", r->buffer, &r->p.buffer) < 0 ||
	    size_opt("--prefetch", r->prefetch, &r->p.prefetch) < 0 ||
	    size_opt("--predict-bs", r->pbs, &r->p.predict_bs) < 0 ||
	    size_opt("--predict-seq", r->pseq, &r->p.predict_seq) < 0)
		return -1;
	if (r->policy && strcmp(r->policy, "satf") == 0) {
		r->p.satf = 1;
	} else if (r->policy && strcmp(r->policy, "fifo") != 0) {
		fprintf(stderr, "hddsim: --policy: fifo or satf, not %s\n", r->policy);
		return -1;
	}
	if (r->hit && strcmp(r->hit, "filled") == 0) {
		r->p.hit_filled = 1;
	} else if (r->hit && strcmp(r->hit, "stream") != 0) {
		fprintf(stderr, "hddsim: --hit: stream or filled, not %s\n", r->hit);
		return -1;
	}
	if (hd_params_class(&r->p, r->klass ? r->klass : "hdd", r->policy != NULL) < 0) {
		fprintf(stderr, "hddsim: --class: hdd, hdd-ncq, flat or ssd, not %s\n", r->klass);
		return -1;
	}
	if (!r->p.image) {
		fprintf(stderr, "hddsim: --image=FILE is required (try --help)\n");
		return -1;
	}
	return 0;
}

/* Opens the image, creating or growing it sparse to p->size; returns the fd. */
static int image_open(struct hd_params *p)
{
	int fd = open(p->image, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		goto fail;
	if (p->size == 0)
		p->size = (uint64_t)st.st_size;
	else if ((uint64_t)st.st_size < p->size && ftruncate(fd, (off_t)p->size) < 0)
		goto fail;
	if (p->size == 0) {
		fprintf(stderr, "hddsim: %s: empty image: give --size\n", p->image);
		close(fd);
		return -1;
	}
	return fd;
fail:
	fprintf(stderr, "hddsim: %s: %s\n", p->image, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

static void raw_free(struct raw_opts *r)
{
	free((char *)r->p.image);
	free(r->size), free(r->disk_size), free(r->buffer), free(r->prefetch), free(r->hit);
	free(r->policy), free(r->pbs), free(r->pseq), free(r->klass);
}

static int serve(struct fuse_args *args, struct hd_params *p, struct hd_geom *g, int fd)
{
	char opt[64];
	snprintf(opt, sizeof(opt), "-omax_threads=%u,max_idle_threads=%u,fsname=hddsim,subtype=hddsim",
		 p->threads, p->threads);
	if (fuse_opt_add_arg(args, opt) < 0)
		return 1;
	return hd_fs_main(args->argc, args->argv, p, g, fd);
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct raw_opts r = {0};
	struct hd_geom g = {0};
	char err[256];
	int fd = -1, status = 1;

	hd_params_default(&r.p);
	if (fuse_opt_parse(&args, &r, opt_spec, NULL) < 0)
		goto out;
	if (r.help) {
		hd_usage(argv[0]);
		status = 0;
		goto out;
	}
	if (raw_finish(&r) < 0 || (fd = image_open(&r.p)) < 0)
		goto out;
	if (hd_params_check(&r.p, err, sizeof(err)) < 0 ||
	    hd_geom_init(&g, &r.p, err, sizeof(err)) < 0) {
		fprintf(stderr, "hddsim: %s\n", err);
		goto out;
	}
	status = r.p.predict ? (hd_predict(&r.p, &g) < 0) : serve(&args, &r.p, &g, fd);
out:
	hd_geom_free(&g);
	if (fd >= 0)
		close(fd);
	raw_free(&r);
	fuse_opt_free_args(&args);
	return status;
}
