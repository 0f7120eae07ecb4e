/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c: one libsweep walk per source tree, each entry handed to the
 * file that makes its kind on the destination side (see copy.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "copyint.h"
#include "walkenv.h"

struct copy *copy_new(const struct copy_opts *opt, struct diag *d)
{
	struct copy *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = opt;
	c->d = d;
	c->umask = umask(0);
	umask(c->umask);
	c->buf = malloc(COPY_BUFSIZE);
	if (!c->buf) {
		free(c);
		return NULL;
	}
	return c;
}

void copy_free(struct copy *c)
{
	if (!c)
		return;
	destdir_close_all(c);
	keymap_free(&c->dirs);
	keymap_free(&c->links);
	keymap_free(&c->made_tops);
	keymap_free(&c->operand_dirs);
	sb_free(&c->operand_names);
	keymap_free(&c->made_dirs);
	keymap_free(&c->pruned);
	sb_free(&c->rel);
	sb_free(&c->drel);
	sb_free(&c->shown);
	sb_free(&c->target);
	sb_free(&c->bshown);
	sb_free(&c->link_names);
	free(c->tops);
	free(c->buf);
	free(c);
}

void copy_counts(const struct copy *c, uint64_t *files, uint64_t *bytes)
{
	*files = c->files;
	*bytes = c->bytes + writer_bytes(c);
}

const char *cq(struct copy *c, int slot, const char *name)
{
	return diag_quote(c->d, slot, name);
}

void copy_error(struct copy *c, int err, const char *fmt, ...)
{
	if (c->hush) {
		c->hushed = true;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(c->d, err, fmt, ap);
	va_end(ap);
	diag_fail(c->d, 1);
	c->failed = true;
	c->errors++;
}

void copy_warn(struct copy *c, bool required, int err, const char *fmt, ...)
{
	if (c->hush) {
		c->hushed = true;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(c->d, err, fmt, ap);
	va_end(ap);
	if (required) {
		diag_fail(c->d, 1);
		c->failed = true;
		c->errors++;
	}
}

void copy_verbose(struct copy *c, const struct sweep_entry *e, const char *backup)
{
	if (!c->o->verbose)
		return;
	printf("%s -> %s", cq(c, 0, e->path), cq(c, 1, sb_str(&c->shown)));
	if (backup)
		printf(" (backup: %s)", cq(c, 2, backup));
	putchar('\n');
}

void copy_prune(struct copy *c, const struct sweep_entry *e)
{
	if (c->sw)
		sweep_prune(c->sw);
	else if (keymap_put(&c->pruned, e->dir_id, 0, 1) < 0) {
		copy_error(c, 0, "memory exhausted"); /* the end, as for the walk's */
		c->nomem = true;
	}
}

bool copy_as_file(const struct copy *c, const struct sweep_entry *e)
{
	/* (GNU cp without -R: "cp /dev/null f" empties f) */
	mode_t m = e->st.st_mode;
	return S_ISREG(m) || (!c->o->recursive && (S_ISCHR(m) || S_ISBLK(m)));
}

/* sweep-cp without -R: a socket named as an operand, which GNU cp tries
 * to read as a file (a fifo is made again: sweep-cp(1)) */
static bool socket_operand(const struct copy *c, const struct sweep_entry *e)
{
	return S_ISSOCK(e->st.st_mode) && e->depth == 0 && !c->o->recursive && !c->o->decide;
}

bool copy_follows(const struct copy *c, const struct sweep_entry *e)
{
	return c->o->follow == SWEEP_FOLLOW_ALL ||
	       (c->o->follow == SWEEP_FOLLOW_ROOTS && e->depth == 0);
}

/* Build the entry's names: below the root, below top_fd, and as shown. */
int copy_names(struct copy *c, const struct sweep_entry *e)
{
	const char *rel = e->path + (e->depth ? c->src_rootlen : e->pathlen);
	while (*rel == '/')
		rel++;
	sb_reset(&c->rel);
	sb_reset(&c->drel);
	sb_reset(&c->shown);
	if (sb_addstr(&c->rel, rel) < 0 || sb_addstr(&c->drel, c->top_name) < 0 ||
	    sb_addstr(&c->shown, c->top_shown) < 0)
		return -1;
	if (!*rel)
		return 0;
	if (sb_addc(&c->drel, '/') < 0 || sb_addstr(&c->drel, rel) < 0)
		return -1;
	size_t n = c->shown.len;
	if ((n == 0 || c->shown.s[n - 1] != '/') && sb_addc(&c->shown, '/') < 0)
		return -1;
	return sb_addstr(&c->shown, rel);
}

/* GNU cp's words for what the walk could not do. */
static void walk_error(struct copy *c, const struct sweep_entry *e)
{
	switch (e->op) {
	case SWEEP_OP_OPEN: {
		struct stat st;
		/* -n, -u: a copy kept needs no source: nothing said, as GNU's */
		if (copy_names(c, e) == 0 && replace_kept(c, e))
			break;
		/* GNU cp -v names the copy before it finds the source unreadable,
		 * where it was to be made: nothing there, or no -n, -u, -i or
		 * backup to have it not made (or made otherwise) */
		if (c->o->verbose && !c->o->decide &&
		    ((c->o->exist == COPY_OVERWRITE && !c->o->update && !c->o->backup) ||
		     (replace_look(c, e, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)))
			copy_verbose(c, e, NULL);
		copy_error(c, e->error, "cannot open %s for reading", cq(c, 0, e->path));
		break;
	}
	case SWEEP_OP_READDIR:
		copy_error(c, e->error, "cannot access %s", cq(c, 0, e->path));
		break;
	case SWEEP_OP_LOOP: { /* (GNU cp's words for any directory met below itself) */
		struct stat st;
		if (!c->o->decide ||
		    (fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)))
			copy_error(c, 0, "cannot copy cyclic symbolic link %s", cq(c, 0, e->path));
		else
			copy_error(c, 0, "%s: file system loop detected", cq(c, 0, e->path));
		break;
	}
	case SWEEP_OP_NOMEM: /* the end, as GNU cp's xalloc_die() */
		copy_error(c, 0, "memory exhausted");
		c->nomem = true;
		break;
	default:
		copy_error(c, e->error, "cannot stat %s", cq(c, 0, e->path));
		break;
	}
}

/* Regular files' sizes as the walk finds them, for --progress. */
static enum sweep_verdict count_filter(const struct sweep_entry *e, void *arg)
{
	struct copy *c = arg;
	if (S_ISREG(e->st.st_mode))
		c->known += (uint64_t)e->st.st_size;
	return SWEEP_KEEP;
}

/* Regular files' sizes as the walk finds them, and the decide hook. */
static enum sweep_verdict engine_filter(const struct sweep_entry *e, void *arg)
{
	struct copy *c = arg;
	struct sweep_entry view;
	if (c->o->source_view)
		e = c->o->source_view(c->o->arg, e, &view);
	if (c->o->progress)
		count_filter(e, arg);
	return c->o->decide ? check_entry(c, e) : SWEEP_KEEP;
}

static void copy_entry(struct copy *c, const struct sweep_entry *e)
{
	if (e->kind == SWEEP_ERROR) {
		if (c->o->walk_error) {
			c->o->walk_error(c->o->arg, e); /* its status is the caller's */
		} else {
			walk_error(c, e);
		}
		return;
	}
	/* a dry run only looks into the directories that are there */
	if (c->o->dry_run && e->kind != SWEEP_DIR && e->kind != SWEEP_DIR_POST)
		return;
	if (copy_names(c, e) < 0) {
		copy_error(c, ENOMEM, "%s", cq(c, 0, e->path));
		return;
	}
	if (S_ISLNK(e->st.st_mode) && copy_follows(c, e)) {
		/* a link to follow that leads nowhere: GNU cannot stat it */
		struct stat st;
		int err = fstatat(e->dirfd, e->name, &st, 0) < 0 ? errno : ENOENT;
		copy_error(c, err, "cannot stat %s", cq(c, 0, e->path));
		return;
	}
	c->made = false;
	uint64_t errors = c->errors;
	switch (e->kind) {
	case SWEEP_DIR:
		dirs_enter(c, e);
		if (c->o->depth_cap && e->depth >= c->o->depth_cap - 1)
			copy_prune(c, e);
		break;
	case SWEEP_DIR_POST:
		dirs_leave(c, e);
		break;
	case SWEEP_DATA:
		regular_copy(c, e);
		break;
	default:
		if (copy_as_file(c, e))
			regular_copy(c, e);
		else if (socket_operand(c, e)) /* (GNU cp opens it to read it) */
			copy_error(c, ENXIO, "cannot open %s for reading", cq(c, 0, e->path));
		else
			special_copy(c, e);
		break;
	}
	if (c->made && c->errors == errors && c->o->done && copy_names(c, e) == 0)
		c->o->done(c->o->arg, e, sb_str(&c->rel), NULL);
	if (e->kind == SWEEP_DATA || e->kind == SWEEP_FILE) {
		writeback_file_done(c);
		c->files++;
		if (c->o->progress)
			c->o->progress(c->o->arg, c->files, c->bytes + writer_bytes(c),
			               c->known);
	}
}

static struct sweep *open_walk(struct copy *c)
{
	const struct copy_opts *o = c->o;
	/* -l and -s never read a file: no data phase for them */
	bool nodata = o->hard_link || o->symbolic_link;
	struct sweep_options so = {
		.order = o->order,
		.warm = o->warm,
		.follow = o->follow,
		.flags = SWEEP_POSTORDER | (o->one_fs ? SWEEP_XDEV : 0) | walkenv_flags() |
		         (nodata ? SWEEP_NODATA : 0),
		.filter = o->progress || o->decide ? engine_filter : NULL,
		.filter_arg = c,
	};
	return sweep_open(NULL, &so);
}

static int add_top(struct copy *c, int fd)
{
	int *v = reallocarray(c->tops, c->ntops + 1, sizeof(*v));
	if (!v)
		return -1;
	c->tops = v;
	c->tree = c->ntops;
	v[c->ntops++] = fd;
	return 0;
}

/* Point the copy at its tree. Returns 0 or -1 (reported). */
static int tree_start(struct copy *c, const char *src, int dst_dirfd, const char *name,
                      const char *dst_shown)
{
	c->src_root = src;
	c->src_rootlen = strlen(src);
	c->top_fd = dst_dirfd;
	c->top_name = name;
	c->top_shown = dst_shown;
	c->dest_known = false;
	c->failed = false;
	writeback_plan(c);
	if (add_top(c, dst_dirfd) < 0) {
		copy_error(c, errno, "%s", cq(c, 0, src));
		writeback_end(c);
		return -1;
	}
	writer_start(c);
	return 0;
}

/* Whether the copy goes on to the next entry: not after memory ran out,
 * nor after a failed write under write_error_ends (rsync's receiver exits
 * then: a disk that filled fails every file after). */
static bool going(struct copy *c)
{
	return !c->nomem && !(c->o->write_error_ends && copy_write_failed(c));
}

bool copy_write_failed(const struct copy *c)
{
	return c->write_failed || writer_write_failed(c);
}

static int tree_end(struct copy *c)
{
	writer_stop(c); /* its files' data before the last batch's write-out */
	writeback_end(c);
	destdir_close_all(c);
	return c->failed ? -1 : 0;
}

int copy_tree(struct copy *c, const char *src, int dst_dirfd, const char *name,
              const char *dst_shown)
{
	if (tree_start(c, src, dst_dirfd, name, dst_shown) < 0)
		return -1;
	if (!(c->sw = open_walk(c))) {
		copy_error(c, errno, "%s", cq(c, 0, src));
		writer_stop(c);
		writeback_end(c);
		return -1;
	}
	if (sweep_add_root(c->sw, AT_FDCWD, src) < 0)
		copy_error(c, errno, "%s", cq(c, 0, src));
	const struct sweep_entry *e;
	struct sweep_entry view;
	while (going(c) && (e = sweep_next(c->sw)) != NULL)
		copy_entry(c, c->o->source_view ? c->o->source_view(c->o->arg, e, &view) : e);
	sweep_close(c->sw);
	c->sw = NULL;
	return tree_end(c);
}

/* Whether e lies below a directory passed over (then, a directory, it is
 * passed over too). */
static bool below_pruned(struct copy *c, const struct sweep_entry *e)
{
	if (e->kind == SWEEP_DIR_POST)
		return keymap_get(&c->pruned, e->dir_id, 0) != NULL;
	if (e->depth == 0 || !keymap_get(&c->pruned, e->parent_id, 0))
		return false;
	if (e->kind == SWEEP_DIR)
		copy_prune(c, e);
	return true;
}

int copy_stream(struct copy *c, const char *src, int dst_dirfd, const char *name,
                const char *dst_shown, const struct sweep_entry *(*next)(void *arg),
                void *arg)
{
	if (tree_start(c, src, dst_dirfd, name, dst_shown) < 0)
		return -1;
	const struct sweep_entry *e;
	while (going(c) && (e = next(arg)) != NULL) {
		if (e->kind != SWEEP_ERROR && below_pruned(c, e))
			continue;
		if (e->kind != SWEEP_ERROR && e->kind != SWEEP_DIR_POST && c->o->decide &&
		    check_entry(c, e) == SWEEP_PRUNE) {
			if (e->kind == SWEEP_DIR)
				copy_prune(c, e);
			continue;
		}
		copy_entry(c, e);
	}
	keymap_free(&c->pruned);
	return tree_end(c);
}
