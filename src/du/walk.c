/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.c: the libsweep walk behind sweep-du.
 *
 * Entries come in disk order. Each directory becomes a node found again by
 * its libsweep id (below the depth printed, the id finds the node of the
 * printed directory above it: folds()); a file either becomes a node or
 * adds its size to its directory's node. Errors are reported as they come,
 * in GNU du's words, and the walk goes on. Under -L, or with several
 * arguments, a directory met a second time is not read again: it becomes an
 * alias of the first one, and dedup.c decides later which of the two GNU du
 * would have counted.
 * A directory's own size is charged at the end of its walk (its post-order
 * entry), where GNU du may find that it moved meanwhile (on_post).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "du.h"
#include "walkenv.h"

static uint64_t entry_bytes(const struct du_opts *o, const struct stat *st)
{
	if (o->apparent)
		return st->st_size > 0 ? (uint64_t)st->st_size : 0;
	return (uint64_t)st->st_blocks * 512;
}

static struct timespec entry_time(const struct du_opts *o, const struct stat *st)
{
	return o->time_kind == DU_ATIME ? st->st_atim
	     : o->time_kind == DU_CTIME ? st->st_ctim : st->st_mtim;
}

static bool later(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* Add an entry's own size, count and time to node i. */
static void charge(struct du *du, uint32_t i, const struct stat *st)
{
	struct du_node *n = tree_node(&du->tree, i);
	n->bytes = du_add(n->bytes, entry_bytes(&du->opt, st));
	n->inodes++;
	if (!du->tree.keep_times)
		return;
	struct timespec t = entry_time(&du->opt, st);
	struct timespec *newest = &du->tree.times[i];
	if (later(&t, newest))
		*newest = t;
}

static uint32_t parent_node(struct du *du, const struct sweep_entry *e)
{
	if (e->depth == 0)
		return NO_NODE;
	return tree_dir_node(&du->tree, e->parent_id);
}

static void out_of_memory(struct du *du)
{
	diag_error(du->diag, ENOMEM, "fts_read failed");
}

/* Whether e's node keeps its name. Below the depth printed nothing wants
 * it (tree.h); but under -S a printed line holds its own files and not its
 * subdirectories', so which of two names counts shows one level further
 * down; and where every directory may be counted twice (-L, several
 * arguments), GNU du may meet a directory first where it is printed and
 * libsweep where it is not: dedup.c moves its contents there. */
static bool keeps_name(const struct du_opts *o, const struct sweep_entry *e)
{
	return o->max_depth < 0 || o->hash_all ||
	       e->depth - (o->separate_dirs ? 1 : 0) <= o->max_depth;
}

/* A node for e, not charged yet; NO_NODE when memory ran out. */
static uint32_t new_node(struct du *du, const struct sweep_entry *e, uint32_t parent,
                         unsigned flags)
{
	const char *name = e->depth == 0 ? e->path : e->name;
	uint32_t i = tree_add(&du->tree, parent, keeps_name(&du->opt, e) ? name : NULL, flags);
	if (i == NO_NODE)
		return NO_NODE;
	/* directories are opened again by reread.c, which checks who they are */
	if ((flags & (N_DIR | N_CAND)) && tree_identify(&du->tree, i, e->st.st_dev, e->st.st_ino) < 0)
		return NO_NODE;
	return i;
}

/* Whether e must be counted once whatever its number of names. */
static bool is_candidate(const struct du_opts *o, const struct stat *st)
{
	return !o->count_links && (o->hash_all || (!S_ISDIR(st->st_mode) && st->st_nlink > 1));
}

/* Under -L, whether e lies beyond more symbolic links than the kernel
 * follows in one path, as GNU du's stat of it would (reported then);
 * -1 when memory ran out. */
static int too_many_links(struct du *du, const struct sweep_entry *e)
{
	if (du->opt.follow != SWEEP_FOLLOW_ALL)
		return 0;
	int r = hops_check(&du->hops, e);
	if (r == HOPS_TOO_MANY)
		diag_error(du->diag, ELOOP, "cannot access %s", diag_quote(du->diag, 0, e->path));
	return r;
}

/* Whether directory e gets no node of its own, its id standing for the
 * node of the directory above it: below the depth printed, where only its
 * sums are wanted, unless it may be counted twice (its node settles that)
 * or -S keeps its sizes apart from its parent's. On a deep or wide tree
 * under -s, nodes were most of what sweep-du held. */
static bool folds(const struct du_opts *o, const struct sweep_entry *e, bool cand)
{
	return o->max_depth >= 0 && e->depth > o->max_depth && !cand && !o->separate_dirs;
}

static int on_dir(struct du *du, struct sweep *sw, const struct sweep_entry *e)
{
	if (e->flags & SWEEP_E_XDEV)
		return 0; /* GNU du -x leaves mount points out altogether */
	int hops = too_many_links(du, e);
	if (hops != 0) {
		sweep_prune(sw);
		return hops < 0 ? -1 : 0;
	}
	uint32_t parent = parent_node(du, e);
	if (e->depth > 0 && parent == NO_NODE)
		return 0;
	bool cand = is_candidate(&du->opt, &e->st);
	if (folds(&du->opt, e, cand)) /* counted in the printed one above */
		return tree_dir_put(&du->tree, e->dir_id, parent);
	uint32_t i = new_node(du, e, parent, N_DIR | (cand ? N_CAND : 0));
	if (i == NO_NODE || tree_dir_put(&du->tree, e->dir_id, i) < 0)
		return -1;
	if (!cand)
		return 0;
	int err;
	uint32_t first = tree_same(&du->tree, i, &err);
	if (err)
		return -1;
	if (first != NO_NODE) {
		tree_node(&du->tree, i)->flags |= N_ALIAS;
		tree_ident(&du->tree, i)->alias_of = first;
		sweep_prune(sw);
	}
	return 0;
}

/* e could not be looked at (err): said, unless --exclude leaves it out
 * (GNU du applies --exclude before it looks) */
static void cannot_access(struct du *du, const struct sweep_entry *e, int err)
{
	if (!exclude_match(&du->opt.exclude, e->path))
		diag_error(du->diag, err, "cannot access %s", diag_quote(du->diag, 0, e->path));
}

/* A symbolic link that -L or -H should have followed: GNU du cannot
 * access it (and says why unless the link dangles). */
static bool unfollowable(struct du *du, const struct sweep_entry *e)
{
	enum sweep_follow f = du->opt.follow;
	if (!S_ISLNK(e->st.st_mode) || !(f == SWEEP_FOLLOW_ALL ||
	                                  (f == SWEEP_FOLLOW_ROOTS && e->depth == 0)))
		return false;
	struct stat st;
	if (fstatat(e->dirfd, e->name, &st, 0) == 0)
		return false;
	cannot_access(du, e, errno == ENOENT ? 0 : errno);
	return true;
}

/* -a: the line of a file without a node (its size went to its
 * directory's), where it will be printed. Returns 0 or -1 (ENOMEM). */
static int keep_line(struct du *du, const struct sweep_entry *e, uint32_t dir)
{
	const struct du_opts *o = &du->opt;
	uint64_t bytes = entry_bytes(o, &e->st);
	if ((o->max_depth >= 0 && e->depth > o->max_depth) || !du_over_threshold(o, bytes, 1))
		return 0;
	struct timespec t = entry_time(o, &e->st);
	return leaves_add(&du->leaves, dir, e->name, bytes, &t);
}

static int on_file(struct du *du, const struct sweep_entry *e)
{
	/* -x: a file on another file system (bind-mounted on a name, or a
	 * link followed there) is left out, as GNU's; libsweep keeps out
	 * only the directories */
	if (du->opt.xdev && e->depth > 0 && e->st.st_dev != du->root_dev)
		return 0;
	int hops = too_many_links(du, e);
	if (hops != 0)
		return hops < 0 ? -1 : 0;
	if (unfollowable(du, e))
		return 0;
	uint32_t parent = parent_node(du, e);
	if (e->depth > 0 && parent == NO_NODE)
		return 0;
	bool cand = is_candidate(&du->opt, &e->st);
	if (!cand && e->depth > 0) {
		charge(du, parent, &e->st);
		return du->opt.all ? keep_line(du, e, parent) : 0;
	}
	uint32_t i = new_node(du, e, parent, cand ? N_CAND : 0);
	if (i == NO_NODE)
		return -1;
	charge(du, i, &e->st);
	int err;
	if (cand)
		tree_same(&du->tree, i, &err);
	return cand && err ? -1 : 0;
}

/* The end of a directory's walk: its own size is charged now, for GNU du
 * counts none where the directory below a starting point is no longer at
 * its path by then (renamed or moved while it was read; GNU's fts finds it
 * on its way back up): "PATH: No such file or directory", status 1, and
 * the directory is printed as a file would be (with -a). */
static void on_post(struct du *du, const struct sweep_entry *e)
{
	hops_done(&du->hops, e);
	uint32_t i = tree_dir_node(&du->tree, e->dir_id);
	if (i == NO_NODE)
		return;
	struct stat st;
	/* not a starting point: GNU du's walk goes back to where it started
	 * from without looking (or, deep down, loses its way: "fts_read
	 * failed") */
	if (e->depth == 0 || fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    errno != ENOENT) {
		charge(du, i, &e->st);
		return;
	}
	diag_error(du->diag, ENOENT, "%s", diag_quote_style(du->diag, 0, QUOTE_SHELL_COLON, e->path));
	const struct du_ident *id = tree_ident(&du->tree, i);
	if (id && id->dev == (uint64_t)e->st.st_dev && id->ino == (uint64_t)e->st.st_ino)
		tree_node(&du->tree, i)->flags |= N_GONE; /* its own node, not folded */
	charge(du, i, &(struct stat){ 0 }); /* what GNU du counts: its entry */
}

/* Reports e; -1 where the walk ran out of memory, which ends it as it
 * ends GNU du's (out_of_memory). */
static int on_error(struct du *du, const struct sweep_entry *e)
{
	struct diag *d = du->diag;
	switch (e->op) {
	case SWEEP_OP_NOMEM:
		return -1;
	case SWEEP_OP_READDIR:
		diag_error(d, e->error, "cannot read directory %s", diag_quote(d, 0, e->path));
		break;
	case SWEEP_OP_LOOP:
		break; /* GNU du skips a directory that is its own ancestor, silently */
	default:
		cannot_access(du, e, e->error);
		break;
	}
	return 0;
}

static enum sweep_verdict excluded(const struct sweep_entry *e, void *arg)
{
	const struct du *du = arg;
	return exclude_match(&du->opt.exclude, e->path) ? SWEEP_PRUNE : SWEEP_KEEP;
}

/* Add the roots; an empty name is an error of its own, as in GNU du, and
 * so is "-" among names read from standard input (it cannot be read twice). */
static int add_roots(struct du *du, struct sweep *sw)
{
	bool from_stdin = du->opt.files0 && strcmp(du->opt.files0, "-") == 0;
	for (size_t i = 0; du->opt.roots[i]; i++) {
		const char *r = du->opt.roots[i];
		if (from_stdin && strcmp(r, "-") == 0) {
			diag_error(du->diag, 0, "when reading file names from stdin, no file name "
			           "of '-' allowed");
			continue;
		}
		if (*r == 0) {
			if (du->opt.files0)
				diag_error(du->diag, 0, "%s:%zu: invalid zero-length file name",
				           diag_quote_style(du->diag, 0, QUOTE_SHELL_COLON,
				                            du->opt.files0), i + 1);
			else
				diag_error(du->diag, 0, "invalid zero-length file name");
			continue;
		}
		if (sweep_add_root(sw, AT_FDCWD, r) < 0)
			return -1;
	}
	return 0;
}

/* SWEEP_DU_BUFFER_SIZE: bytes of files' lines to keep in memory (0:
 * LEAVES_BYTES). */
static size_t leaves_chunk(void)
{
	const char *v = getenv("SWEEP_DU_BUFFER_SIZE");
	char *end;
	unsigned long long n = v ? strtoull(v, &end, 10) : 0;
	return v && *v && !*end && n <= SIZE_MAX / 2 ? (size_t)n : 0;
}

int du_walk(struct du *du)
{
	struct sweep_options so = {
		.order = du->opt.order,
		.warm = du->opt.warm,
		.follow = du->opt.follow,
		.flags = SWEEP_NODATA | SWEEP_POSTORDER | (du->opt.xdev ? SWEEP_XDEV : 0) | walkenv_flags(),
		.filter = du->opt.exclude.n ? excluded : NULL,
		.filter_arg = du,
	};
	du->tree.keep_times = du->opt.show_time;
	leaves_init(&du->leaves, leaves_chunk(), du->opt.show_time);
	struct sweep *sw = sweep_open(NULL, &so);
	int ret = -1;
	if (!sw || add_roots(du, sw) < 0)
		goto out;
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		int r = 0;
		if (e->depth == 0 && e->kind != SWEEP_ERROR && e->kind != SWEEP_DIR_POST)
			du->root_dev = e->st.st_dev; /* (the roots are walked one by one) */
		if (e->kind == SWEEP_DIR)
			r = on_dir(du, sw, e);
		else if (e->kind == SWEEP_ERROR)
			r = on_error(du, e);
		else if (e->kind == SWEEP_DIR_POST)
			on_post(du, e);
		else
			r = on_file(du, e);
		if (r < 0)
			goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		out_of_memory(du);
	sweep_close(sw);
	keymap_free(&du->hops);
	return ret;
}
