/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memavail.c: how much memory the kernel can give the walk's caches.
 *
 * A flush relies on the kernel to keep what its metadata phase read (the
 * inodes and dentries of every queued file, the blocks they came from)
 * until its data phase opens the files again, and what it announced until
 * it is read. Where memory is short, the kernel takes both back first, and
 * each is read again out of the sweep's order: under a memory cgroup of
 * 64 MiB a sweep of the Linux tree in one flush took 170 s and 11,500
 * seeks on the emulated disk, against 22 s and 260 seeks unlimited; in
 * flushes of 5,000 files, 42 s. So the walk asks what is available: the
 * system's MemAvailable, and the room its memory cgroup leaves (v2
 * memory.max less memory.current, v1 memory.limit_in_bytes less
 * memory.usage_in_bytes), whichever is less.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The number in file, or UINT64_MAX ("max", or it cannot be read). */
static uint64_t read_number(const char *dir, const char *name)
{
	char path[512];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return UINT64_MAX;
	FILE *f = fopen(path, "re");
	unsigned long long v;
	bool ok = f && fscanf(f, "%llu", &v) == 1;
	if (f)
		fclose(f);
	return ok ? (uint64_t)v : UINT64_MAX;
}

static uint64_t room(uint64_t limit, uint64_t used)
{
	if (limit == UINT64_MAX || used == UINT64_MAX)
		return UINT64_MAX;
	return limit > used ? limit - used : 0;
}

/* What the process's memory cgroup leaves, UINT64_MAX for no limit. */
static uint64_t cgroup_room(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[512], dir[600];
	uint64_t best = UINT64_MAX;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		uint64_t r = UINT64_MAX;
		if (strcmp(ctl + 1, "") == 0) { /* v2 */
			snprintf(dir, sizeof(dir), "/sys/fs/cgroup%s", path);
			r = room(read_number(dir, "memory.max"), read_number(dir, "memory.current"));
		} else if (strstr(ctl + 1, "memory")) { /* v1 */
			snprintf(dir, sizeof(dir), "/sys/fs/cgroup/memory%s", path);
			r = room(read_number(dir, "memory.limit_in_bytes"),
			         read_number(dir, "memory.usage_in_bytes"));
		}
		best = r < best ? r : best;
	}
	if (f)
		fclose(f);
	return best;
}

/* /proc/meminfo's MemAvailable, UINT64_MAX when it does not say. */
static uint64_t system_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long kib;
	uint64_t v = UINT64_MAX;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
			v = (uint64_t)kib * 1024;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

uint64_t sw_mem_available(void)
{
	uint64_t sys = system_available(), cg = cgroup_room();
	return sys < cg ? sys : cg;
}
