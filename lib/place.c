/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * place.c: where things are on the disk, and what that means for the order.
 *
 * FIEMAP with room for a single extent is all a directory's place needs: its
 * first physical byte. A file's place is its runs: the stretches of its data
 * that lie apart on the disk, since an aged file system gives many small
 * files an appended tail far from their head (runs.c). The policy table says
 * which file systems have anything to win from sorting: on ext2/3/4 and XFS inode numbers follow the
 * disk (block groups, allocation groups), on btrfs they say nothing but
 * FIEMAP does, and on network, virtual and FUSE file systems sorting only
 * costs (gnulib turned it off on Lustre after a 9x slowdown).
 */
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "internal.h"

#define MAGIC_EXT234 0xEF53
#define MAGIC_XFS    0x58465342
#define MAGIC_BTRFS  0x9123683E

#define UNKNOWN_PLACE (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC)

/* Asks for the first count extents of fd's whole data into map (followed by
 * room for them); returns how many came, 0 on failure. */
static uint32_t ask_extents(int fd, struct fiemap *map, uint32_t count)
{
	memset(map, 0, sizeof(*map) + count * sizeof(struct fiemap_extent));
	map->fm_length = FIEMAP_MAX_OFFSET;
	map->fm_extent_count = count;
	if (ioctl(fd, FS_IOC_FIEMAP, map) < 0)
		return 0;
	return map->fm_mapped_extents;
}

/* The first physical byte of fd's data, or SWEEP_PHYS_NONE when the file has
 * no extent, or only one whose place is not known yet (delayed allocation). */
uint64_t sw_place_first_byte(int fd)
{
	struct {
		struct fiemap map;
		struct fiemap_extent extent[1];
	} req;
	if (!ask_extents(fd, &req.map, 1) || (req.extent[0].fe_flags & UNKNOWN_PLACE))
		return SWEEP_PHYS_NONE;
	return req.extent[0].fe_physical;
}

/* Whether extent e goes on where prev, the last extent kept, left off: next
 * in the file, and next on the disk. A compressed extent (btrfs) gives its
 * length in the file; on the disk it takes at most that, so the piece written
 * after it starts inside that span and is read in the same pass. */
static bool continues(const struct fiemap_extent *prev, const struct fiemap_extent *e)
{
	if (prev->fe_logical + prev->fe_length != e->fe_logical)
		return false;
	if (prev->fe_physical + prev->fe_length == e->fe_physical)
		return true;
	return (prev->fe_flags & e->fe_flags & FIEMAP_EXTENT_ENCODED) &&
	       e->fe_physical > prev->fe_physical &&
	       e->fe_physical <= prev->fe_physical + prev->fe_length;
}

/* Fills runs with the places of the data of fd (size bytes) that are apart
 * on the disk (extents that follow each other on the disk make one run), in
 * file order. Unwritten extents and what lies past size are never read, and
 * left out. Returns how many: 0 when the first has no known place (no extent,
 * or delayed allocation), max + 1 when there are more than max or one has no
 * known place (runs[0] is then still right), SW_RUNS_INLINE when the data is
 * kept inside the metadata (btrfs inline extents, ext4 inline_data): the walk
 * has read it with the inode, and FIEMAP's address for it (0 on btrfs) is no
 * place to sort by. */
size_t sw_place_runs(int fd, off_t size, struct sw_run *runs, size_t max)
{
	enum { ASK = 16 }; /* more extents than runs: neighbours merge */
	struct {
		struct fiemap map;
		struct fiemap_extent extent[ASK];
	} req;
	uint32_t got = ask_extents(fd, &req.map, ASK);
	const struct fiemap_extent *prev = NULL;
	size_t n = 0;
	for (uint32_t i = 0; i < got; i++) {
		const struct fiemap_extent *e = &req.extent[i];
		if (e->fe_logical >= (uint64_t)size)
			return n;
		if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
			continue;
		if (e->fe_flags & FIEMAP_EXTENT_DATA_INLINE)
			return n ? max + 1 : SW_RUNS_INLINE;
		if (e->fe_flags & UNKNOWN_PLACE)
			return n ? max + 1 : 0;
		if (prev && continues(prev, e)) {
			runs[n - 1].len += e->fe_length;
			prev = e;
			continue;
		}
		if (n == max)
			return max + 1;
		runs[n++] = (struct sw_run){ e->fe_physical, e->fe_logical, e->fe_length };
		prev = e;
	}
	if (got && !(req.extent[got - 1].fe_flags & FIEMAP_EXTENT_LAST))
		return max + 1; /* more extents than asked for */
	return n;
}

/* The order SWEEP_ORDER_AUTO means for the file system fd is on. */
enum sweep_order sw_place_policy(int fd)
{
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0)
		return SWEEP_ORDER_NONE;
	switch ((unsigned long)sfs.f_type) {
	case MAGIC_EXT234:
	case MAGIC_XFS:
		return SWEEP_ORDER_DISK;
	case MAGIC_BTRFS:
		return SWEEP_ORDER_BLOCK;
	default:
		return SWEEP_ORDER_NONE;
	}
}
