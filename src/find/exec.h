/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exec.h: commands run by -exec, -execdir, -ok and -okdir: parsing and the
 * ";" form in exec.c, the "+" form's batches in batch.c.
 */
#ifndef SWEEP_FIND_EXEC_H
#define SWEEP_FIND_EXEC_H

#include "find.h"

/* Names gathered for one command of the "+" form. */
struct batch {
	uint64_t dir;   /* -execdir: libsweep id of the files' directory, 0 for
	                   starting points; -exec: 0 */
	char *rootdir;  /* -execdir, starting points: their directory's name */
	int fd;         /* -execdir: that directory, else -1 */
	char **names;
	size_t n, cap, bytes;
	uint64_t used;  /* when a name was last added (the oldest goes first) */
};

struct exec {
	struct exec *next;     /* every exec of the expression, in f->execs */
	const char *name;      /* "-exec", "-execdir"... */
	char **tmpl;           /* the command as written, {} included */
	int ntmpl;
	int brace;             /* "+" form: index of the {} in tmpl, else -1 */
	bool dir, ok;
	struct batch *batches; /* "+" form: one, or one per directory (-execdir) */
	size_t nbatches;
	uint64_t clock;
};

/* exec.c */
int exec_run(struct find *f, char **argv, int dirfd, bool null_stdin);
bool exec_succeeded(int status);
const char *exec_brace_name(struct find *f, const struct exec *ex, const struct sweep_entry *e);
int exec_dir_of(struct find *f, const struct sweep_entry *e, bool *own);

/* batch.c */
eval_fn batch_eval;
/* The walk is done with directory dir: run its -execdir batches. */
void batch_dir_done(struct find *f, uint64_t dir);
/* Run what is still gathered in every "+" command. */
void exec_flush_all(struct find *f);
void batch_free_all(struct exec *ex);

#endif
