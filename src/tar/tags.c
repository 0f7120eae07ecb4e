/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tags.c: directories a tag file inside them leaves out, as GNU tar's
 * --exclude-caches[-under|-all] (the tag: CACHEDIR.TAG with the cache
 * directory signature) and --exclude-tag[-under|-all]=FILE do: the
 * contents but the tag file, everything under the directory, or the
 * directory itself. A directory left out whole is decided by the walk's
 * filter; one whose contents go is recorded by its id when the walk hands
 * it out, and its entries are then filtered by their parent's id, before
 * they are read. A directory is looked into only when a tag is asked for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "create.h"

/* The Cache Directory Tagging Specification's signature. */
static const char cachedir_signature[] = "Signature: 8a477f597d28d172789f06886806bc55";

int tags_add(struct tar_opts *o, const char *name, enum tag_scope scope, bool cachedir)
{
	struct tar_tag *v = reallocarray(o->tags, o->ntags + 1, sizeof(*v));
	if (!v)
		return -1;
	o->tags = v;
	v[o->ntags++] = (struct tar_tag){ name, scope, cachedir };
	return 0;
}

/* Whether tag is in the directory open as dfd: a file there that can be
 * opened to be read, as GNU tar's check_exclusion_tags() opens it (a
 * symbolic link is followed under -h only, and one that dangles is none),
 * and for CACHEDIR.TAG, one that begins with the signature. */
static bool tagged(int dfd, const struct tar_tag *tag, bool follow)
{
	char buf[sizeof(cachedir_signature) - 1];
	int fd = openat(dfd, tag->name,
	                O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return false;
	bool yes = !tag->cachedir || (read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) &&
	                              memcmp(buf, cachedir_signature, sizeof(buf)) == 0);
	close(fd);
	return yes;
}

/* The first tag found in directory e of a scope that all says (TAG_ALL,
 * or not), or NULL. */
static const struct tar_tag *find_tag(struct create *cr, const struct sweep_entry *e, bool all)
{
	const struct tar_opts *o = &cr->t->opt;
	const struct tar_tag *found = NULL;
	int dfd = -1;
	struct tar_scope sc;
	scope_of(cr, e, &sc);
	for (size_t i = 0; i < sc.ntags && !found; i++) {
		if ((o->tags[i].scope == TAG_ALL) != all)
			continue;
		if (dfd < 0)
			dfd = openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			             (o->dereference ? 0 : O_NOFOLLOW));
		if (dfd < 0)
			return NULL;
		if (tagged(dfd, &o->tags[i], o->dereference))
			found = &o->tags[i];
	}
	if (dfd >= 0)
		close(dfd);
	return found;
}

static void say(struct create *cr, const struct sweep_entry *e, const struct tar_tag *tag,
                const char *what)
{
	if (cr->t->opt.verbose)
		tar_warn(cr->t, 0, "%s/: contains a cache directory tag %s; %s not dumped",
		         tq(cr->t, 0, e->path), tq(cr->t, 1, tag->name), what);
}

enum sweep_verdict tags_filter(struct create *cr, const struct sweep_entry *e)
{
	if (!cr->t->opt.ntags)
		return SWEEP_KEEP;
	uint64_t *scope = e->parent_id ? keymap_get(&cr->tagged, e->parent_id, 0) : NULL;
	if (scope) {
		const struct tar_tag *tag = &cr->t->opt.tags[*scope];
		return tag->scope == TAG_CONTENTS && strcmp(e->name, tag->name) == 0 ? SWEEP_KEEP
		                                                                      : SWEEP_PRUNE;
	}
	const struct tar_tag *tag;
	if (!S_ISDIR(e->st.st_mode) || !(tag = find_tag(cr, e, true)))
		return SWEEP_KEEP;
	say(cr, e, tag, "directory");
	return SWEEP_PRUNE;
}

const struct tar_tag *tags_find(struct create *cr, const struct sweep_entry *e)
{
	return cr->t->opt.ntags ? find_tag(cr, e, false) : NULL;
}

int tags_dir(struct create *cr, const struct sweep_entry *e)
{
	const struct tar_tag *tag = tags_find(cr, e);
	if (!tag)
		return 0;
	say(cr, e, tag, "contents");
	if (tag->scope == TAG_UNDER) {
		sweep_prune(cr->sw);
		return 0;
	}
	return keymap_put(&cr->tagged, e->dir_id, 0, (uint64_t)(tag - cr->t->opt.tags));
}
