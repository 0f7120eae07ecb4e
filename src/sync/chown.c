/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chown.c: rsync's --usermap, --groupmap and --chown: the owner and group
 * each entry gets where it lands, from the sender's id and name.
 *
 * A map is FROM:TO pairs, comma-separated, the first that matches wins:
 * FROM is a number or a range ("1000-1999") matched against the sender's
 * id, a wildcard pattern ("*" matches all) or a name (as it is; "" the ids
 * without one) matched against the sender's name (none under
 * --numeric-ids); TO is a name or a number, looked up by the receiving end
 * (here, or the far end of a push), where each one it does not know is
 * said once and its pair maps nothing (rsync's words). A map means -o
 * (-g). --chown=USER:GROUP is rsync's "*:USER" and "*:GROUP" (an empty
 * part maps nothing); a map, or --chown's part for it, is given once.
 */
#include <errno.h>
#include <fnmatch.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

enum from_kind { FROM_IDS, FROM_NAME, FROM_PATTERN };

struct id_pair {
	enum from_kind kind;
	unsigned lo, hi;          /* FROM_IDS: the range (one id: lo = hi) */
	char *from, *to;          /* FROM as given ("" matches what has no name) */
	bool known;               /* TO found where the entries land */
	unsigned to_id;
};

struct id_map {
	char *arg;                /* as given, for the far end */
	struct id_pair *pairs;
	size_t n;
	bool via_chown;           /* made by --chown */
	bool resolved;            /* every TO looked up (the receiver says each
	                             unknown one once, as rsync does) */
};

static void map_free(struct id_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->pairs[i].from);
		free(m->pairs[i].to);
	}
	free(m->pairs);
	free(m->arg);
	free(m);
}

/* rsync's usage errors for a map, in its words (said by its receiver). */
static bool refused(struct sync *s, const char *what, bool group, const char *part)
{
	fflush(stdout);
	fprintf(stderr, "%s --%smap: %s\n", what, group ? "group" : "user", part);
	diag_fail(s->diag, 1);
	return false;
}

/* A number of FROM, as rsync reads it. */
static bool id_number(const char *p, size_t n, unsigned *id)
{
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		v = v * 10 + (unsigned long)(p[i] - '0');
		if (p[i] < '0' || p[i] > '9' || v > 0xffffffffUL)
			return false;
	}
	*id = (unsigned)v;
	return n > 0;
}

/* One pair (w, its ':' at colon) into p; false when refused (said). */
static bool parse_pair(struct sync *s, char *w, char *colon, bool group, struct id_pair *p)
{
	*colon = 0;
	*p = (struct id_pair){ .kind = FROM_NAME };
	if (*w >= '0' && *w <= '9') { /* ids: "N" or "N-M" */
		char *dash = strchr(w, '-');
		if (strspn(w, "0123456789-") != strlen(w) || (dash && (!dash[1] || strchr(dash + 1, '-'))))
			return refused(s, "Invalid number in", group, w);
		size_t n = dash ? (size_t)(dash - w) : strlen(w);
		if (!id_number(w, n, &p->lo) || !id_number(dash ? dash + 1 : w,
		                                           dash ? strlen(dash + 1) : n, &p->hi))
			return refused(s, "Invalid number in", group, w);
		p->kind = FROM_IDS;
	} else if (strpbrk(w, "*[?")) {
		p->kind = FROM_PATTERN;
	}
	p->from = strdup(w);
	p->to = strdup(colon + 1);
	*colon = ':';
	return true;
}

/* arg's pairs, or NULL (said: a usage error). */
static struct id_map *map_parse(struct sync *s, const char *arg, bool group)
{
	struct id_map *m = calloc(1, sizeof(*m));
	char *list = strdup(arg);
	if (!m || !list || !(m->arg = strdup(arg)))
		goto nomem;
	for (char *w = list, *next; w; w = next) {
		next = strchr(w, ',');
		if (next)
			*next++ = 0;
		char *colon = strchr(w, ':');
		if (!colon) {
			refused(s, "No colon found in", group, w);
			goto out;
		}
		if (!colon[1]) {
			refused(s, "No name found after colon", group, w);
			goto out;
		}
		struct id_pair *v = realloc(m->pairs, (m->n + 1) * sizeof(*v));
		if (!v)
			goto nomem;
		m->pairs = v;
		if (!parse_pair(s, w, colon, group, &v[m->n]))
			goto out;
		m->n++;
		if (!v[m->n - 1].from || !v[m->n - 1].to)
			goto nomem;
	}
	free(list);
	return m;
nomem:
	diag_error(s->diag, ENOMEM, "--%smap", group ? "group" : "user");
out:
	free(list);
	map_free(m);
	return NULL;
}

/* rsync's rules: a map once; --chown's part once; a map and --chown's part
 * for it not both. */
static int take_map(struct sync *s, bool group, const char *arg, bool via_chown)
{
	struct id_map **slot = group ? &s->groupmap : &s->usermap;
	const char *what = group ? "group" : "user";
	if (*slot) {
		if (via_chown && (*slot)->via_chown)
			diag_error(s->diag, 0, "You can only specify a %s-affecting --chown once.", what);
		else if (via_chown)
			diag_error(s->diag, 0, "--chown conflicts with prior --%smap.", what);
		else if ((*slot)->via_chown)
			diag_error(s->diag, 0, "--%smap conflicts with prior --chown.", what);
		else
			diag_error(s->diag, 0, "You can only specify --%smap once.", what);
		return -1;
	}
	if (!(*slot = map_parse(s, arg, group)))
		return -1;
	(*slot)->via_chown = via_chown;
	if (group)
		s->group = true;
	else
		s->owner = true;
	return 0;
}

int usermap_option(struct sync *s, const char *arg, bool group)
{
	return take_map(s, group, arg, false);
}

int chown_option(struct sync *s, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t ulen = colon ? (size_t)(colon - arg) : strlen(arg);
	char *map = malloc(strlen(arg) + 3);
	int r = map ? 0 : -1;
	if (r == 0 && ulen) {
		snprintf(map, strlen(arg) + 3, "*:%.*s", (int)ulen, arg);
		r = take_map(s, false, map, true);
	}
	if (r == 0 && colon && colon[1]) {
		snprintf(map, strlen(arg) + 3, "*:%s", colon + 1);
		r = take_map(s, true, map, true);
	}
	if (!map)
		diag_error(s->diag, ENOMEM, "--chown");
	free(map);
	return r;
}

/* TO as an id here (a number, or a name known here), or false. */
static bool id_of(const char *to, bool group, unsigned *id)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(to, &end, 10);
	if (*to && !*end && !errno && v <= 0xffffffffUL) {
		*id = (unsigned)v;
		return true;
	}
	const struct passwd *pw = group ? NULL : getpwnam(to);
	const struct group *gr = group ? getgrnam(to) : NULL;
	if (pw)
		*id = pw->pw_uid;
	if (gr)
		*id = gr->gr_gid;
	return pw || gr;
}

static bool pair_matches(const struct id_pair *p, unsigned id, const char *name)
{
	switch (p->kind) {
	case FROM_IDS:
		return id >= p->lo && id <= p->hi;
	case FROM_PATTERN:
		return fnmatch(p->from, name, 0) == 0;
	default: /* a name, as it is ("" for an id without one) */
		return strcmp(p->from, name) == 0;
	}
}

/* Every TO looked up where the entries land, once; the unknown said. */
static void resolve(struct sync *s, struct id_map *m, bool group)
{
	m->resolved = true;
	for (size_t i = 0; i < m->n; i++) {
		struct id_pair *p = &m->pairs[i];
		p->known = id_of(p->to, group, &p->to_id);
		if (!p->known && !s->sender_side) /* said by the receiver only */
			fprintf(stderr, "Unknown --%s name on receiver: %s\n",
			        group ? "groupmap" : "usermap", p->to);
	}
}

bool id_map_find(struct sync *s, bool group, unsigned id, const char *name, unsigned *to)
{
	struct id_map *m = group ? s->groupmap : s->usermap;
	if (m && !m->resolved)
		resolve(s, m, group);
	for (size_t i = 0; m && i < m->n; i++) {
		const struct id_pair *p = &m->pairs[i];
		if (p->known && pair_matches(p, id, name)) {
			*to = p->to_id;
			return true;
		}
	}
	return false;
}

/* The name of a local id, for a map's names (none looked up without one). */
static const char *local_name(const struct id_map *m, bool group, unsigned id)
{
	bool names = false;
	for (size_t i = 0; m && i < m->n && !names; i++)
		names = m->pairs[i].kind != FROM_IDS && strcmp(m->pairs[i].from, "*") != 0;
	if (!names)
		return "";
	const struct passwd *pw = group ? NULL : getpwuid(id);
	const struct group *gr = group ? getgrgid(id) : NULL;
	return pw ? pw->pw_name : gr ? gr->gr_name : "";
}

void chown_apply(struct sync *s, struct stat *st)
{
	unsigned id;
	if (s->sender_side)
		return; /* the receiver maps the ids sent (twice is not once) */
	if (s->usermap &&
	    id_map_find(s, false, st->st_uid,
	                s->numeric_ids ? "" : local_name(s->usermap, false, st->st_uid), &id))
		st->st_uid = id;
	if (s->groupmap &&
	    id_map_find(s, true, st->st_gid,
	                s->numeric_ids ? "" : local_name(s->groupmap, true, st->st_gid), &id))
		st->st_gid = id;
}

const char *id_map_arg(const struct sync *s, bool group)
{
	const struct id_map *m = group ? s->groupmap : s->usermap;
	return m ? m->arg : NULL;
}

void chown_free(struct sync *s)
{
	map_free(s->usermap);
	map_free(s->groupmap);
}
