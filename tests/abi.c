/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * abi.c: a program built against libsweep's header alone, as installed,
 * that calls every public function (tests/abi.sh checks that the library
 * exports no other) and checks what the interface promises callers built
 * against another version: unknown flags refused, sweep_get_stats()
 * writing no more than the size it is given, and zeroing what it does not
 * know of a longer struct. Exits 0, or 1 with what failed on stderr.
 */
#define _POSIX_C_SOURCE 200809L /* AT_FDCWD, under -std=c99 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sweep.h>

static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "abi: %s\n", what);
		failed = 1;
	}
}

/* A newer program's struct: ours and a counter this library lacks. */
struct longer {
	struct sweep_stats s;
	uint64_t newer;
};

static void check_stats(const struct sweep *sw, uint64_t entries)
{
	struct sweep_stats full;
	sweep_get_stats(sw, &full, sizeof(full));
	check(full.entries == entries, "sweep_get_stats: entries");
	/* an older program's struct: its first field only */
	unsigned char buf[sizeof(struct sweep_stats) + 16];
	memset(buf, 0xa5, sizeof(buf));
	sweep_get_stats(sw, (struct sweep_stats *)(void *)buf, sizeof(uint64_t));
	uint64_t first;
	memcpy(&first, buf, sizeof(first));
	check(first == entries, "sweep_get_stats: a short struct's field");
	for (size_t i = sizeof(uint64_t); i < sizeof(buf); i++)
		if (buf[i] != 0xa5) {
			check(0, "sweep_get_stats wrote past the size it was given");
			break;
		}
	struct longer l;
	memset(&l, 0xa5, sizeof(l));
	sweep_get_stats(sw, &l.s, sizeof(l));
	check(l.s.entries == entries, "sweep_get_stats: a long struct's field");
	check(l.newer == 0, "sweep_get_stats left a newer counter unset");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: abi DIR\n");
		return 2;
	}
	check(strcmp(sweep_order_name(SWEEP_ORDER_DISK), "disk") == 0, "sweep_order_name");
	check(sweep_order_parse("name") == SWEEP_ORDER_NAME, "sweep_order_parse");
	check(sweep_order_parse("nonsense") == -1, "sweep_order_parse: unknown");

	/* all known flags together make a valid walk; any other is refused */
	struct sweep_options all = { .flags = SWEEP_FLAGS_ALL };
	struct sweep *sw = sweep_open(NULL, &all);
	check(sw != NULL, "sweep_open refuses SWEEP_FLAGS_ALL");
	sweep_close(sw);
	for (unsigned bit = 1; bit; bit <<= 1) {
		if (bit & SWEEP_FLAGS_ALL)
			continue;
		struct sweep_options bad = { .flags = SWEEP_FLAGS_ALL | bit };
		errno = 0;
		sw = sweep_open(NULL, &bad);
		check(!sw && errno == EINVAL, "sweep_open takes a flag outside SWEEP_FLAGS_ALL");
		sweep_close(sw);
	}

	struct sweep_options opt = { .order = SWEEP_ORDER_NAME, .flags = SWEEP_NODATA };
	sw = sweep_open(NULL, &opt);
	check(sw != NULL, "sweep_open");
	if (!sw)
		return 1;
	check(sweep_add_root(sw, AT_FDCWD, argv[1]) == 0, "sweep_add_root");
	uint64_t n = 0;
	int pruned = 0;
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		n++;
		if (e->kind == SWEEP_DIR && e->depth == 1 && !pruned)
			pruned = sweep_prune(sw) == 0;
		else if (e->kind != SWEEP_DIR)
			check(sweep_prune(sw) == -1 && errno == EINVAL, "sweep_prune: not a dir");
	}
	check(pruned, "sweep_prune");
	check(sweep_current_order(sw) == SWEEP_ORDER_NAME, "sweep_current_order");
	check_stats(sw, n);
	sweep_close(sw);

	/* tests/device.sh checks the answers against lsblk's */
	struct stat st;
	check(stat(argv[1], &st) == 0, "stat");
	int rota = sweep_device_rotational(st.st_dev);
	check(rota >= -1 && rota <= 1, "sweep_device_rotational: not 1, 0 or -1");
	dev_t disk = sweep_device_disk(st.st_dev);
	check(disk == 0 || sweep_device_rotational(disk) == rota,
	      "sweep_device_disk: a disk that seeks otherwise than its partition");
	return failed;
}
