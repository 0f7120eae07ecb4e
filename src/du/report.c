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
};

static void add_sums(struct sums *to, const struct sums *from)
{
	to->bytes += from->bytes;
	to->inodes += from->inodes;
	if (from->any && (!to->any || from->time.tv_sec > to->time.tv_sec ||
	                  (from->time.tv_sec == to->time.tv_sec &&
	                   from->time.tv_nsec > to->time.tv_nsec))) {
		to->time = from->time;
		to->any = true;
	}
}

/* -t: whether a line for s is wanted (the total always is). */
static bool over_threshold(const struct du_opts *o, const struct sums *s)
{
	uint64_t v = o->inodes ? s->inodes : s->bytes;
	return !(o->threshold > 0 && v < (uint64_t)o->threshold) &&
	       !(o->threshold < 0 && v > (uint64_t)-o->threshold);
}

static void print_line(struct printer *p, const struct sums *s, const char *name)
{
	const struct du_opts *o = &p->du->opt;
	char num[HUMAN_BUFSIZE];
	uint64_t v = o->inodes ? s->inodes : s->bytes;
	fputs(human_format(v, 1, o->block_size, o->human, num), stdout);
	putchar('\t');
	if (o->show_time) {
		char when[512];
		if (!timefmt_format(o->time_format, &s->time, when, sizeof(when)))
			diag_warn(p->du->diag, 0, "time %s is out of range",
			          diag_quote_style(p->du->diag, 0, QUOTE_LOCALE, when));
		fputs(when, stdout);
		putchar('\t');
	}
	fputs(name, stdout);
	putchar(o->null ? 0 : '\n');
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
	if (depth > 0 && (len == 0 || p->path.s[len - 1] != '/'))
		err = sb_addc(&p->path, '/');
	if (err || sb_addstr(&p->path, n->name) < 0)
		return -1;
	struct du_tree *t = &p->du->tree;
	struct timespec time = t->keep_times ? t->times[i] : (struct timespec){ 0 };
	struct sums own = { n->bytes, n->inodes, time, n->inodes > 0 };
	p->v[p->n++] = (struct frame){ i, n->first_child, len, depth, own, own };
	return 0;
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
}

static int walk_root(struct printer *p, uint32_t root)
{
	if (push_frame(p, root, 0) < 0)
		return -1;
	while (p->n) {
		struct frame *f = &p->v[p->n - 1];
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

int du_report(struct du *du)
{
	struct printer p = { .du = du };
	int ret = 0;
	for (uint32_t k = 0; k < du->tree.nroots && !ret; k++) {
		uint32_t root = du->tree.roots[k];
		if (!(tree_node(&du->tree, root)->flags & N_SKIP))
			ret = walk_root(&p, root);
	}
	if (!ret && du->opt.total)
		print_line(&p, &p.grand, "total");
	sb_free(&p.path);
	free(p.v);
	return ret;
}
