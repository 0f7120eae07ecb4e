/*
 * warm.h: the helper threads' tasks, shared by warm.c (the threads) and
 * stash.c (finished tasks kept for the walk); the rest of libsweep sees only
 * the functions in internal.h.
 */
#ifndef SWEEP_WARM_H
#define SWEEP_WARM_H

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

#define STASH_BUCKETS 4096

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
};

void task_free(struct warm_task *t);
size_t task_bytes(const struct warm_task *t);
void stash_put(struct warm_stash *s, struct warm_task *t);
struct warm_task *stash_take(struct warm_stash *s, dev_t dev, ino_t ino);
void stash_free(struct warm_stash *s);

#endif
