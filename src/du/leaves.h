/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * leaves.h: the lines of files that get no node (-a), in bounded memory.
 *
 * With -a, GNU du prints a line for every file as its walk passes it, and
 * holds only the directories on its path. sweep-du's walk comes in disk
 * order, so a file's line can be printed only once the walk is over, in
 * the place of its directory's depth-first turn. A node for each file made
 * memory grow with the tree (55 MB for a million files); a plain file (one
 * name, nothing to count once) needs no node: its size goes to its
 * directory's node, and its line (directory, name, size, time) is kept
 * here, in a chunk of LEAVES_BYTES at most. A full chunk goes to an
 * unnamed temporary file (in $TMPDIR, else /tmp) as a run. After the walk,
 * each run is sorted by its directory's rank in the output's depth-first
 * order, then by name, and the runs are merged as the output asks for
 * each directory's lines in turn.
 *
 * Where no temporary file can be made or written (a full /tmp), the lines
 * stay in memory, which then grows as before: the answer is the same.
 */
#ifndef SWEEP_DU_LEAVES_H
#define SWEEP_DU_LEAVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define LEAVES_BYTES (4u << 20) /* a chunk of lines in memory, by default */

/* One file's line, as served. */
struct du_leaf {
	uint32_t dir;            /* its directory's node */
	uint64_t bytes;
	struct timespec time;    /* with --time only */
	const char *name;        /* valid until leaves_next() */
};

struct leaves_run;

/* Where each line of some packed lines starts. */
struct leaves_index {
	size_t *at;
	size_t n, cap;
};

struct du_leaves {
	size_t chunk;            /* bytes of lines kept in memory */
	bool times;              /* lines carry times (--time) */
	char *buf;               /* the chunk: packed lines */
	size_t used, bufcap;
	struct leaves_index idx; /* the chunk's lines */
	int fd;                  /* the temporary file, or -1 */
	bool in_memory;          /* spilling failed: the chunk grows instead */
	off_t spilled;           /* bytes in the file */
	struct leaves_run *runs; /* the file's runs, then their cursors */
	size_t nruns, capruns;
	const uint32_t *rank;    /* after leaves_sort(): directory node -> rank */
	size_t mem_next;         /* the chunk's next line, when merging */
	size_t *heap;            /* runs (nruns = the chunk) by next line */
	size_t nheap;
	struct du_leaf cur;
	int err;                 /* errno of a failure on the file, or 0 */
	bool nomem;              /* memory ran out sorting or merging */
};

/* chunk: bytes of lines to keep in memory (0: LEAVES_BYTES). */
void leaves_init(struct du_leaves *l, size_t chunk, bool times);

/* Keep a line. Returns 0, or -1 when memory ran out. */
int leaves_add(struct du_leaves *l, uint32_t dir, const char *name, uint64_t bytes,
               const struct timespec *time);

/* After the walk: serve the lines by (rank[dir], name). Returns 0, or -1
 * (memory: errno ENOMEM; the temporary file: l->err, and none served). */
int leaves_sort(struct du_leaves *l, const uint32_t *rank);

/* The next line, or NULL at the end, or from a failure on (l->err, l->nomem). */
const struct du_leaf *leaves_peek(struct du_leaves *l);
void leaves_next(struct du_leaves *l);

static inline bool leaves_empty(const struct du_leaves *l)
{
	return !l->idx.n && !l->nruns;
}

void leaves_free(struct du_leaves *l);

#endif
