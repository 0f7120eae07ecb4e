/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * params.c: the figures of the emulated drive, their defaults, the command
 * line that sets them, and the checks that keep the model meaningful.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hddsim.h"

/* A 7200 RPM desktop drive of the SATA era. */
void hd_params_default(struct hd_params *p)
{
	memset(p, 0, sizeof(*p));
	p->scale = 1.0;
	p->rpm = 7200;
	p->seek_min_ms = 1.0;
	p->seek_avg_ms = 9.0;
	p->seek_max_ms = 18.0;
	p->knee = 0.2;
	p->rate_max_mibs = 120;
	p->rate_min_mibs = 60;
	p->zones = 16;
	p->heads = 4;
	p->buffer = 2u << 20;
	p->threads = 32;
	p->class_name = "hdd";
	p->predict_bs = 4096;
	p->predict_seq = 1u << 20;
}

/* The figures a device class sets, where the command line left them
 * unset (0): hdd, the one-request-at-a-time desktop drive; hdd-ncq, the same
 * drive choosing among 32 queued requests by shortest access time (NCQ);
 * flat, network block storage (a cloud volume: 0.8 ms wherever a request
 * lands, 16 served at once, 250 MiB/s); ssd, a SATA SSD (80 us, 32 at once,
 * 500 MiB/s). Returns -1 for a name not among them. */
int hd_params_class(struct hd_params *p, const char *name, int policy_given)
{
	double latency = 0, rate = 0;
	unsigned channels = 0, depth = 1;
	if (strcmp(name, "hdd-ncq") == 0) {
		depth = 32;
		if (!policy_given)
			p->satf = 1;
	} else if (strcmp(name, "flat") == 0) {
		latency = 800, channels = 16, rate = 250;
	} else if (strcmp(name, "ssd") == 0) {
		latency = 80, channels = 32, rate = 500;
	} else if (strcmp(name, "hdd") != 0) {
		return -1;
	}
	p->class_name = name;
	p->flat = channels > 0;
	if (!p->depth)
		p->depth = depth;
	if (!p->latency_us)
		p->latency_us = latency;
	if (!p->channels)
		p->channels = channels;
	if (!p->link_mibs)
		p->link_mibs = rate;
	return 0;
}

/* Parses a byte count with an optional K, M, G or T suffix (powers of 1024). */
int hd_parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end != '\0' || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* Returns 0 if the figures describe a drive, else -1 with the reason in err. */
int hd_params_check(const struct hd_params *p, char *err, size_t errlen)
{
	const char *why = NULL;
	if (p->scale < 0)
		why = "--scale must be >= 0";
	else if (p->rpm <= 0)
		why = "--rpm must be > 0";
	else if (!(p->seek_min_ms > 0 && p->seek_min_ms < p->seek_avg_ms &&
		   p->seek_avg_ms < p->seek_max_ms))
		why = "seek times must satisfy 0 < --seek-min < --seek-avg < --seek-max";
	else if (!(p->knee > 0 && p->knee < 1))
		why = "--knee must lie strictly between 0 and 1";
	else if (!(p->rate_min_mibs > 0 && p->rate_min_mibs <= p->rate_max_mibs))
		why = "rates must satisfy 0 < --rate-min <= --rate-max";
	else if (p->zones < 1 || p->heads < 1)
		why = "--zones and --heads must be >= 1";
	else if (p->depth < 1)
		why = "--depth must be >= 1";
	else if (p->host_us < 0)
		why = "--host-us must be >= 0";
	else if (p->threads < 1)
		why = "--threads must be >= 1";
	else if (p->flat && !(p->latency_us >= 0 && p->channels >= 1 && p->link_mibs > 0))
		why = "a flat device needs --latency-us >= 0, --channels >= 1, --link-rate > 0";
	else if (p->flat && p->channels > p->threads)
		why = "--channels must not exceed --threads (each request holds a FUSE thread)";
	else if (p->prefetch > p->buffer)
		why = "--prefetch must not exceed --buffer";
	else if (p->disk_size && p->disk_size < p->size)
		why = "--disk-size must be at least --size";
	else if (p->predict_bs < 512 || p->predict_seq < 512)
		why = "prediction block sizes must be >= 512";
	if (!why)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

void hd_usage(const char *prog)
{
	printf("usage: %s --image=FILE [options] MOUNTPOINT [FUSE options]\n"
	       "       %s --image=FILE --predict [options]\n"
	       "Serves MOUNTPOINT/disk (the image, direct_io, timed as a rotating disk)\n"
	       "and MOUNTPOINT/stats (counters as 'name value' lines).\n"
	       "  --image=FILE        backing file, created sparse if missing\n"
	       "  --size=BYTES        size of the disk file (K/M/G/T); default: image size\n"
	       "  --disk-size=BYTES   capacity the full stroke spans (default: --size)\n"
	       "  --scale=F           real seconds per modelled second (0: never sleep) [1]\n"
	       "  --rpm=N             spindle speed [7200]\n"
	       "  --seek-min=MS       track-to-track seek [1.0]\n"
	       "  --seek-avg=MS       average seek [9.0]\n"
	       "  --seek-max=MS       full-stroke seek [18.0]\n"
	       "  --knee=F            stroke fraction where the seek curve turns linear [0.2]\n"
	       "  --rate-max=MIBS     outer zone media rate [120]\n"
	       "  --rate-min=MIBS     inner zone media rate [60]\n"
	       "  --zones=N --heads=N recording zones [16], surfaces [4]\n"
	       "  --buffer=BYTES      track buffer filled by read-ahead [2M]\n"
	       "  --prefetch=BYTES    read-ahead past a read's end (0: the buffer) [0]\n"
	       "  --hit=stream|filled a read hits anywhere in the read-ahead stream,\n"
	       "                      or only in what it has read by then [stream]\n"
	       "  --class=CLASS       hdd, hdd-ncq (--depth=32 --policy=satf), flat\n"
	       "                      (network block storage: --latency-us=800\n"
	       "                      --channels=16 --link-rate=250, no arm) or ssd\n"
	       "                      (--latency-us=80 --channels=32 --link-rate=500) [hdd]\n"
	       "  --depth=N           requests the drive may choose among [1; hdd-ncq 32]\n"
	       "  --policy=fifo|satf  how it chooses among them [fifo; hdd-ncq satf]\n"
	       "  --latency-us=US     flat: what each request waits, wherever it lands\n"
	       "  --channels=N        flat: requests served at once\n"
	       "  --link-rate=MIBS    flat: the rate of the link they share\n"
	       "  --threads=N         FUSE worker threads [32]\n"
	       "  --host-us=US        host round trip charged to each request, answered\n"
	       "                      that much early [0]\n"
	       "  --predict           print what the model expects of fio and exit\n"
	       "  --predict-bs=BYTES  random read size for --predict [4K]\n"
	       "  --predict-seq=BYTES sequential read size for --predict [1M]\n",
	       prog, prog);
}
