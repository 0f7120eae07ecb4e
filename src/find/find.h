/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * find.h: sweep-find's expression tree and run state.
 *
 *   main.c     the run: parse, walk, flush, exit status
 *   state.c    struct find's defaults and release
 *   parse.c    command line: leading options, starting points, the
 *              expression grammar (! -not -a -o , ( )) and GNU's messages
 *   primaries.c  the table of tests, actions and options, and their parsers
 *   args.c     argument parsers shared by primaries: numbers, times, sizes
 *   mode.c     -perm's octal and symbolic modes
 *   tests.c    evaluation of the tests
 *   context.c  -context, refused: no SELinux contexts are read
 *   times.c    -amin -atime and the like
 *   newer.c    -newer -anewer -cnewer -newerXY
 *   date.c     the dates of -newerXt
 *   actions.c  -print, -print0, -fprint, -ls, -delete, -quit, -prune
 *   printf.c   -printf formats: compiled once, run per file
 *   ls.c       the -ls line, with GNU's growing column widths
 *   exec.c     -exec, -execdir, -ok, -okdir: parsing, running, {} ;
 *   batch.c    the {} + form: names gathered per command (per directory)
 *   output.c   output files (-fprint...) and names printed to terminals
 *   names.c    an entry's %f, %h, %P, link target, and status on demand
 *   fstype.c   %F: file system types from the mount table
 *   walk.c     the libsweep walk: depth limits, -prune, -depth, errors
 */
#ifndef SWEEP_FIND_H
#define SWEEP_FIND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include "diag.h"
#include "idcache.h"
#include "keymap.h"
#include "strbuf.h"
#include "sweep.h"

enum cmp { CMP_EQ, CMP_LT, CMP_GT };

enum expr_kind { EX_PRED, EX_NOT, EX_AND, EX_OR, EX_COMMA };

/* What a primary needs to know of a file besides its name. */
#define NEED_TYPE 0x01u /* its type (known from the directory) */
#define NEED_STAT 0x02u /* its status: sizes, times, owners, modes... */

struct find;
struct expr;
struct fmt;
struct exec;
struct out;
struct fstypes;

typedef bool eval_fn(struct expr *x, struct find *f, const struct sweep_entry *e);

/* -size, -links, -inum, -uid...: a number with +/- */
struct num_arg {
	enum cmp cmp;
	uintmax_t n;
	uintmax_t unit; /* -size: bytes per unit */
};

/* -mtime, -mmin...: the moment to compare with, see args.c */
struct time_arg {
	enum cmp cmp;
	struct timespec ref;
	int window;   /* seconds: an "equal" match lies in (ref, ref + window] */
	char which;   /* 'a', 'c', 'm', or 'B' (-newerBY) */
};

struct perm_arg {
	mode_t mode[2]; /* for non-directories, directories ('X' differs) */
	char kind;      /* '=' exact, '-' all bits, '/' any bit */
};

struct expr {
	enum expr_kind kind;
	eval_fn *eval;
	void (*free)(struct expr *x); /* releases what a holds, or NULL */
	unsigned needs;     /* NEED_TYPE, NEED_STAT: what it looks at */
	bool narrows;       /* a test on names: few entries pass it */
	struct expr *l, *r;
	const char *name;   /* the primary as written */
	union {
		struct { const char *pat; int flags; } glob;
		struct re_pattern_buffer *re;
		struct num_arg num;
		struct time_arg time;
		struct { enum cmp cmp; double days; } used;
		struct perm_arg perm;
		unsigned types;  /* -type, -xtype: bit (1 << type letter index) */
		struct { dev_t dev; ino_t ino; } same;
		const char *fstype; /* -fstype */
		struct { struct out *out; struct fmt *fmt; int eol; } print;
		struct exec *exec;
	} a;
};

struct find_opts {
	enum sweep_follow follow;
	enum sweep_order order;
	enum sweep_warm warm;
	bool depth;         /* -depth, -delete: directories after their contents */
	bool depth_given;   /* -depth itself */
	bool xdev;
	bool warnings;
	bool has_delete, has_prune;
	bool ignore_race;   /* -ignore_readdir_race: files gone since their
	                       directory was read pass without a word */
	int maxdepth;       /* -1: no limit */
	int mindepth;
	struct timespec now;
	bool daystart;
	struct timespec origin; /* what -mtime... count back from: now, or after
	                           -daystart the coming midnight, as in GNU */
	const char *regex_type; /* -regextype's name, NULL before any */
	unsigned long regex_syntax; /* its glibc syntax bits (reg_syntax_t) */
	const char *files0_from; /* -files0-from FILE */
};

/* -ls column widths; they only grow, as in GNU find */
struct ls_widths {
	int inode, blocks, nlink, owner, group, size, major, minor;
};

struct find {
	struct find_opts opt;
	struct diag *diag;
	struct expr *expr;
	char **roots;
	size_t nroots;
	char **files0_roots;   /* files0.c: the roots -files0-from read */
	char *files0_data;     /* and the text they are in */
	struct sweep *sw;
	const char *root;      /* the starting point being walked */
	bool prune;            /* -prune said so for this entry */
	bool quit;             /* -quit */
	struct idcache ids;
	struct keymap dirs;    /* libsweep dir id -> parent id, for loop messages */
	struct ls_widths ls;
	struct out *outs;      /* every output file, standard output first */
	struct exec *execs;    /* every -exec..., to flush batches at the end */
	struct strbuf scratch; /* per-entry temporary text */
	struct fstypes *fstypes; /* %F: read from the mount table when needed */
	/* the status of the entry being evaluated, fetched when first needed */
	uint64_t serial;       /* counts entries */
	uint64_t lazy_serial;  /* the entry lazy belongs to */
	uint64_t looked_serial; /* the entry whose status a test looked at */
	uint64_t ran_serial;   /* one a command ran on before any test did */
	bool lazy_ok;
	bool no_stat;          /* it could not be examined: tests on its status fail */
	struct stat lazy;
};

/* parse.c: the whole command line. Returns -1 to go on, or an exit status. */
int find_parse(struct find *f, int argc, char **argv);
/* state.c: defaults (SWEEP_ORDER and SWEEP_WARM read), and the release of
 * everything parse and walk gathered (output files closed, errors reported). */
void find_init(struct find *f, struct diag *d);
void find_free(struct find *f);

/* primaries.c */
void expr_free(struct expr *x);

/* primaries.c */
struct parser;
typedef int parse_fn(struct parser *p, struct expr *x);
struct primary {
	const char *name;
	parse_fn *parse;
	unsigned flags;
};
#define PRIM_ACTION  0x01u /* suppresses the default -print */
#define PRIM_OPTION  0x02u /* a global option: always true */
#define PRIM_NAMED   0x04u /* name is a pattern (-newerXY): keep the word */
const struct primary *primary_find(const char *name);
struct expr *parse_primary(struct parser *p, const char *tok, bool *is_action, int *status);

/* the parser's cursor, for primaries that take arguments */
struct parser {
	struct find *f;
	char **argv;
	int argc, i;
	const char *first_arg; /* the first test, action or operator */
	const char *last_prim; /* the last primary parsed */
};
/* The next argument of the primary being parsed, or NULL after "missing
 * argument" was reported. */
const char *parser_arg(struct parser *p, const char *prim);

/* walk.c */
int find_walk(struct find *f);
/* Evaluate the expression for e, as -exec and friends see it. */
bool find_eval(struct find *f, struct expr *x, const struct sweep_entry *e);

/* names of an entry (names.c) */
const char *entry_basename(const struct sweep_entry *e, struct strbuf *sb);
const char *entry_matchname(const struct sweep_entry *e, struct strbuf *sb);
const char *entry_dirname(const struct sweep_entry *e, struct strbuf *sb);
const char *entry_relative(const struct find *f, const struct sweep_entry *e);
bool entry_follows(const struct find *f, const struct sweep_entry *e);
const char *entry_link(const struct sweep_entry *e, struct strbuf *sb);
const struct stat *entry_stat(struct find *f, const struct sweep_entry *e);
/* Whether the failure err to examine e is a file removed since its
 * directory was read, which -ignore_readdir_race keeps quiet. */
bool entry_vanished(const struct find *f, const struct sweep_entry *e, int err);

#endif
