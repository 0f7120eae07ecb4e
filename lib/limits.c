/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limits.c: what the process's resource limits leave to the walk.
 *
 * Descriptors: the walk keeps directories open (dirs.c), opens files ahead
 * of the reader (data.c) and gives the helper threads duplicates (warm.c).
 * All of that must fit in RLIMIT_NOFILE beside what the process holds
 * already and what the caller opens during the walk (an archive, a file to
 * write, a pipe, a second walk), or an open fails with EMFILE and a file is
 * lost for no reason but our own appetite. So the budget is half of what the
 * soft limit leaves free when the walk begins (libsweep(3) promises the
 * other half to the caller: a copy's destination directories, another
 * walk, which then takes half of the rest), and it is split among the
 * three; should an open fail all the same (the caller opened more, or the
 * system's table is full), sw_fds_shed() (dirs.c) gives back what the walk
 * can do without, and the open is tried again.
 *
 * Address space: under RLIMIT_AS every thread's stack and every queued task
 * counts, so the helpers take a share of what is left, never the default.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "internal.h"

#define FD_TRANSIENT  3    /* a file handed out or placed, and a directory
                              reopened or pinned beyond the cache */
#define FD_PROBE_MAX  4096 /* descriptors probed one by one, at most */
#define WARM_FDS_MIN  32   /* below this, no helpers: the walk needs them */

/* How many descriptors are open now: as /proc lists them, else one probe
 * each up to the limit (a process near a small limit is what this is for;
 * past FD_PROBE_MAX the rest is taken to be free). */
static size_t fds_open(rlim_t limit)
{
	size_t n = 0;
	DIR *dir = opendir("/proc/self/fd");
	if (dir) {
		for (struct dirent *de; (de = readdir(dir));)
			n += !is_dot(de->d_name);
		closedir(dir);
		return n ? n - 1 : 0; /* dir's own */
	}
	size_t max = limit < FD_PROBE_MAX ? (size_t)limit : FD_PROBE_MAX;
	for (size_t fd = 0; fd < max; fd++)
		n += fcntl((int)fd, F_GETFD) >= 0;
	return n;
}

/* Split the descriptors the limit leaves among the directory cache, the
 * files opened ahead and the helpers. */
void sw_limits_fds(struct sweep *sw)
{
	struct rlimit rl;
	size_t avail = DIR_FDS_MAX + RA_FILES_DEEP + 2 * WARM_FDS_MAX + ANNOUNCE_SLOTS;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		size_t used = fds_open(rl.rlim_cur);
		avail = rl.rlim_cur > used ? (size_t)(rl.rlim_cur - used) / 2 : 0;
		avail = avail > FD_TRANSIENT ? avail - FD_TRANSIENT : 0;
	}
	size_t warm = avail >= WARM_FDS_MIN ? avail / 8 : 0;
	sw->warm_fds = warm < WARM_FDS_MAX ? warm : WARM_FDS_MAX;
	avail -= sw->warm_fds;
	sw->announce_fds = sw->warm_fds ? ANNOUNCE_SLOTS : 0; /* only beside the helpers */
	avail -= sw->announce_fds;
	size_t ra = avail / 3;
	sw->dq.ra_max = ra < RA_FILES_DEEP ? ra : RA_FILES_DEEP;
	avail -= sw->dq.ra_max;
	/* one at least: the walk cannot read a directory without it, and an
	 * open that then fails says why */
	sw->fds.max_fds = avail < 1 ? 1 : avail > DIR_FDS_MAX ? DIR_FDS_MAX : avail;
}

/* Out of memory: the helpers give back what they keep for the walk and
 * take no more work (sw_limits_space: under a limit on the address space,
 * what they hold costs more than it counts). Whether that freed any. */
bool sw_mem_shed(struct sweep *sw)
{
	if (!sw->warm || !sw_pool_ours(sw->warm))
		return false;
	bool first = !sw->warm_failed;
	sw->warm_failed = true;
	bool freed = sw_pool_shed(sw->warm);
	return first || freed;
}

/* Memory held by the walk's queued objects, counted against the bound:
 * every object is charged its size when made and uncharged the same size,
 * computed by its own module, when freed (data: held by the data queue). */
void sw_mem_charge(struct sw_mem *m, size_t bytes, bool data)
{
	m->held += bytes;
	if (data)
		m->data += bytes;
}

void sw_mem_uncharge(struct sw_mem *m, size_t bytes, bool data)
{
	m->held -= bytes;
	if (data)
		m->data -= bytes;
}

/* malloc(), tried again once memory was shed: an entry of the walk is not
 * lost for what the helpers hold. */
void *sw_alloc(struct sweep *sw, size_t size)
{
	void *p = malloc(size);
	if (!p && sw_mem_shed(sw))
		p = malloc(size);
	return p;
}

/* Whether errno says the process (or the system) is out of descriptors. */
bool sw_fds_out(int err)
{
	return err == EMFILE || err == ENFILE;
}

/* How many bytes of address space the limit leaves, or SIZE_MAX without
 * one (or where /proc cannot tell what is in use). */
size_t sw_limits_space(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return SIZE_MAX;
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long pages = 0;
	bool ok = f && fscanf(f, "%lu", &pages) == 1;
	if (f)
		fclose(f);
	if (!ok)
		return SIZE_MAX;
	size_t used = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
	return rl.rlim_cur > used ? (size_t)(rl.rlim_cur - used) : 0;
}
