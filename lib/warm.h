/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * warm.h: the helper threads' tasks (task.c), the pool that runs them
 * (pool.c) and the stash of finished ones (stash.c). Nothing here knows of
 * the walk: what it asks of them is in warm.c.
 */
#ifndef SWEEP_WARM_H
#define SWEEP_WARM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* One name of a task, and what a thread found it to be. */
struct warm_ent {
	struct stat st;          /* valid when stated */
	ino_t ino;               /* d_ino */
	size_t off;              /* of its name in the task's names */
	unsigned char type;      /* d_type */
	bool stated;
};

/* A directory whose names the threads stat (and whose subdirectories they
 * read); finished, it holds what they found. */
struct warm_task {
	struct warm_task *next;  /* in the queue; in a chain of the stash */
	struct warm_task *older, *newer; /* in the stash, by age */
	struct warm_ticket *ticket; /* tasks the walk waits for, else NULL */
	int fd;                  /* the directory, dup-ed; -1 once finished */
	dev_t dev;               /* its device: subdirectories elsewhere are skipped */
	ino_t ino;               /* its inode */
	struct timespec mtime, ctime; /* its times when it was stat-ed */
	uid_t euid;              /* who may read directories with O_NOATIME */
	bool stat_all;           /* take every name, not only possible directories */
	bool walk_read;          /* the walk read the directory: never stashed */
	bool stat_below;         /* ... in the tasks of its subdirectories */
	bool complete;           /* every name was read and its stat tried (a
	                            stashed task that is not: a listing) */
	bool unread;             /* its names are for the thread that runs it
	                            to read (pool.c's read_unread) */
	bool no_stash;           /* nothing of it or of its subdirectories'
	                            tasks is stashed: a catch-up's (warm.c),
	                            whose directories the walk may have read */
	int levels;              /* of subdirectories still to take as tasks */
	struct warm_ent *ents;
	size_t n, capents;
	char *names;             /* (name, NUL)... */
	size_t len, cap;
};

/* Tells the walk when a task's names were stat-ed (or dropped); shared. */
struct warm_ticket {
	int refs;                /* atomic */
	bool done;               /* atomic; set under the lock by the threads */
	struct warm_task *result; /* the task, run or dropped: the names the
	                             walk holds (hold.c); read once done */
};

#define SWEEP_WARM_THREADS 8
#define WARM_CHUNK    1024       /* names of a task, at most */
#define STASH_BUCKETS 4096
#define STASH_READ    4096       /* directories the walk has, remembered
                                    (stash.c) */

/* A well-mixed hash of a directory, for the stash's buckets and the
 * threads' bitmaps: take its top bits. */
static inline uint64_t dir_hash(dev_t dev, ino_t ino)
{
	return ((uint64_t)ino ^ ((uint64_t)dev << 40)) * 0x9E3779B97F4A7C15ull;
}

/* Finished tasks of the threads' own, by directory, until the walk reads
 * the directory or they grow old (stash.c). Under the threads' lock. */
struct warm_stash {
	struct warm_task *bucket[STASH_BUCKETS];
	struct warm_task *oldest, *newest;
	size_t bytes, max_bytes;
	struct { dev_t dev; ino_t ino; } read[STASH_READ]; /* by hash; ino 0: none */
};

struct sw_pool;

/* task.c */
struct warm_task *sw_task_new(int fd, const struct stat *st, uid_t euid, bool stat_all,
                              bool stat_below, int levels);
void sw_task_free(struct warm_task *t);
size_t sw_task_bytes(const struct warm_task *t);
void sw_task_shrink(struct warm_task *t);
bool sw_warm_task_add(struct warm_task *t, ino_t ino, unsigned char type, const char *name,
                      size_t namelen);
bool sw_warm_task_full(const struct warm_task *t);
bool sw_warm_task_stated(const struct warm_task *t);
size_t sw_warm_task_len(const struct warm_task *t);
size_t sw_warm_task_bytes(const struct warm_task *t);
const char *sw_warm_task_name(const struct warm_task *t, size_t i, size_t *namelen, ino_t *ino,
                              unsigned char *type, const struct stat **st);
size_t sw_warm_name_bytes(void);
bool sw_task_add_ticket(struct warm_task *t);
struct warm_ticket *sw_warm_task_ticket(const struct warm_task *t);
struct warm_ticket *sw_warm_ticket_get(struct warm_ticket *k);
void sw_warm_ticket_put(struct warm_ticket *k);
bool sw_warm_ticket_done(const struct warm_ticket *k);
struct warm_task *sw_warm_ticket_task(const struct warm_ticket *k);

/* pool.c */
struct sw_pool *sw_pool_start(size_t max_bytes, size_t fds, size_t space);
void sw_pool_stop(struct sw_pool *w);
bool sw_pool_submit(struct sw_pool *w, struct warm_task *t);
void sw_warm_task_drop(struct warm_task *t);
void sw_pool_wait(struct sw_pool *w, const struct warm_ticket *k);
void sw_pool_wait_room(struct sw_pool *w);
bool sw_pool_room(struct sw_pool *w);
bool sw_pool_shed(struct sw_pool *w);
bool sw_pool_ours(const struct sw_pool *w);
size_t sw_pool_threads(const struct sw_pool *w);
struct warm_task *sw_pool_claim(struct sw_pool *w, dev_t dev, ino_t ino);
void sw_pool_mark_taken(struct sw_pool *w, dev_t dev, ino_t ino);
bool sw_pool_stated(const struct sw_pool *w, dev_t dev, ino_t ino);
int sw_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* stash.c */
void sw_stash_put(struct warm_stash *s, struct warm_task *t);
struct warm_task *sw_stash_take(struct warm_stash *s, dev_t dev, ino_t ino);
void sw_stash_walk_read(struct warm_stash *s, dev_t dev, ino_t ino);
void sw_stash_free(struct warm_stash *s);

#endif
