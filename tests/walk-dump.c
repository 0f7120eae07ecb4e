/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk-dump.c: print what libsweep hands out, one NUL-terminated record per
 * entry, for the shell tests and the benchmark:
 *   KIND INODE PHYS FLUSH DEPTH ERRNO PATH\0
 * KIND is D (directory), P (post-order), F (no data), R (data), E (error),
 * L (a directory loop: SWEEP_OP_LOOP);
 * PHYS is -1 when unplaced, FLUSH the number of flushes begun so far.
 * With -r the data of every R entry is read to the end (as a tool would).
 * With -s the walk's counters go to stderr. -w on|off forces the helper
 * threads that warm the caches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sweep.h"

static const char kinds[] = { [SWEEP_DIR] = 'D', [SWEEP_DIR_POST] = 'P',
	[SWEEP_FILE] = 'F', [SWEEP_DATA] = 'R', [SWEEP_ERROR] = 'E' };

static int usage(void)
{
	fputs("usage: walk-dump [-HLNnprsTx] [-o ORDER] [-d block|inode] [-w on|off] [-D on|off] [-e ENTRIES] [-b BYTES] ROOT...\n", stderr);
	return 2;
}

static int drain(int fd)
{
	static char buf[1 << 16];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct sweep_options o = {0};
	int c, readdata = 0, stats = 0;
	while ((c = getopt(argc, argv, "HLNnprsTxo:d:w:D:e:b:")) != -1) {
		switch (c) {
		case 'H': o.follow = SWEEP_FOLLOW_ROOTS; break;
		case 'L': o.follow = SWEEP_FOLLOW_ALL; break;
		case 'n': o.flags |= SWEEP_NODATA; break;
		case 'N': o.flags |= SWEEP_NODATA | SWEEP_NOSTAT; break;
		case 'p': o.flags |= SWEEP_POSTORDER; break;
		case 'x': o.flags |= SWEEP_XDEV; break;
		case 'T': o.flags |= SWEEP_ROOTS_TOGETHER; break;
		case 'r': readdata = 1; break;
		case 's': stats = 1; break;
		case 'o':
			if ((c = sweep_order_parse(optarg)) < 0)
				return usage();
			o.order = (enum sweep_order)c;
			break;
		case 'd':
			if (strcmp(optarg, "block") && strcmp(optarg, "inode"))
				return usage();
			o.dir_order = optarg[0] == 'b' ? SWEEP_DIRS_BLOCK : SWEEP_DIRS_INODE;
			break;
		case 'w':
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return usage();
			o.warm = optarg[1] == 'n' ? SWEEP_WARM_ON : SWEEP_WARM_OFF;
			break;
		case 'D':
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return usage();
			o.flags |= optarg[1] == 'n' ? SWEEP_DEPTH_ON : 0;
			break;
		case 'e': o.max_entries = strtoull(optarg, NULL, 0); break;
		case 'b': o.max_bytes = strtoull(optarg, NULL, 0); break;
		default: return usage();
		}
	}
	if (optind == argc)
		return usage();
	struct sweep *sw = sweep_open((const char *const *)argv + optind, &o);
	if (!sw) {
		perror("walk-dump: sweep_open");
		return 2;
	}
	static const char *const strategies[] = { "probing", "cached", "depth", "sweep" };
	const struct sweep_entry *e;
	struct sweep_stats s;
	while ((e = sweep_next(sw))) {
		sweep_get_stats(sw, &s, sizeof(s));
		if (e->kind == SWEEP_DATA && readdata && drain(e->fd) < 0)
			fprintf(stderr, "walk-dump: %s: %s\n", e->path, strerror(errno));
		char kind = e->op == SWEEP_OP_LOOP ? 'L' : kinds[e->kind];
		printf("%c %ju %jd %" PRIu64 " %d %d %s%c", kind, (uintmax_t)e->st.st_ino,
		       e->phys == SWEEP_PHYS_NONE ? -1 : (intmax_t)e->phys, s.flushes, e->depth,
		       e->error, e->path, 0);
	}
	sweep_get_stats(sw, &s, sizeof(s));
	if (stats)
		fprintf(stderr, "entries %" PRIu64 " flushes %" PRIu64 " fiemap %" PRIu64
		        " sweeps %" PRIu64 " deferred %" PRIu64 " by_block %" PRIu64 " warm %u"
		        " peak_data %zu peak_bytes %zu stated_ahead %" PRIu64
		        " read_ahead %" PRIu64 " lookahead_cuts %" PRIu64 " split %" PRIu64
		        " strategy %s dirs_announced %" PRIu64 " dir_depth %u\n",
		        s.entries, s.flushes, s.fiemap_calls, s.sweeps, s.dirs_deferred,
		        s.dirs_by_block, s.warm_threads, s.peak_data_entries, s.peak_bytes,
		        s.names_stated_ahead, s.dirs_read_ahead, s.lookahead_cuts, s.files_split,
		        strategies[s.strategy < 4 ? s.strategy : 0], s.dirs_announced, s.dir_depth);
	sweep_close(sw);
	return 0;
}
