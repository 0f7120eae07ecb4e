/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chown.c: rsync's --usermap, --groupmap and --chown: the owner and group
 * each entry gets where it lands, from the sender's id and name.
 *
 * A map is FROM:TO pairs, comma-separated, the first that matches wins:
 * FROM is "*", a number or a range ("1000-1999") matched against the
 * sender's id, or a name or wildcard pattern matched against the sender's
 * name (none under --numeric-ids); TO is a name or a number, looked up by
 * the receiving end (here, or the far end of a push). A TO that end does
 * not know is said once and the pair maps nothing (rsync's words). A map
 * means -o (-g). --chown=USER:GROUP is rsync's "*:USER" and "*:GROUP"
 * (an empty part maps nothing), and none of the three is given twice.
 */
#include <errno.h>
#include <fnmatch.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

struct id_pair {
	char *from, *to;
	bool resolved, known;     /* TO looked up, and found */
	unsigned to_id;
};

struct id_map {
	char *arg;                /* as given, for the far end */
	struct id_pair *pairs;
	size_t n;
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

/* arg's pairs, or NULL (said: a usage error). */
static struct id_map *map_parse(struct sync *s, const char *arg, const char *option)
{
	struct id_map *m = calloc(1, sizeof(*m));
	char *list = strdup(arg), *save = NULL;
	if (!m || !list || !(m->arg = strdup(arg)))
		goto nomem;
	for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(w, ':');
		if (!colon) { /* (rsync's words, without its name) */
			fprintf(stderr, "No colon found in %s: %s\n", option, w);
			diag_fail(s->diag, 1);
			free(list);
			map_free(m);
			return NULL;
		}
		if (colon == w || !colon[1]) {
			diag_error(s->diag, 0, "Invalid %s pair: %s", option, w);
			free(list);
			map_free(m);
			return NULL;
		}
		struct id_pair *v = realloc(m->pairs, (m->n + 1) * sizeof(*v));
		if (!v)
			goto nomem;
		m->pairs = v;
		*colon = 0;
		v[m->n] = (struct id_pair){ strdup(w), strdup(colon + 1), false, false, 0 };
		if (!v[m->n].from || !v[m->n].to)
			goto nomem;
		m->n++;
	}
	free(list);
	return m;
nomem:
	diag_error(s->diag, ENOMEM, "%s", option);
	free(list);
	map_free(m);
	return NULL;
}

static int take_map(struct sync *s, struct id_map **slot, const char *arg, const char *option)
{
	if (s->chown_given) {
		diag_error(s->diag, 0, "%s conflicts with prior --chown.", option);
		return -1;
	}
	if (*slot) {
		diag_error(s->diag, 0, "You can only specify %s once.", option);
		return -1;
	}
	*slot = map_parse(s, arg, option);
	return *slot ? 0 : -1;
}

int usermap_option(struct sync *s, const char *arg, bool group)
{
	if (take_map(s, group ? &s->groupmap : &s->usermap, arg,
	             group ? "--groupmap" : "--usermap") < 0)
		return -1;
	s->owner |= !group;
	s->group |= group;
	return 0;
}

int chown_option(struct sync *s, const char *arg)
{
	if (s->usermap || s->groupmap) {
		diag_error(s->diag, 0, "--chown conflicts with prior --%s.",
		           s->usermap ? "usermap" : "groupmap");
		return -1;
	}
	const char *colon = strchr(arg, ':');
	size_t ulen = colon ? (size_t)(colon - arg) : strlen(arg);
	char *user = malloc(ulen + 3), *group = malloc(strlen(arg) + 3);
	int r = user && group ? 0 : -1;
	if (r == 0 && ulen) {
		memcpy(user, "*:", 2);
		memcpy(user + 2, arg, ulen);
		user[ulen + 2] = 0;
		r = (s->usermap = map_parse(s, user, "--usermap")) ? 0 : -1;
		s->owner = true;
	}
	if (r == 0 && colon && colon[1]) {
		strcpy(group, "*:");
		strcat(group, colon + 1);
		r = (s->groupmap = map_parse(s, group, "--groupmap")) ? 0 : -1;
		s->group = true;
	}
	if (!user || !group)
		diag_error(s->diag, ENOMEM, "--chown");
	free(user);
	free(group);
	s->chown_given = true;
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

/* Whether FROM names the sender's id (a number, a range, "*") or, failing
 * that, its name (a name or pattern; none known: "" never matches). */
static bool pair_matches(const char *from, unsigned id, const char *name)
{
	if (strcmp(from, "*") == 0)
		return true;
	char *end;
	unsigned long lo = strtoul(from, &end, 10);
	if (end != from && (*end == 0 || *end == '-')) {
		unsigned long hi = lo;
		if (*end == '-') {
			const char *p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || *end)
				return *name && fnmatch(from, name, 0) == 0;
		}
		return id >= lo && id <= hi;
	}
	return *name && fnmatch(from, name, 0) == 0;
}

bool id_map_find(struct sync *s, bool group, unsigned id, const char *name, unsigned *to)
{
	struct id_map *m = group ? s->groupmap : s->usermap;
	for (size_t i = 0; m && i < m->n; i++) {
		struct id_pair *p = &m->pairs[i];
		if (!p->resolved) {
			p->resolved = true;
			p->known = id_of(p->to, group, &p->to_id);
			if (!p->known && !s->sender_side) /* said by the receiver only */
				fprintf(stderr, "Unknown --%s name on receiver: %s\n",
				        group ? "groupmap" : "usermap", p->to);
		}
		if (p->known && pair_matches(p->from, id, name)) {
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
		names = strspn(m->pairs[i].from, "0123456789-") != strlen(m->pairs[i].from) &&
		        strcmp(m->pairs[i].from, "*") != 0;
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
