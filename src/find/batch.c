/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * batch.c: the "+" form of -exec and -execdir: names gathered into as few
 * commands as fit GNU find's 128 KiB command buffer; the command always
 * succeeds as a test, and a command that fails makes the exit status 1.
 *
 * -execdir runs each command in the directory of its files. The walk goes
 * from directory to directory in disk order, so one batch is kept per
 * directory (up to OPEN_BATCHES at a time, each holding a descriptor on
 * its directory) and run when the walk is done with that directory: one
 * command per directory, as GNU find's depth-first walk gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec.h"

#define BATCH_BYTES  (128u << 10) /* strings and their NULs */
#define OPEN_BATCHES 32

static void clear_names(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->names[i]);
	b->n = b->bytes = 0;
}

/* Run b's command, if it has names. */
static void run_batch(struct find *f, struct exec *ex, struct batch *b)
{
	if (!b->n)
		return;
	char **argv = calloc((size_t)ex->ntmpl + b->n, sizeof(*argv));
	if (!argv) {
		diag_error(f->diag, ENOMEM, "%s", ex->name);
		clear_names(b);
		return;
	}
	size_t k = 0;
	for (int i = 0; i < ex->brace; i++)
		argv[k++] = ex->tmpl[i];
	for (size_t i = 0; i < b->n; i++)
		argv[k++] = b->names[i];
	for (int i = ex->brace + 1; i < ex->ntmpl; i++)
		argv[k++] = ex->tmpl[i];
	if (!exec_succeeded(exec_run(f, argv, b->fd, false)))
		diag_fail(f->diag, 1);
	free(argv);
	clear_names(b);
}

/* Run batch i and forget it. */
static void drop(struct find *f, struct exec *ex, size_t i)
{
	struct batch *b = &ex->batches[i];
	run_batch(f, ex, b);
	free(b->names);
	free(b->rootdir);
	if (b->fd >= 0)
		close(b->fd);
	ex->batches[i] = ex->batches[--ex->nbatches];
}

static size_t fixed_bytes(const struct exec *ex)
{
	size_t n = 0;
	for (int i = 0; i < ex->ntmpl; i++)
		if (i != ex->brace)
			n += strlen(ex->tmpl[i]) + 1;
	return n;
}

/* The batch for directory dir (and rootdir, for starting points); a
 * starting point in another directory ends the one before. */
static struct batch *lookup(struct find *f, struct exec *ex, uint64_t dir, const char *rootdir)
{
	for (size_t i = 0; i < ex->nbatches; i++) {
		struct batch *b = &ex->batches[i];
		if (b->dir != dir)
			continue;
		if (!rootdir || !b->rootdir || strcmp(rootdir, b->rootdir) == 0)
			return b;
		drop(f, ex, i);
		return NULL;
	}
	return NULL;
}

/* A new batch for e's directory; NULL when it cannot be had (reported). */
static struct batch *open_batch(struct find *f, struct exec *ex, const struct sweep_entry *e,
                                uint64_t dir, const char *rootdir)
{
	size_t limit = ex->dir ? OPEN_BATCHES : 1;
	if (ex->nbatches == limit) {
		size_t oldest = 0;
		for (size_t i = 1; i < ex->nbatches; i++)
			if (ex->batches[i].used < ex->batches[oldest].used)
				oldest = i;
		drop(f, ex, oldest);
	}
	if (!ex->batches && !(ex->batches = calloc(limit, sizeof(*ex->batches)))) {
		diag_error(f->diag, ENOMEM, "%s", ex->name);
		return NULL;
	}
	struct batch b = { .dir = dir, .fd = -1 };
	if (ex->dir) {
		bool own;
		int fd = exec_dir_of(f, e, &own);
		b.fd = own || fd < 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
		b.rootdir = rootdir ? strdup(rootdir) : NULL;
		if (b.fd < 0 || (rootdir && !b.rootdir)) {
			if (b.fd >= 0)
				close(b.fd);
			free(b.rootdir);
			return NULL;
		}
	}
	ex->batches[ex->nbatches] = b;
	return &ex->batches[ex->nbatches++];
}

static int push(struct batch *b, char *name, size_t len)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char **v = reallocarray(b->names, cap, sizeof(*v));
		if (!v)
			return -1;
		b->names = v;
		b->cap = cap;
	}
	b->names[b->n++] = name;
	b->bytes += len;
	return 0;
}

bool batch_eval(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	struct exec *ex = x->a.exec;
	struct strbuf dirname = STRBUF_INIT;
	const char *rootdir = ex->dir && e->depth == 0 ? entry_dirname(e, &dirname) : NULL;
	uint64_t dir = ex->dir && e->depth > 0 ? e->parent_id : 0;
	char *name = strdup(exec_brace_name(f, ex, e));
	struct batch *b = name ? lookup(f, ex, dir, rootdir) : NULL;
	if (name && !b)
		b = open_batch(f, ex, e, dir, rootdir);
	sb_free(&dirname);
	if (!b) {
		if (!name)
			diag_error(f->diag, ENOMEM, "%s", ex->name);
		free(name);
		return true;
	}
	size_t len = strlen(name) + 1;
	if (b->n && fixed_bytes(ex) + b->bytes + len > BATCH_BYTES)
		run_batch(f, ex, b);
	b->used = ++ex->clock;
	if (push(b, name, len) < 0) {
		free(name);
		diag_error(f->diag, ENOMEM, "%s", ex->name);
	}
	return true;
}

void batch_dir_done(struct find *f, uint64_t dir)
{
	for (struct exec *ex = f->execs; ex; ex = ex->next)
		for (size_t i = 0; ex->dir && i < ex->nbatches; i++)
			if (ex->batches[i].dir == dir) {
				drop(f, ex, i);
				break;
			}
}

void exec_flush_all(struct find *f)
{
	for (struct exec *ex = f->execs; ex; ex = ex->next)
		while (ex->nbatches)
			drop(f, ex, 0);
}

void batch_free_all(struct exec *ex)
{
	for (size_t i = 0; i < ex->nbatches; i++) {
		struct batch *b = &ex->batches[i];
		clear_names(b);
		free(b->names);
		free(b->rootdir);
		if (b->fd >= 0)
			close(b->fd);
	}
	free(ex->batches);
	ex->batches = NULL;
	ex->nbatches = 0;
}
