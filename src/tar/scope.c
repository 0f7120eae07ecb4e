/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scope.c: creating, the options in effect for the name an entry lies
 * below. GNU tar's --exclude, -X, --exclude-tag and the like, and
 * --[no-]recursion, act on the names after them: "tar -c a --exclude=x b"
 * leaves out x below b, not below a. The walk takes all names in one
 * sweep, so each entry is traced to its name: a name's root by its -C
 * directory and spelling, anything below by the directory it is in. When
 * every name has the same options (the usual case) nothing is kept.
 */
#include <fcntl.h>
#include <string.h>
#include "create.h"

/* A name's hash without its trailing slashes, as the walk has its root
 * (create.c: "d/" is walked as d). */
static uint64_t name_hash(const char *s)
{
	size_t n = names_bare_len(s);
	uint64_t h = 14695981039346656037u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

/* Whether name, as given, is root, the walk's spelling of it. */
static bool same_root(const char *name, const char *root)
{
	size_t n = names_bare_len(name);
	return n == strlen(root) && memcmp(name, root, n) == 0;
}

static bool same_scope(const struct tar_name *n, const struct tar_opts *o)
{
	return n->nexclude == o->exclude.n && n->ntags == o->ntags &&
	       n->no_recursion == o->no_recursion;
}

void scope_start(struct create *cr)
{
	const struct tar_opts *o = &cr->t->opt;
	cr->scoped = false;
	for (size_t i = 0; i < o->names.n && !cr->scoped; i++)
		cr->scoped = !o->names.v[i].chdir && !same_scope(&o->names.v[i], o);
}

int scope_root(struct create *cr, size_t i, int *dirfd)
{
	const char *name = cr->t->opt.names.v[i].name;
	if (!cr->scoped)
		return 0;
	if (keymap_get(&cr->scope_roots, name_hash(name), (uint64_t)*dirfd)) {
		/* the same name again, maybe with other options: walked from a
		 * descriptor of its own, which tells its entries apart */
		int fd = *dirfd == AT_FDCWD ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		                            : fcntl(*dirfd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		cr->dirfds[cr->ndirfds++] = *dirfd = fd;
	}
	return keymap_put(&cr->scope_roots, name_hash(name), (uint64_t)*dirfd, i + 1);
}

/* The index + 1 of the name e lies below, or 0: not known. */
static uint64_t name_of(const struct create *cr, const struct sweep_entry *e)
{
	const uint64_t *v = e->depth == 0
	                    ? keymap_get(&cr->scope_roots, name_hash(e->name), (uint64_t)e->dirfd)
	                    : keymap_get(&cr->scope_dirs, e->parent_id, 0);
	if (!v || (e->depth == 0 && !same_root(cr->t->opt.names.v[*v - 1].name, e->name)))
		return 0;
	return *v;
}

void scope_of(const struct create *cr, const struct sweep_entry *e, struct tar_scope *sc)
{
	const struct tar_opts *o = &cr->t->opt;
	uint64_t i = cr->scoped ? name_of(cr, e) : 0;
	const struct tar_name *n = i ? &o->names.v[i - 1] : NULL;
	sc->nexclude = n ? n->nexclude : o->exclude.n;
	sc->ntags = n ? n->ntags : o->ntags;
	sc->no_recursion = n ? n->no_recursion : o->no_recursion;
}

int scope_enter_dir(struct create *cr, const struct sweep_entry *e)
{
	uint64_t i = cr->scoped ? name_of(cr, e) : 0;
	return i ? keymap_put(&cr->scope_dirs, e->dir_id, 0, i) : 0;
}

bool scope_excluded(const struct create *cr, const struct sweep_entry *e, const char *path)
{
	struct tar_scope sc;
	scope_of(cr, e, &sc);
	const struct exclude view = { cr->t->opt.exclude.v, sc.nexclude, 0 };
	return sc.nexclude && exclude_match(&view, path);
}

void scope_free(struct create *cr)
{
	keymap_free(&cr->scope_roots);
	keymap_free(&cr->scope_dirs);
}
