/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * device.c: the block device under a file system, as sysfs tells of it
 * (the way lsblk reads it): whether it seeks, and the whole disk a
 * partition lies on. A virtual disk may say it seeks whatever is behind
 * it: latency.c judges by the times of reads instead, and this is only
 * where the walk starts. The copy engine asks whether a copy reads and
 * writes one disk arm.
 */
#include <stdio.h>
#include <sys/sysmacros.h>
#include "internal.h"

/* The number in the file at path, or -1. */
static int read_flag(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int v = -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int sweep_device_rotational(dev_t dev)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/rotational",
	         major(dev), minor(dev));
	int v = read_flag(path);
	if (v >= 0)
		return v;
	/* a partition: the queue belongs to the whole disk */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/rotational",
	         major(dev), minor(dev));
	return read_flag(path);
}

dev_t sweep_device_disk(dev_t dev)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (read_flag(path) < 0) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/dev", major(dev), minor(dev));
		FILE *f = fopen(path, "re");
		if (!f)
			return 0;
		fclose(f);
		return dev;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev), minor(dev));
	FILE *f = fopen(path, "re");
	unsigned ma, mi;
	int n = f ? fscanf(f, "%u:%u", &ma, &mi) : 0;
	if (f)
		fclose(f);
	return n == 2 ? makedev(ma, mi) : 0;
}
