/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sweep.h: libsweep, walk a directory tree in disk order.
 *
 * A walk has two phases. The metadata phase serves every entry of the tree as a
 * C-SCAN elevator keyed by inode number: the pending entry with the smallest
 * inode >= the last one served comes next, wrapping to the smallest at the end
 * of a sweep, so the inode tables are read in one pass per sweep. The data
 * phase hands out regular files opened for reading, sorted by the physical
 * address of their first extent (FIEMAP), with the next files announced to the
 * kernel ahead of time so the device queue does not run dry. A small file in
 * runs apart on the disk (an appended tail, on an aged file system) is read a
 * run at a time as the sweep passes each, and handed out at its last one. The data queue is
 * flushed (handed out) whenever it passes a bound in entries or bytes, so
 * memory stays flat whatever the size of the tree.
 *
 * The interface is fts-like: sweep_open(), sweep_next() until it returns NULL,
 * sweep_close(). The library has no global state, never prints and never
 * exits; errors are entries of kind SWEEP_ERROR carrying a path and an errno.
 */
#ifndef SWEEP_H
#define SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque walk handle. */
struct sweep;

/* The order in which entries and file data are handed out. */
enum sweep_order {
	SWEEP_ORDER_AUTO = 0, /* chosen per root from the file system (see below) */
	SWEEP_ORDER_DISK,     /* metadata by inode (C-SCAN), data by physical block */
	SWEEP_ORDER_INODE,    /* metadata by inode (C-SCAN), data read as served */
	SWEEP_ORDER_NAME,     /* depth-first, siblings sorted by name: reproducible */
	SWEEP_ORDER_NONE,     /* depth-first, directory order: no sorting at all */
	SWEEP_ORDER_BLOCK,    /* directory order for metadata, data by physical
	                         block (btrfs: inode numbers say nothing there) */
};
/*
 * SWEEP_ORDER_AUTO picks, from fstatfs() of each root: ext2/3/4 and xfs:
 * DISK; btrfs: BLOCK; anything else (tmpfs, proc, sysfs, NFS, CIFS, FUSE,
 * Lustre, unknown): NONE, since sorting has nothing to win there.
 */

/* Symbolic links. */
enum sweep_follow {
	SWEEP_FOLLOW_NONE = 0, /* -P: never follow */
	SWEEP_FOLLOW_ROOTS,    /* -H: follow the roots only */
	SWEEP_FOLLOW_ALL,      /* -L: follow everything; a dangling link is
	                          handed out as the link, a loop of links is an
	                          ELOOP error, a directory loop SWEEP_OP_LOOP */
};

/* Option flags. */
#define SWEEP_XDEV      0x01u /* do not descend into other file systems */
#define SWEEP_NODATA    0x02u /* metadata only: no FIEMAP, no data phase (du, find) */
#define SWEEP_POSTORDER 0x04u /* also hand out SWEEP_DIR_POST entries */
#define SWEEP_ROOTS_TOGETHER 0x10u /* all roots in one walk: one elevator and
                                 one data sweep per flush for them all (as
                                 tar -T wants), in the order chosen from the
                                 first root; else roots go one after another */
#define SWEEP_NOSTAT    0x08u /* with SWEEP_NODATA: stat only what the walk
                                 needs (directories, roots, links followed,
                                 names of unknown type); other entries carry
                                 only st_mode's type bits and st_ino, from
                                 the directory, and SWEEP_E_NOSTAT */
#define SWEEP_EMPTY_UNOPENED 0x40u /* a regular file empty when stat-ed comes
                                 as SWEEP_DATA with fd -1, not opened: it
                                 has nothing to read (GNU tar opens none;
                                 on a tree of a million files, nine in ten
                                 empty, three calls saved on each) */
#define SWEEP_STAT_AHEAD 0x20u /* with SWEEP_NOSTAT: the caller will want
                                 most entries' status (find -size). Where the
                                 helper threads run (SWEEP_WARM_*) they stat
                                 every name ahead, and an entry whose status
                                 the walk takes from them comes with it,
                                 without SWEEP_E_NOSTAT (in the inode orders
                                 nearly all; in the others those of the
                                 directories they read ahead of the walk);
                                 the others come as under SWEEP_NOSTAT */
#define SWEEP_DEPTH_ON  0x80u /* the sweep of directory reads by block
                                 (SWEEP_DIRS_BLOCK) keeps 32 of them in
                                 flight, issued in its order, for a drive
                                 that reorders what it holds (NCQ); by
                                 default one at a time, which measured as
                                 fast or faster (libsweep(3)). Since
                                 interface 4 */
/* Every flag this version knows: sweep_open() refuses others (EINVAL), so a
 * program built against a newer header learns at once that a flag it asks
 * for is not there. */
#define SWEEP_FLAGS_ALL (SWEEP_XDEV | SWEEP_NODATA | SWEEP_POSTORDER | SWEEP_NOSTAT | \
                         SWEEP_ROOTS_TOGETHER | SWEEP_STAT_AHEAD | SWEEP_EMPTY_UNOPENED | \
                         SWEEP_DEPTH_ON)

/* When directories are read, in the inode orders (DISK, INODE). */
enum sweep_dir_order {
	SWEEP_DIRS_AUTO = 0, /* the library's choice: SWEEP_DIRS_BLOCK on a
	                        rotational device, where it saves seeks,
	                        SWEEP_DIRS_INODE elsewhere (block order reopens
	                        directories more; see bench/results/README.md) */
	SWEEP_DIRS_INODE,    /* each directory as soon as the elevator serves it */
	SWEEP_DIRS_BLOCK,    /* once the pending names are served, all pending
	                        directories, by their first physical block (FIEMAP) */
};

/* Helper threads that pull metadata into the cache ahead of the walk (they
 * stat the names of each directory read and read its subdirectories, and
 * hand over what they found; the walk's results stay the same). */
enum sweep_warm {
	SWEEP_WARM_AUTO = 0, /* the library's choice: while directory reads miss
	                        the cache and misses are cheap (under 0.3 ms: an
	                        SSD; or as costly far as near: network block
	                        storage; not a disk arm, whose seeks the elevator
	                        saves better alone) */
	SWEEP_WARM_OFF,      /* never: one thread, one request at a time */
	SWEEP_WARM_ON,       /* from the first directory on */
};

/* What a filter callback answers. */
enum sweep_verdict {
	SWEEP_KEEP = 0,  /* hand the entry out (and read it, if a directory) */
	SWEEP_PRUNE = 1, /* drop the entry and, for a directory, its whole subtree */
};

struct sweep_entry;

struct sweep_options {
	enum sweep_order order;
	enum sweep_follow follow;
	enum sweep_dir_order dir_order;
	enum sweep_warm warm;
	unsigned flags;        /* SWEEP_XDEV | SWEEP_NODATA | SWEEP_POSTORDER |
	                          SWEEP_NOSTAT | SWEEP_STAT_AHEAD */
	size_t max_entries;    /* flush the data queue past this many files;
	                          0: SWEEP_DEFAULT_MAX_ENTRIES */
	size_t max_bytes;      /* memory bound: the data queue is flushed past
	                          half of it, directory reads are put off while
	                          pending names and directories hold the other
	                          half (a sixteenth while the helper threads
	                          work); 0: SWEEP_DEFAULT_MAX_BYTES */
	size_t readahead;      /* bytes of file data announced ahead of the reader
	                          in the data phase; 0: SWEEP_DEFAULT_READAHEAD */
	/* Called for every entry after it is stat-ed, before it is queued, handed
	 * out or read. May be NULL. */
	enum sweep_verdict (*filter)(const struct sweep_entry *e, void *arg);
	void *filter_arg;
};

/* Every flush is another pass of the arm over the whole disk: the defaults
 * let a Linux source tree (78,549 files, 19 MB queued) go in one. */
#define SWEEP_DEFAULT_MAX_ENTRIES 131072
#define SWEEP_DEFAULT_MAX_BYTES   (64u << 20)
#define SWEEP_DEFAULT_READAHEAD   (16u << 20)

/* What an entry is. */
enum sweep_kind {
	SWEEP_DIR,      /* a directory, before its contents */
	SWEEP_DIR_POST, /* a directory after all of its contents (SWEEP_POSTORDER) */
	SWEEP_FILE,     /* a non-directory handed out without data: symlinks,
	                   fifos, devices, sockets, and regular files under
	                   SWEEP_NODATA */
	SWEEP_DATA,     /* a regular file opened for reading: fd */
	SWEEP_ERROR,    /* something failed: op, error, path */
};

/* What failed, for SWEEP_ERROR entries. */
enum sweep_op {
	SWEEP_OP_NONE = 0,
	SWEEP_OP_STAT,    /* the entry could not be stat-ed (st is not valid) */
	SWEEP_OP_READDIR, /* the directory could not be opened or read; it was
	                     handed out as SWEEP_DIR before (st is valid) */
	SWEEP_OP_OPEN,    /* the file could not be opened for its data (st valid) */
	SWEEP_OP_LOOP,    /* a directory is its own ancestor under -L (st valid) */
	SWEEP_OP_NOMEM,   /* the library's memory ran out (error ENOMEM; the
	                     kernel's ENOMEM from a call on one file is that
	                     call's failure, as any other errno): the entry named by path is lost (a directory
	                     with the rest of its subtree, or of its names if
	                     it was being read); or, right after the same entry
	                     was handed out, it could not be remembered as the
	                     first name of a multiply-linked file, so that
	                     later names of it come without link_first (dirfd
	                     is then -1). The walk goes on. */
};

/* Entry flags. */
#define SWEEP_E_XDEV     0x01u /* a directory on another file system, not read */
#define SWEEP_E_ROOT     0x02u /* a root given to the walk */
#define SWEEP_E_NOSTAT   0x04u /* st holds only the type and inode (SWEEP_NOSTAT) */

/* Where an entry's data starts when FIEMAP cannot place it. */
#define SWEEP_PHYS_NONE UINT64_MAX

struct sweep_entry {
	enum sweep_kind kind;
	unsigned flags;         /* SWEEP_E_* */
	const char *path;       /* root-relative path as given, may exceed PATH_MAX */
	size_t pathlen;
	const char *name;       /* last component (for a root: the root as given) */
	int dirfd;              /* open directory that name is relative to */
	int fd;                 /* SWEEP_DATA: read-only descriptor at offset 0;
	                           owned by the walk, valid until the next call;
	                           -1 for an empty file under SWEEP_EMPTY_UNOPENED */
	int depth;              /* 0 for a root */
	enum sweep_op op;       /* SWEEP_ERROR: what failed */
	int error;              /* SWEEP_ERROR: errno */
	struct stat st;         /* lstat (or stat when following) of the entry */
	uint64_t phys;          /* first physical byte, or SWEEP_PHYS_NONE (also
	                           for empty files, and files found in the page
	                           cache, handed out as served: no disk needed) */
	const char *link_first; /* a non-directory with st_nlink > 1 already handed
	                           out under another name: that name's path
	                           (never under SWEEP_NOSTAT) */
	uint64_t dir_id;        /* SWEEP_DIR, SWEEP_DIR_POST: this directory's id:
	                           they count up from 1, one for each directory
	                           handed out, so an array can map them */
	uint64_t parent_id;     /* the containing directory's id; 0 for roots */
};

/* Counters of a walk, for tests and benchmarks. */
struct sweep_stats {
	uint64_t entries;       /* entries handed out */
	uint64_t flushes;       /* data phases run */
	uint64_t fiemap_calls;
	uint64_t sweeps;        /* C-SCAN wraps in the metadata phase */
	uint64_t dirs_deferred; /* directory reads put off to bound memory */
	size_t peak_data_entries; /* most files queued for data at once */
	size_t peak_bytes;      /* most memory held by queued entries and dirs */
	uint64_t dirs_by_block; /* directory reads queued by physical block */
	unsigned warm_threads;  /* helper threads started (enum sweep_warm) */
	uint64_t files_split;   /* files placed by their last run apart on the
	                           disk, the others read as the sweep passed */
	uint64_t names_stated_ahead; /* names whose stat a helper took */
	uint64_t dirs_read_ahead; /* directories whose names a helper read */
	size_t bytes_held;      /* memory held by queued entries and dirs now,
	                           as peak_bytes counts it: 0 once the walk is
	                           over */
	uint64_t lookahead_cuts; /* files whose announced data the kernel took
	                            back before they were read (memory was
	                            short): each halved the look-ahead */
	uint64_t dirs_caught_up; /* directories read before the helper threads
	                            started midway, handed to them then */
	unsigned strategy;      /* what the walk makes of its device now, as
	                           its judgement stands (enum sweep_strategy) */
	uint64_t dirs_announced; /* directory reads of the sweep by block that
	                           reader threads made ahead of the walk */
	unsigned dir_depth;     /* that sweep's directory reads in flight at
	                           most: 1, or under SWEEP_DEPTH_ON the reader
	                           threads started (32 where the descriptor
	                           limit allows); 0 before it began. Since
	                           interface 4 */
};

/* sweep_stats.strategy: how the walk reads, from the times of its reads. */
enum sweep_strategy {
	SWEEP_STRATEGY_PROBING, /* its first directory reads are still telling */
	SWEEP_STRATEGY_CACHED,  /* directories come from the cache: read as
	                           served, in no order of the disk's */
	SWEEP_STRATEGY_DEPTH,   /* misses are cheap (an SSD, network block
	                           storage): requests in flight, any order */
	SWEEP_STRATEGY_SWEEP    /* misses cost seeks: one sweep in disk order */
};

/*
 * Start a walk over the NULL-terminated roots (relative to the current
 * directory; roots may be NULL). opt may be NULL for defaults. Returns NULL
 * with errno set (ENOMEM, EINVAL) on failure.
 */
struct sweep *sweep_open(const char *const *roots, const struct sweep_options *opt);

/* Add a root, relative to dirfd (AT_FDCWD or an open directory that must stay
 * open during the walk). Roots are walked one after another, in the order
 * added, unless SWEEP_ROOTS_TOGETHER. Returns 0, or -1 with errno set. */
int sweep_add_root(struct sweep *sw, int dirfd, const char *path);

/* The next entry, or NULL at the end. The entry and everything it points to
 * stay valid until the next call. */
const struct sweep_entry *sweep_next(struct sweep *sw);

/* Do not read the directory just handed out (fts's FTS_SKIP). Returns 0, or
 * -1 with errno EINVAL when the last entry was not a SWEEP_DIR. */
int sweep_prune(struct sweep *sw);

/* The order chosen for the root being walked now (never SWEEP_ORDER_AUTO once
 * the first entry of a root was handed out). */
enum sweep_order sweep_current_order(const struct sweep *sw);

/* Copy the walk's counters into out, whose size the caller gives (pass
 * sizeof(*out)): at most that much is written, so a program built against
 * an older, shorter struct sweep_stats is safe with a newer library, and
 * what the library does not know of a newer, longer one is zeroed. */
void sweep_get_stats(const struct sweep *sw, struct sweep_stats *out, size_t size);

/* End the walk and free everything. Always succeeds. */
void sweep_close(struct sweep *sw);

/* The block device under the file system of device number dev (a stat's
 * st_dev), as sysfs tells: whether it seeks (1), does not (0), or cannot be
 * told (-1: no block device behind it, as for tmpfs, NFS or btrfs); and the
 * whole disk it lies on (a partition's disk, else dev itself; 0 when sysfs
 * does not know dev). Since interface 2. */
int sweep_device_rotational(dev_t dev);
dev_t sweep_device_disk(dev_t dev);

/* The name of an order ("disk", "inode", "name", "none", "block", "auto"),
 * and the order of a name; -1 for an unknown name. */
const char *sweep_order_name(enum sweep_order order);
int sweep_order_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif
