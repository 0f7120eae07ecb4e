/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * du.h: sweep-du's options and the state shared by its parts.
 *
 *   main.c     runs the parts in order and turns the outcome into an exit status
 *   options.c  command line (GNU du's options and messages)
 *   units.c    -B/-k/-m/-h/--si and the *BLOCK_SIZE variables
 *   timefmt.c  --time and --time-style
 *   walk.c     the libsweep walk: errors reported, sizes gathered into the tree
 *   hops.c     -L: the symbolic links followed on the way, against the kernel's limit
 *   tree.c     nodes of the directory tree, names, linking in name order
 *   leaves.c   -a: the lines of files without a node, in bounded memory
 *   dedup.c    which name of a hard-linked file GNU du would count
 *   reread.c   directory order as GNU du's walk would see it (for dedup.c)
 *   report.c   totals and the output lines, depth-first, siblings by name
 */
#ifndef SWEEP_DU_H
#define SWEEP_DU_H

#include <stdbool.h>
#include <stdint.h>
#include "diag.h"
#include "scaled.h"
#include "exclude.h"
#include "sweep.h"
#include "leaves.h"
#include "tree.h"

enum du_time { DU_MTIME, DU_ATIME, DU_CTIME };

struct du_opts {
	bool all;            /* -a */
	bool total;          /* -c */
	bool apparent;       /* --apparent-size, -b */
	bool count_links;    /* -l */
	bool separate_dirs;  /* -S */
	bool inodes;         /* --inodes */
	bool null;           /* -0 */
	bool xdev;           /* -x */
	bool show_time;      /* --time */
	bool hash_all;       /* every file counted once, not only hard links */
	enum sweep_follow follow;
	enum sweep_order order;
	enum sweep_warm warm;
	intmax_t max_depth;  /* -1: no limit */
	intmax_t threshold;  /* -t: 0 none, >0 at least, <0 at most */
	uint64_t block_size; /* output unit in bytes */
	unsigned human;      /* HUMAN_* flags */
	enum du_time time_kind;
	char *time_format;   /* strftime format, %N allowed; allocated */
	struct exclude exclude;
	char **roots;        /* NULL-terminated */
	bool roots_owned;    /* roots were read from --files0-from */
	const char *files0;  /* --files0-from's file, for messages */
};

struct du {
	struct du_opts opt;
	struct du_tree tree;
	struct du_leaves leaves; /* -a: lines of files without a node */
	struct keymap hops;  /* -L: directory id -> links followed to it (hops.c) */
	dev_t root_dev;      /* -x: the device of the starting point being walked */
	struct diag *diag;
};

/* options.c: fill opt from argv. Returns -1 to go on, else the exit status
 * to leave with (0 after --help or --version). */
int du_parse_options(struct du_opts *opt, int argc, char **argv, struct diag *d);
void du_free_options(struct du_opts *opt);

/* units.c: set block_size and human from a -B argument, or from the
 * environment when spec is NULL. Returns 0, or an error code for
 * units_error(). */
int units_parse(const char *spec, uint64_t *block_size, unsigned *human);

/* timefmt.c */
int timefmt_choose(struct du_opts *opt, const char *style, struct diag *d);
bool timefmt_format(const char *fmt, const struct timespec *ts, struct strbuf *out);

/* walk.c: walk the roots into du->tree. Returns 0, or -1 when the walk
 * could not go on (already reported). */
int du_walk(struct du *du);

/* hops.c: under -L, whether entry e lies beyond more symbolic links than
 * one path may pass (HOPS_TOO_MANY); a directory's count is kept in hops
 * until hops_done(). Returns 0, HOPS_TOO_MANY, or -1 (ENOMEM). */
#define HOPS_TOO_MANY 1
int hops_check(struct keymap *hops, const struct sweep_entry *e);
void hops_done(struct keymap *hops, const struct sweep_entry *e);

/* dedup.c: mark the nodes GNU du would not count (N_SKIP). */
int du_dedup(struct du *du);

/* reread.c: set pos of the children of every N_ORDER directory. */
void du_reread(struct du *du);

/* report.c: print every line. Returns 0, or -1 when memory ran out (other
 * failures are reported). */
int du_report(struct du *du);

/* report.c: -t: whether a line of bytes and inodes is wanted. */
bool du_over_threshold(const struct du_opts *o, uint64_t bytes, uint64_t inodes);

/* a + b, or UINT64_MAX where the sum would wrap: GNU du's sizes stop
 * there and print as "Infinity" (three sparse files of 2^63 bytes add
 * up past 2^64 under -b) */
static inline uint64_t du_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
