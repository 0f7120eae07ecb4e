/*
 * readdir.c: reading a directory into the metadata queue.
 *
 * getdents64 with a large buffer gives names, inode numbers and types in one
 * call per buffer; nothing is stat-ed here. In inode order each name goes
 * straight into the elevator; in depth-first orders one directory's names are
 * gathered, sorted if asked, and stacked so that they pop in order.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

/*
 * Whether directories come from memory lately. A directory read from the
 * cache takes a few microseconds (for /usr here, 3 us median, 6 us at the
 * 90th percentile), one from a device 60 us (this VM's SSD-like disk) to
 * milliseconds. A large directory takes longer from the cache too: ext4
 * sorts all its hashes on the first call (0.4 ms for /usr/share/doc's 860
 * names), so a read counts as slow past DIR_READ_CACHED_NS plus
 * DIR_READ_CACHED_NS_PER_NAME for each name it returned (about 32 bytes).
 * The level is a moving average over about 16 reads of the share of slow
 * ones. Sorting directory reads
 * by block only pays while they go to the device: from the cache it saves
 * nothing, and costs reopening each directory (2.4 times the openat calls
 * for /usr).
 *
 * A walk starts undecided: its first few directories are read at once, as
 * probes, for as long as each is fast; four fast ones in a row make the level
 * "cached", and one slow one ends the probing (a cold walk on a disk pays at
 * most the root and a directory out of block order for it).
 */
#define DIR_READ_CACHED_NS          20000
#define DIR_READ_CACHED_NS_PER_NAME 1000
#define DIRENT_SIZE_GUESS           32
#define LEVEL_ONE          65536u
#define LEVEL_CACHED       (LEVEL_ONE / 4)
#define LEVEL_START        (LEVEL_ONE * 5 / 16) /* four fast reads below cached */
#define PROBES             4

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void note_dir_read(struct sweep *sw, uint64_t ns, ssize_t len)
{
	uint64_t names = len > 0 ? (uint64_t)len / DIRENT_SIZE_GUESS : 0;
	unsigned level = sw->dir_miss_level;
	level -= level / 16;
	if (ns > DIR_READ_CACHED_NS + names * DIR_READ_CACHED_NS_PER_NAME)
		level += LEVEL_ONE / 16;
	sw->dir_miss_level = level;
	sw->dir_reads_timed++;
}

void dirs_assume_nothing(struct sweep *sw)
{
	sw->dir_miss_level = LEVEL_START;
	sw->dir_reads_timed = 0;
}

bool dirs_cached(const struct sweep *sw)
{
	bool probing = sw->dir_reads_timed < PROBES && sw->dir_miss_level <= LEVEL_START;
	return probing || sw->dir_miss_level < LEVEL_CACHED;
}

struct sw_node *node_new(struct sweep *sw, struct sw_dir *parent, ino_t ino,
                         unsigned char type, const char *name, size_t namelen)
{
	size_t size = sizeof(struct sw_node) + namelen + 1;
	struct sw_node *n = malloc(size);
	if (!n)
		return NULL;
	n->ino = ino;
	n->parent = parent;
	n->basefd = -1;
	n->type = type;
	n->root = false;
	n->namelen = namelen;
	memcpy(n->name, name, namelen + 1);
	if (parent)
		parent->refs++;
	sw->mem += size;
	return n;
}

void node_free(struct sweep *sw, struct sw_node *n)
{
	sw->mem -= sizeof(*n) + n->namelen + 1;
	free(n);
}

/* Free a node and drop its reference on its parent. */
void node_release(struct sweep *sw, struct sw_node *n)
{
	struct sw_dir *parent = n->parent;
	node_free(sw, n);
	dir_unref(sw, parent);
}

static int by_name(const void *a, const void *b)
{
	const struct sw_node *x = *(struct sw_node *const *)a;
	const struct sw_node *y = *(struct sw_node *const *)b;
	return strcmp(x->name, y->name);
}

/* Queue one name, or keep it aside for a depth-first order. */
static int take_name(struct sweep *sw, struct sw_dir *d, const struct dirent64 *de)
{
	struct sw_node *n = node_new(sw, d, de->d_ino, de->d_type, de->d_name,
	                             strlen(de->d_name));
	if (!n)
		return ENOMEM;
	if (sw->q.cscan) {
		if (swq_push(&sw->q, n) == 0)
			return 0;
	} else {
		struct sw_node **v = sw_grow(sw->tmp, &sw->captmp, sw->ntmp + 1, sizeof(*v));
		if (v) {
			sw->tmp = v;
			sw->tmp[sw->ntmp++] = n;
			return 0;
		}
	}
	d->refs--;
	node_free(sw, n);
	return ENOMEM;
}

/* Stack what take_name() kept aside, last first, so that it pops in order. */
static int stack_names(struct sweep *sw, struct sw_dir *d)
{
	int err = 0;
	if (sw->order == SWEEP_ORDER_NAME)
		qsort(sw->tmp, sw->ntmp, sizeof(*sw->tmp), by_name);
	while (sw->ntmp) {
		struct sw_node *n = sw->tmp[--sw->ntmp];
		if (swq_push(&sw->q, n) < 0) {
			err = ENOMEM;
			d->refs--;
			node_free(sw, n);
		}
	}
	return err;
}

static bool is_dot(const char *s)
{
	return s[0] == '.' && (s[1] == 0 || (s[1] == '.' && s[2] == 0));
}

/* Queue every name of d. Returns 0 or an errno; names read before a failure
 * stay queued, as GNU tools go on with what they could read. */
int read_dir(struct sweep *sw, struct sw_dir *d)
{
	int fd = dir_fd(sw, d);
	if (fd < 0)
		return errno;
	int err = 0;
	sw->ntmp = 0;
	for (bool first = true; !err; first = false) {
		uint64_t start = first ? now_ns() : 0;
		ssize_t len = getdents64(fd, sw->dentbuf, sw->dentcap);
		if (first)
			note_dir_read(sw, now_ns() - start, len);
		if (len <= 0) {
			err = len < 0 ? errno : 0;
			break;
		}
		for (ssize_t off = 0; off < len && !err;) {
			const struct dirent64 *de = (const void *)(sw->dentbuf + off);
			off += de->d_reclen;
			if (!is_dot(de->d_name))
				err = take_name(sw, d, de);
		}
	}
	int serr = stack_names(sw, d);
	return err ? err : serr;
}
