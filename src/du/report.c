/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c: the totals and the lines of sweep-du's output.
 *
 * One depth-first pass over the tree, siblings in name order, each
 * directory printed after everything below it, as GNU du prints (GNU's
 * sibling order is the directory's, which is arbitrary; this one is
 * reproducible). Duplicates (N_SKIP) are neither counted nor printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "du.h"
#include "human.h"
#include "strbuf.h"

struct sums {
	uint64_t bytes, inodes;
	struct timespec time;
	bool any; /* time is set */
};

struct frame {
	uint32_t node, next_child;
	size_t lines_start, lines, lines_end; /* its files' lines in pending,
	                         and the next one to print */
	size_t pathlen;    /* path length before this node's name */
	int depth;
	struct sums all;   /* everything below */
	struct sums sep;   /* itself and its non-directories: -S */
};

struct printer {
	struct du *du;
	struct strbuf path;
	struct frame *v;
	size_t n, cap;
	struct sums grand;
	struct strbuf when;    /* a line's time, as --time-style has it */
	struct strbuf pending; /* the lines of the files of the directories on
	                          the path (leaves.h), as GNU du's walk holds
	                          their entries: struct line, each */
};

/* A file's line taken from the leaves for its directory's turn. */
struct line {
	uint64_t bytes;
	struct timespec time;
	size_t size;           /* of this, its name and padding */
	char name[];
};

static void add_sums(struct sums *to, const struct sums *from)
{
	to->bytes = du_add(to->bytes, from->bytes);
	to->inodes = du_add(to->inodes, from->inodes);
	if (from->any && (!to->any || from->time.tv_sec > to->time.tv_sec ||
	                  (from->time.tv_sec == to->time.tv_sec &&
	                   from->time.tv_nsec > to->time.tv_nsec))) {
		to->time = from->time;
		to->any = true;
	}
}

bool du_over_threshold(const struct du_opts *o, uint64_t bytes, uint64_t inodes)
{
	uint64_t v = o->inodes ? inodes : bytes;
	return !(o->threshold > 0 && v < (uint64_t)o->threshold) &&
	       /* (the magnitude in unsigned: -INTMAX_MIN overflows) */
	       !(o->threshold < 0 && v > 0 - (uint64_t)o->threshold);
}

static bool over_threshold(const struct du_opts *o, const struct sums *s)
{
	return du_over_threshold(o, s->bytes, s->inodes);
}

static void print_line(struct printer *p, const struct sums *s, const char *name)
{
	const struct du_opts *o = &p->du->opt;
	char num[HUMAN_BUFSIZE];
	uint64_t v = o->inodes ? s->inodes : s->bytes;
	fputs(v == UINT64_MAX ? "Infinity" : human_format(v, 1, o->block_size, o->human, num), stdout);
	putchar('\t');
	if (o->show_time) {
		if (!timefmt_format(o->time_format, &s->time, &p->when))
			diag_warn(p->du->diag, 0, "time %s is out of range",
			          diag_quote_style(p->du->diag, 0, QUOTE_LOCALE, sb_str(&p->when)));
		fwrite(p->when.s, 1, p->when.len, stdout);
		putchar('\t');
	}
	fputs(name, stdout);
	putchar(o->null ? 0 : '\n');
}

/* Take directory i's files' lines from the leaves (they come in the order
 * directories are entered, then by name). */
static int take_lines(struct printer *p, uint32_t i, size_t *start, size_t *end)
{
	struct strbuf *b = &p->pending;
	*start = b->len;
	const struct du_leaf *lf;
	while ((lf = leaves_peek(&p->du->leaves)) && lf->dir == i) {
		size_t namelen = strlen(lf->name) + 1;
		size_t size = (sizeof(struct line) + namelen + 7) & ~(size_t)7;
		if (sb_reserve(b, size) < 0)
			return -1;
		struct line *ln = (struct line *)(b->s + b->len);
		ln->bytes = lf->bytes;
		ln->time = lf->time;
		ln->size = size;
		memcpy(ln->name, lf->name, namelen);
		b->len += size;
		leaves_next(&p->du->leaves);
	}
	*end = b->len;
	return 0;
}

static int push_frame(struct printer *p, uint32_t i, int depth)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct frame *v = reallocarray(p->v, cap, sizeof(*v));
		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	const struct du_node *n = tree_node(&p->du->tree, i);
	size_t len = p->path.len;
	int err = 0;
	/* nameless: below the depth printed, summed only */
	if (n->name && depth > 0 && (len == 0 || p->path.s[len - 1] != '/'))
		err = sb_addc(&p->path, '/');
	if (err || (n->name && sb_addstr(&p->path, n->name) < 0))
		return -1;
	struct du_tree *t = &p->du->tree;
	struct timespec time = t->keep_times ? t->times[i] : (struct timespec){ 0 };
	struct sums own = { n->bytes, n->inodes, time, n->inodes > 0 };
	size_t lines, lines_end;
	if (take_lines(p, i, &lines, &lines_end) < 0)
		return -1;
	p->v[p->n++] = (struct frame){ i, n->first_child, lines, lines, lines_end, len, depth,
	                               own, own };
	return 0;
}

/* The next of f's files' lines, if it comes before its next child by
 * name, printed (its size is in its directory's already). Returns 1 if
 * one was, 0 if not, -1 when memory ran out. */
static int print_pending(struct printer *p, struct frame *f)
{
	if (f->lines == f->lines_end)
		return 0;
	const struct line *ln = (const struct line *)(p->pending.s + f->lines);
	const char *child = f->next_child == NO_NODE ? NULL
	                  : tree_node(&p->du->tree, f->next_child)->name;
	if (child && strcmp(ln->name, child) > 0)
		return 0;
	size_t len = p->path.len;
	if ((len && p->path.s[len - 1] != '/' && sb_addc(&p->path, '/') < 0) ||
	    sb_addstr(&p->path, ln->name) < 0)
		return -1;
	struct sums s = { ln->bytes, 1, ln->time, true };
	print_line(p, &s, sb_str(&p->path));
	p->path.len = len;
	p->path.s[len] = 0;
	f->lines += ln->size;
	return 1;
}

/* Print the frame on top (all its children are done) and fold it into its
 * parent. */
static void pop_frame(struct printer *p)
{
	const struct du_opts *o = &p->du->opt;
	struct frame *f = &p->v[--p->n];
	const struct du_node *n = tree_node(&p->du->tree, f->node);
	bool dir = n->flags & N_DIR;
	/* a directory gone from its path is listed as GNU du lists it: as a file */
	bool listed = dir && !(n->flags & N_GONE);
	bool shown = o->max_depth < 0 || f->depth <= o->max_depth;
	const struct sums *s = dir && o->separate_dirs ? &f->sep : &f->all;
	if (shown && (listed || o->all || f->depth == 0) && over_threshold(o, s))
		print_line(p, s, sb_str(&p->path));
	if (p->n) {
		struct frame *parent = &p->v[p->n - 1];
		add_sums(&parent->all, &f->all);
		if (!dir)
			add_sums(&parent->sep, &f->all);
	} else {
		add_sums(&p->grand, &f->all);
	}
	p->path.len = f->pathlen;
	if (p->path.s)
		p->path.s[p->path.len] = 0;
	p->pending.len = f->lines_start;
}

static int walk_root(struct printer *p, uint32_t root)
{
	if (push_frame(p, root, 0) < 0)
		return -1;
	while (p->n) {
		struct frame *f = &p->v[p->n - 1];
		int printed = print_pending(p, f);
		if (printed < 0)
			return -1;
		if (printed)
			continue;
		uint32_t c = f->next_child;
		if (c == NO_NODE) {
			pop_frame(p);
			continue;
		}
		const struct du_node *child = tree_node(&p->du->tree, c);
		f->next_child = child->next_sibling;
		if (!(child->flags & N_SKIP) && push_frame(p, c, f->depth + 1) < 0)
			return -1;
	}
	return 0;
}

/* child or the first sibling after it that is counted; NO_NODE if none. */
static uint32_t counted_from(const struct du_tree *t, uint32_t child)
{
	while (child != NO_NODE && (t->v[child].flags & N_SKIP))
		child = t->v[child].next_sibling;
	return child;
}

/* Each directory's turn in walk_root's depth-first order (UINT32_MAX for
 * none): the order leaves_sort() serves their files' lines in. */
static uint32_t *rank_dirs(const struct du_tree *t)
{
	uint32_t *rank = malloc(((size_t)t->n + 1) * sizeof(*rank));
	if (!rank)
		return NULL;
	memset(rank, 0xff, ((size_t)t->n + 1) * sizeof(*rank));
	uint32_t next = 0;
	for (uint32_t k = 0; k < t->nroots; k++) {
		uint32_t root = t->roots[k], i = root, c;
		if (t->v[root].flags & N_SKIP)
			continue;
		for (;;) {
			if (t->v[i].flags & N_DIR)
				rank[i] = next++;
			if ((c = counted_from(t, t->v[i].first_child)) != NO_NODE) {
				i = c;
				continue;
			}
			while (i != root && (c = counted_from(t, t->v[i].next_sibling)) == NO_NODE)
				i = t->v[i].parent;
			if (i == root)
				break;
			i = c;
		}
	}
	return rank;
}

/* The files' lines kept apart (leaves.h) in the order walk_root takes them.
 * Returns 0 (a failure of the temporary file reported: none kept), or -1
 * when memory ran out. */
static int order_lines(struct du *du, uint32_t **rank)
{
	if (leaves_empty(&du->leaves))
		return 0;
	if (!(*rank = rank_dirs(&du->tree)))
		return -1;
	if (leaves_sort(&du->leaves, *rank) == 0)
		return 0;
	if (!du->leaves.err)
		return -1;
	/* the rest is printed without them */
	diag_error(du->diag, du->leaves.err, "cannot sort the lines kept in a temporary file");
	du->leaves.err = 0; /* reported */
	return 0;
}

int du_report(struct du *du)
{
	struct printer p = { .du = du };
	uint32_t *rank = NULL;
	int ret = order_lines(du, &rank);
	for (uint32_t k = 0; k < du->tree.nroots && !ret; k++) {
		uint32_t root = du->tree.roots[k];
		if (!(tree_node(&du->tree, root)->flags & N_SKIP))
			ret = walk_root(&p, root);
	}
	if (!ret && du->leaves.nomem)
		ret = -1;
	if (!ret && du->leaves.err)
		diag_error(du->diag, du->leaves.err, "cannot read the lines kept in a temporary file");
	if (!ret && du->opt.total)
		print_line(&p, &p.grand, "total");
	sb_free(&p.path);
	sb_free(&p.pending);
	sb_free(&p.when);
	free(p.v);
	free(rank);
	return ret;
}
