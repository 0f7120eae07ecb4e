/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxopt.c: --pax-option=keyword[[:]=value][,...], as GNU tar reads it:
 * delete=PATTERN (records of matching keywords left out), exthdr.name= and
 * globexthdr.name= (the names of the extended headers), and
 * keyword=value (a record of the global extended header) and
 * keyword:=value (of every member's too). They are read and checked as GNU
 * tar checks them; the writer does not apply them yet, so options.c
 * refuses them after GNU's checks (paxopt_refuse()) rather than ignore
 * them.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "paxopt.h"

/* One item of the list, its "\," unescaped, into a new string; *p moves
 * past it and its comma. */
static char *next_item(const char **p)
{
	const char *s = *p;
	size_t len = strlen(s);
	char *out = malloc(len + 1), *o = out;
	if (!out)
		return NULL;
	while (*s && *s != ',') {
		if (*s == '\\' && s[1] == ',')
			s++;
		*o++ = *s++;
	}
	*o = 0;
	*p = *s ? s + 1 : s;
	return out;
}

static int add_record(struct pax_opts *po, char *key, char *value, bool colon)
{
	struct pax_record *v = reallocarray(po->v, po->n + 1, sizeof(*v));
	if (!v)
		return -1;
	po->v = v;
	po->v[po->n++] = (struct pax_record){ .key = key, .value = value, .colon = colon };
	return 0;
}

/* Trim white space at both ends of s, in place. */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	return s;
}

/* One keyword[[:]=value]. Returns 1, 0 after an error (reported), -1 when
 * memory ran out. */
static int one_item(struct tar *t, struct pax_opts *po, char *item)
{
	char *eq = strchr(item, '=');
	if (!eq) {
		tar_warn(t, 0, "Keyword %s is unknown or not yet implemented", item);
		return 0;
	}
	bool colon = eq > item && eq[-1] == ':';
	*(colon ? eq - 1 : eq) = 0;
	char *key = trim(item), *value = trim(eq + 1);
	char **slot = NULL;
	if (strcmp(key, "exthdr.name") == 0)
		slot = &po->exthdr_name;
	else if (strcmp(key, "globexthdr.name") == 0)
		slot = &po->globexthdr_name;
	if (slot) {
		free(*slot);
		return (*slot = strdup(value)) ? 1 : -1;
	}
	if (strcmp(key, "delete") == 0)
		return exclude_add(&po->deletes, value, EXCL_ANCHORED) == 0 ? 1 : -1;
	if (strcmp(key, "invalid") == 0 || strcmp(key, "linkdata") == 0 || strcmp(key, "times") == 0) {
		tar_warn(t, 0, "--pax-option: sweep-tar does not support %s", key);
		return 0;
	}

	char *k = strdup(key), *v = strdup(value);
	if (!k || !v || add_record(po, k, v, colon) < 0) {
		free(k);
		free(v);
		return -1;
	}
	return 1;
}

int paxopt_add(struct tar *t, const char *arg)
{
	struct tar_opts *o = &t->opt;
	if (!o->pax && !(o->pax = calloc(1, sizeof(*o->pax))))
		goto nomem;
	const char *p = arg;
	while (*p) {
		char *item = next_item(&p);
		if (!item)
			goto nomem;
		int r = one_item(t, o->pax, item);
		free(item);
		if (r < 0)
			goto nomem;
		if (r == 0)
			return 0;
	}
	return 1;
nomem:
	tar_fatal(t, ENOMEM, "memory exhausted");
	return 0;
}

bool paxopt_deleted(const struct pax_opts *po, const char *key)
{
	return po && po->deletes.n && exclude_match(&po->deletes, key);
}

bool paxopt_refuse(struct tar *t)
{
	const struct pax_opts *po = t->opt.pax;
	if (!po)
		return false;
	tar_warn(t, 0, "--pax-option: sweep-tar does not write %s yet",
	         po->n ? po->v[0].key : po->exthdr_name ? "exthdr.name"
	         : po->globexthdr_name ? "globexthdr.name" : "delete");
	return true;
}

void paxopt_free(struct pax_opts *po)
{
	if (!po)
		return;
	for (size_t i = 0; i < po->n; i++) {
		free(po->v[i].key);
		free(po->v[i].value);
	}
	free(po->v);
	free(po->exthdr_name);
	free(po->globexthdr_name);
	exclude_free(&po->deletes);
	free(po);
}
