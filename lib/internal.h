/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * internal.h: libsweep's private structures, shared by its files only.
 *
 * The files, in layers: each calls only files below it (tests/lib-layers.sh
 * checks that the calls between them have no cycle).
 *   walk.c     the handle, sweep_open/next/close: the scheduler
 *   dirahead.c the sweep of directory reads by block, some in flight
 *   readdir.c  reading a directory into the metadata queue
 *   warm.c     what the walk asks of the helper threads, and when
 *   hold.c     names served straight from the helpers' tasks
 *   serve.c    serving one name: stat, then what becomes of it
 *   data.c     the data phase: the queue by block, flushes, read-ahead
 *   announce.c a thread announcing read-ahead where the device wants depth
 *   runs.c     files in runs apart on the disk, announced as passed
 *   entry.c    the entry handed out: files opened, directories made
 *   node.c     names waiting to be served, and setting them aside
 *   dirs.c     directories with pending children, their descriptor cache
 *   path.c     an entry's path from its parents
 *   links.c    names of multiply-linked files handed out
 *   place.c    FIEMAP and the file system's policy
 *   device.c   the block device under a file system (sysfs)
 *   latency.c  what directory reads' times tell of cache and device
 *   limits.c   what the process's limits leave; shedding memory
 *   memavail.c what memory the kernel can give the walk's caches
 *   lookahead.c how far to announce ahead under memory pressure
 *   pool.c     the helper threads and their queue (knows nothing of the walk)
 *   dirreaders.c threads reading directories through (nor do they)
 *   stash.c    finished tasks the helpers did on their own
 *   task.c     the helpers' tasks and tickets, as data
 *   queue.c    growing vectors, heaps, the C-SCAN elevator
 *   owner.c    whether a thread is this process's (not a fork() child's)
 *
 * Life of an entry: a directory read makes one sw_node per name (d_ino as the
 * key) and pushes it on the metadata queue, or, where the helper threads
 * stat the names, leaves them in their task (hold.c). Serving a name
 * stat-s it, or takes the threads' stat of it; a
 * directory becomes an sw_dir (kept while anything below it is pending), a
 * regular file in block order becomes an sw_file on the data queue, anything
 * else is handed out at once. Every pending child holds a reference on its
 * parent sw_dir, which therefore stays alive (and can reopen itself from its
 * own parent) until its whole subtree is done.
 */
#ifndef SWEEP_INTERNAL_H
#define SWEEP_INTERNAL_H

#include <stdbool.h>
#include <sys/types.h>
#include "sweep.h"
#include "warm.h"

/* A directory with pending descendants. */
struct sw_dir {
	struct sw_dir *parent;   /* NULL for a root */
	struct sw_dir *lru_prev; /* fd cache, most recent first */
	struct sw_dir *lru_next;
	int fd;                  /* -1 when not cached */
	int basefd;              /* roots: what name is relative to */
	unsigned refs;           /* pending children, +1 until read */
	int depth;
	bool follow;             /* opened through a symbolic link */
	bool in_post;            /* on the post-order list */
	dev_t root_dev;          /* the device of its root, for SWEEP_XDEV */
	uint64_t id;
	uint64_t dirq_key;       /* where its blocks start, while in dirq */
	bool announced;          /* given to the readers (dirahead.c) */
	struct stat st;
	size_t namelen;
	struct sw_dir *post_next;
	char name[];
};

/* A name read from a directory, not yet stat-ed by the walk. */
struct sw_node {
	ino_t ino;               /* the C-SCAN key */
	struct sw_dir *parent;   /* NULL for a root */
	struct stat *st;         /* a helper's stat of it (after the name), or NULL */
	int basefd;              /* roots only */
	unsigned char type;      /* d_type */
	bool root;
	size_t namelen;
	char name[];
};

/* A name to serve: a node's, or one the helpers' task of its directory
 * holds (hold.c), which needs no node. */
struct sw_name {
	const char *name;
	size_t namelen;
	struct sw_dir *parent;   /* NULL for a root */
	const struct stat *st;   /* a helper's stat of it, or NULL */
	ino_t ino;
	int basefd;              /* roots only */
	unsigned char type;      /* d_type */
	bool root;
	struct sw_node *node;    /* the node, which holds the reference on parent
	                            and is freed once served; NULL: the batch the
	                            name is in holds it */
};

/* A regular file waiting for the data phase. */
struct sw_file {
	uint64_t key;            /* sort key: see place.c */
	uint64_t seq;            /* arrival order: equal keys keep it */
	uint64_t phys;
	struct sw_dir *parent;
	int basefd;
	int fd;                  /* opened ahead by read-ahead, else -1 */
	size_t announced;        /* bytes announced by read-ahead */
	bool root;
	bool follow;
	struct stat st;
	size_t namelen;
	char name[];
};

/* A stretch of a file's data apart from the rest on the disk (place.c). */
struct sw_run {
	uint64_t phys, off, len; /* physical byte, offset in the file, length */
};

/* A run of a split file that lies before the run its sort key names: the
 * sweep announces it as the arm passes it (runs.c). */
struct sw_early {
	uint64_t key;            /* physical byte + 1, comparable with file keys */
	uint64_t off, len;
	struct sw_file *f;       /* alive: its key is past this one's */
};

/* Binary min-heap of (key, pointer). */
struct sw_slot {
	uint64_t key;
	void *p;
};
struct sw_heap {
	struct sw_slot *v;
	size_t n, cap;
};

/* A C-SCAN elevator. */
struct sw_cscan {
	uint64_t head;           /* last key served */
	struct sw_heap cur;      /* keys >= head: this sweep */
	struct sw_heap next;     /* keys < head: the next sweep */
	uint64_t sweeps;         /* wraps */
};

/* The metadata queue: an elevator by inode, or a stack for depth-first orders. */
struct sw_queue {
	bool cscan;
	struct sw_cscan el;
	struct sw_node **stack;
	size_t nstack, capstack;
};

struct sw_links;
struct hold_batch;

/* latency.c: see there */
/* The last directory misses of one kind (latency.c). */
#define MISS_RING 32
struct sw_miss_ring {
	uint64_t ns[MISS_RING]; /* their times, the newest at (n - 1) % MISS_RING */
	uint64_t n;          /* misses counted */
};

/* Stats timed in a row (latency.c). */
#define SW_STAT_WINDOW 256 /* stats in a window */
#define SW_STAT_REFS   8   /* ... and stats of a name again, among them */
struct sw_stat_window {
	unsigned n;          /* timed */
	uint32_t ns[SW_STAT_WINDOW]; /* their times, ns */
	unsigned nref;
	uint32_t ref_ns[SW_STAT_REFS]; /* times of stats of a name stat-ed
	                        just before: the machine's cost of a stat from
	                        the cache */
};

struct sw_latency {
	unsigned level;      /* share of recent directory reads that missed,
	                        in 1/65536 */
	unsigned reads;      /* directory reads that counted since the root began */
	bool costly_miss;    /* ... and one of them missed, at a disk arm's cost */
	uint64_t misses;     /* reads made at once that missed, in the whole walk */
	uint64_t miss_ns;    /* moving average of their time */
	dev_t dev;           /* the device they were on */
	bool cheap;          /* misses judged cheap: under FAST_MISS_NS, until
	                        they average SLOW_MISS_NS, or flat (latency.c) */
	struct sw_miss_ring close, distant; /* misses within SHORT_BYTES after
	                        the read before, and the others */
	unsigned flat_holds; /* misses in a row that found the device flat */
	bool says_solid;     /* sysfs says the device does not rotate */
	bool flat;           /* ... distant ones cost what close ones do: no
	                        arm */
	uint64_t stats;      /* stats the walk took itself (timed or not) */
	uint64_t stat_miss_at; /* stats, at the last window that found the
	                        inodes cold (0: none yet) */
	struct sw_stat_window window; /* the stats timed since */
	bool stats_warm;     /* the last full window of them came from the
	                        cache: few took the cold line */
	uint64_t stat_ref_ns; /* a stat from the cache, as the last window
	                        with enough stats again found it (0: none) */
	uint64_t stat_misses; /* windows that found the inodes cold */
	uint64_t stat_ns;    /* moving average of their slowest stats */
};

#define NO_DIRQ_KEY UINT64_MAX
#define SW_DIST_UNKNOWN UINT64_MAX /* of a directory read: not placed, or backward */
#define RA_FILES_DISK 32   /* files announced ahead at most: a disk arm */
#define RA_FILES_DEEP 128  /* a device that wants depth */
#define ANNOUNCE_SLOTS 16  /* announcements queued for their thread, at most */
#define DIR_FDS_MAX  4096  /* directory descriptors kept open, at most */
#define WARM_FDS_MAX  146  /* the helpers' descriptors, at most: their queue,
                              two a thread at work, two for the walk's task */
#define ANNOUNCE_LIMIT (2u << 20) /* per file: the kernel reads on from there */
#define RA_BUDGET_MIN (256u << 10) /* the look-ahead under memory pressure, at least */
#define SPLIT_RUNS 8       /* runs of a file the sweep reads apart, at most */

struct sw_root {
	int basefd;
	char *path;
};

/* The descriptor cache of directories (dirs.c). */
struct sw_fds {
	struct sw_dir *lru_head, *lru_tail;
	size_t nfds, max_fds;
	struct sw_dir *pinned;   /* its fd was handed out: never evicted */
	bool wait_futile;        /* waiting for another holder's descriptors
	                            did not help once: not waited for again */
};

#define DIR_DEPTH 32       /* directory reads in flight under SWEEP_DEPTH_ON: a
                              drive's command queue (NCQ) holds as many */

/* Directory reads put off to be made in block order (walk.c). */
struct sw_reads {
	bool dirs_by_block;      /* directory reads wait in dirq */
	bool dirs_by_cache;      /* ... unless they come from the cache lately */
	struct sw_cscan dirq;    /* directories to read, by first physical byte */
	bool reading_dirs;       /* draining dirq: one sweep over the blocks */
	uint64_t last_dirq_key;  /* of the directory read last from dirq, or
	                            NO_DIRQ_KEY */
	struct sw_dir *ahead[DIR_DEPTH]; /* taken from dirq, to read next
	                            (dirahead.c) */
	size_t ahead_head, nahead;
};

/* Names held for the helpers (hold.c). */
struct sw_hold {
	struct hold_batch *ready, *ready_tail; /* names to serve */
	struct hold_batch *held, *held_tail;   /* ... once the helpers are done */
};

/* The data queue (data.c) and the early runs of its split files (runs.c). */
struct sw_dataq {
	struct sw_file **data;
	size_t ndata, capdata, data_pos, ra_pos, ra_bytes;
	size_t ra_budget;        /* bytes announced ahead at most: opt.readahead
	                            less what memory pressure took back (data.c) */
	bool flushing;
	uint64_t seq;
	size_t ra_files;         /* files announced ahead at most */
	size_t ra_max;           /* ... as the descriptor budget allows */
	bool no_cachestat;       /* the kernel has no cachestat(2) */
	struct sw_early *early;  /* early runs of split files, by key in a flush */
	size_t nearly, capearly, early_pos;
};

/* What the entry handed out holds, released on the next call (walk.c). */
struct sw_release {
	struct sw_dir *to_read;  /* a SWEEP_DIR handed out: read it next */
	struct sw_node *done_node;
	struct sw_file *done_file;
	struct sw_dir *done_parent; /* reference to drop */
	struct sw_dir *done_post;   /* a dir handed out as SWEEP_DIR_POST */
	struct hold_batch *done_batch; /* its last name was handed out */
	bool links_lost;         /* it could not be put in the table of links:
	                            say so next (SWEEP_OP_NOMEM) */
};

/* Memory charged against the bound (limits.c: sw_mem_charge). */
struct sw_mem {
	size_t held;             /* bytes held by nodes, files, dirs, batches */
	size_t data;             /* the part of it held by the data queue */
};

struct sweep {
	struct sweep_options opt;
	struct sw_root *roots;
	size_t nroots, caproots, next_root;

	/* policy for the root being walked */
	enum sweep_order order;
	bool data_by_block;      /* data queue sorted by FIEMAP */
	bool data_inline;        /* regular files opened as they are served */
	size_t warm_fds;         /* descriptors the helpers may hold (limits.c) */
	uid_t euid;              /* who may open with O_NOATIME */

	struct sw_queue q;
	struct sw_heap deferred; /* directories put off while memory is short */
	struct sw_reads reads;
	struct sw_latency lat;   /* what directory reads' times tell */
	struct sw_pool *warm;    /* helper threads warming the caches, or NULL */
	struct sw_announcer *announcer; /* announcing for the data phase, or NULL */
	size_t announce_fds;     /* descriptors its queue may hold (limits.c) */
	bool announcer_failed;   /* it could not be started: not tried again */
	struct sw_dirreaders *readers; /* reading directories ahead, or NULL */
	bool readers_failed;     /* they could not be started */
	bool warm_failed;        /* they could not be started, or gave back
	                            their memory (sw_mem_shed): no more tasks */
	bool warm_catch_up;      /* they just started: the directories read
	                            before them get tasks (sw_warm_catch_up) */
	struct sw_hold hold;
	struct sw_dataq dq;
	struct sw_fds fds;
	struct sw_dir *post_head, *post_tail;
	struct sw_links *links;

	/* the entry handed out, and what to release on the next call */
	struct sweep_entry ent;
	struct sw_release rel;

	char *pathbuf;
	size_t pathcap;
	uint64_t path_dir;       /* the directory whose path pathbuf begins
	                            with, by id (0: none), ... */
	size_t path_dir_len;     /* ... and that path's length, with its '/' */
	char *dentbuf;
	size_t dentcap;
	struct sw_node **tmp;    /* one directory's names, depth-first orders */
	size_t ntmp, captmp;

	struct sw_mem mem;
	uint64_t next_dir_id;
	struct sweep_stats stats;
};

/* lookahead.c */
size_t sw_lookahead_next(size_t budget, size_t max, size_t announced, bool lost);

/* memavail.c */
uint64_t sw_mem_available(void);
/* What a queued file leaves in the kernel's caches until its data phase
 * opens it: its inode (about 1.1 KiB for ext4's), its dentry, its share of
 * the blocks they were read from. */
#define KERNEL_BYTES_PER_FILE 2048u
#define FLUSH_FILES_MIN 256 /* the memory bound's own flush, at least */

/* limits.c */
void sw_limits_fds(struct sweep *sw);
bool sw_fds_out(int err);
bool sw_mem_shed(struct sweep *sw);
void *sw_alloc(struct sweep *sw, size_t size);
void sw_mem_charge(struct sw_mem *m, size_t bytes, bool data);
void sw_mem_uncharge(struct sw_mem *m, size_t bytes, bool data);
size_t sw_limits_space(void);

/* queue.c */
void *sw_grow(void *p, size_t *cap, size_t need, size_t size);
void *sw_grow_from(void *p, size_t *cap, size_t need, size_t size, size_t first);
int sw_heap_push(struct sw_heap *h, uint64_t key, void *p);
void *sw_heap_pop(struct sw_heap *h);
int sw_cscan_push(struct sw_cscan *c, uint64_t key, void *p);
void *sw_cscan_pop(struct sw_cscan *c);
size_t sw_cscan_len(const struct sw_cscan *c);
void sw_cscan_free(struct sw_cscan *c);
int sw_queue_push(struct sw_queue *q, struct sw_node *n);
int sw_queue_push_direct(struct sw_queue *q, struct sw_node *n);
struct sw_node *sw_queue_pop(struct sw_queue *q);
size_t sw_queue_len(const struct sw_queue *q);
void sw_queue_free(struct sw_queue *q);

/* dirs.c */
struct sw_dir *sw_dir_new(struct sweep *sw, struct sw_dir *parent, const char *name,
                          size_t namelen, const struct stat *st);
int sw_dir_fd(struct sweep *sw, struct sw_dir *d);
bool sw_fds_shed(struct sweep *sw, const struct sw_dir *keep);
/* An open failed with err: whether to try it again, descriptors given back
 * (sw_fds_shed), or, with none of the walk's own left, after a wait
 * (*waits counts them, 0 at first) for another holder to close some. */
bool sw_fds_retry(struct sweep *sw, const struct sw_dir *keep, int err, unsigned *waits);
int sw_parent_fd(struct sweep *sw, struct sw_dir *parent, int basefd);
void sw_dir_unref(struct sweep *sw, struct sw_dir *d);
void sw_dir_free(struct sweep *sw, struct sw_dir *d);
bool sw_dir_is_ancestor(const struct sw_dir *d, const struct stat *st);

/* What a function that returns an errno gives when our own memory ran out:
 * unlike the kernel's ENOMEM on one file, it stops the walk (SWEEP_OP_NOMEM). */
#define SW_NOMEM (-1)

/* "." or "..": names getdents64 gives that are no entries of the tree */
static inline bool is_dot(const char *s)
{
	return s[0] == '.' && (s[1] == 0 || (s[1] == '.' && s[2] == 0));
}

/* dirahead.c */
struct sw_dir *sw_dirahead_next(struct sweep *sw);
size_t sw_dirahead_pending(const struct sweep *sw);
void sw_dirahead_free(struct sweep *sw);

/* dirreaders.c */
struct sw_dirreaders;
struct sw_dirreaders *sw_dirreaders_start(size_t n);
bool sw_dirreaders_give(struct sw_dirreaders *r, int fd);
bool sw_dirreaders_here(const struct sw_dirreaders *r);
size_t sw_dirreaders_threads(const struct sw_dirreaders *r);
void sw_dirreaders_stop(struct sw_dirreaders *r);

/* readdir.c */
int sw_read_dir(struct sweep *sw, struct sw_dir *d, uint64_t dist);

/* serve.c */
const struct sweep_entry *sw_serve_node(struct sweep *sw, struct sw_node *n);
const struct sweep_entry *sw_serve_name(struct sweep *sw, const struct sw_name *v);
/* Under SWEEP_NOSTAT, whether a name's d_type is all the walk needs of it:
 * a non-directory of known type that is not a link to follow. */
bool sw_type_suffices(const struct sweep *sw, unsigned char d_type, bool follow);

/* entry.c */
void sw_ent_fill(struct sweep *sw, enum sweep_kind kind, const struct stat *st,
                 int dirfd, int depth, struct sw_dir *parent);
int sw_open_file(uid_t euid, int dirfd, const char *name, bool follow,
                 const struct stat *st);
const struct sweep_entry *sw_emit_error(struct sweep *sw, enum sweep_op op, int err);
void sw_note_link(struct sweep *sw, bool remember);
const struct sweep_entry *sw_emit_dir(struct sweep *sw, const struct sw_name *v, int pfd,
                                      const struct stat *st, bool follow);
const struct sweep_entry *sw_emit_regular(struct sweep *sw, const struct sw_name *v, int dirfd,
                                          bool follow, int fd);

/* node.c */
struct sw_node *sw_node_new(struct sweep *sw, struct sw_dir *parent, ino_t ino,
                            unsigned char type, const char *name, size_t namelen,
                            const struct stat *st);
void sw_node_free(struct sweep *sw, struct sw_node *n);
void sw_node_release(struct sweep *sw, struct sw_node *n);
void sw_name_take_ref(struct sweep *sw, const struct sw_name *v);
size_t sw_meta_mem(const struct sw_mem *m);
/* The metadata side's share of the bound while the helper threads work
 * (node.c: sw_meta_line): a device judged not to seek gains no order from a
 * longer queue. 100,000 directories of 9 files, a million entries, cold on
 * this machine's disk: 28-33 MB of queued entries with half the bound, 4.5
 * with a sixteenth (2.4 with a thirty-second, but 5-8% slower where each
 * directory holds 1,000 names), in less time. */
#define META_SHARE_WARM 16
size_t sw_meta_line(const struct sweep *sw);
bool sw_meta_short(const struct sweep *sw);
bool sw_defer_dir(struct sweep *sw, struct sw_node *n);

/* data.c */
int sw_data_queue(struct sweep *sw, const struct sw_name *v, int pfd, const struct stat *st,
                  bool follow, int *fd);
void sw_data_start_flush(struct sweep *sw);
const struct sweep_entry *sw_data_next(struct sweep *sw);
void sw_file_free(struct sweep *sw, struct sw_file *f);
size_t sw_ra_depth(const struct sw_dataq *dq, bool deep);

/* runs.c */
void sw_runs_split(struct sweep *sw, struct sw_file *f, const struct sw_run *runs, size_t n);
void sw_runs_start_flush(struct sw_dataq *dq);
void sw_runs_announce(struct sweep *sw, uint64_t limit);
void sw_runs_end_flush(struct sweep *sw);

/* place.c */
#define SW_RUNS_INLINE SIZE_MAX /* sw_place_runs: the data lives in the metadata */
uint64_t sw_place_first_byte(int fd);
size_t sw_place_runs(int fd, off_t size, struct sw_run *runs, size_t max);
enum sweep_order sw_place_policy(int fd);

/* links.c */
struct sw_links *sw_links_new(void);
const char *sw_links_find(struct sw_links *l, const struct stat *st);
int sw_links_add(struct sw_links *l, const struct stat *st, const char *path);
void sw_links_free(struct sw_links *l);

/* path.c */
int sw_path_build(struct sweep *sw, const struct sw_dir *parent, const char *name,
                  size_t namelen);
void sw_path_name_only(struct sweep *sw, const char *name, size_t namelen);

/* latency.c */
struct sw_thread_use {
	uint64_t blocks; /* read from devices */
	uint64_t cpu_ns; /* user and system time */
	uint64_t sleeps; /* times it slept (voluntary context switches) */
};
uint64_t sw_now_ns(void);
struct sw_thread_use sw_thread_use(void);
struct sw_thread_use sw_thread_use_since(struct sw_thread_use before);
void sw_note_dir_read(struct sw_latency *l, uint64_t ns, ssize_t len, uint64_t dist,
                      uint64_t size, bool helpers_run, const struct sw_thread_use *used);
void sw_latency_reset(struct sw_latency *l, dev_t dev);
bool sw_latency_wants_use(const struct sw_latency *l);
unsigned sw_latency_strategy(const struct sw_latency *l);
void sw_latency_says_solid(struct sw_latency *l, bool solid);
bool sw_latency_wants_places(const struct sw_latency *l);
bool sw_dirs_probing(const struct sw_latency *l);
bool sw_dirs_cached(const struct sw_latency *l);
bool sw_misses_cheap(const struct sw_latency *l);
bool sw_misses_flat(const struct sw_latency *l);
bool sw_latency_times_stat(struct sw_latency *l, bool helpers_run);
bool sw_stats_warm(const struct sw_latency *l);
void sw_note_stat(struct sw_latency *l, uint64_t ns);
bool sw_latency_wants_restat(const struct sw_latency *l);
void sw_note_restat(struct sw_latency *l, uint64_t ns);

/* announce.c */
struct sw_announcer;
struct sw_announcer *sw_announcer_start(size_t slots);
bool sw_announce(struct sw_announcer *a, int fd, off_t off, off_t len);
void sw_announcer_stop(struct sw_announcer *a);

/* warm.c (the tasks and the pool they run in: warm.h) */
bool sw_warm_working(const struct sweep *sw);
bool sw_warm_ready(struct sweep *sw);
struct warm_task *sw_warm_task_for(struct sweep *sw, int dirfd, const struct stat *st,
                                   bool stated);
struct warm_task *sw_warm_task_next(struct sweep *sw, struct warm_task *t);
struct warm_task *sw_warm_claim(struct sweep *sw, int dirfd, const struct stat *dirst);
void sw_warm_catch_up(struct sweep *sw, const struct sw_dir *d);

/* hold.c */
struct hold_batch *sw_hold_begin(struct sweep *sw, struct sw_dir *d, struct warm_ticket *ticket);
void sw_hold_name(struct sweep *sw, struct hold_batch *b, size_t namelen);
bool sw_hold_stashed(struct sweep *sw, struct sw_dir *d, struct warm_task *t);
bool sw_hold_any(const struct sw_hold *h);
const struct sweep_entry *sw_hold_serve(struct sweep *sw, bool wait, bool *served);
void sw_hold_batch_free(struct sweep *sw, struct hold_batch *b);
void sw_hold_free(struct sweep *sw);


#endif
