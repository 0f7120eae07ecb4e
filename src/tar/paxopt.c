/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxopt.c: --pax-option=keyword[[:]=value][,...], read as GNU tar 1.34
 * reads it: items split at every comma; delete=PATTERN (records whose
 * keyword matches left out), exthdr.name= and globexthdr.name= (the names
 * of the extended headers), exthdr.mtime= and globexthdr.mtime= (their
 * times), keyword=value (a record of the global extended header) and
 * keyword:=value (a record of every member's, in place of its own). The
 * keywords GNU tar protects (sparse maps, dumpdirs, volume records) can
 * be neither deleted nor overridden. paxhdr.c applies them.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "paxopt.h"
#include "quote.h"

/* GNU tar's XHDR_PROTECTED keywords. */
static const char *const protected[] = {
	"GNU.sparse.name", "GNU.sparse.major", "GNU.sparse.minor", "GNU.sparse.realsize",
	"GNU.sparse.numblocks", "GNU.sparse.size", "GNU.sparse.offset", "GNU.sparse.numbytes",
	"GNU.dumpdir", "GNU.volume.label", "GNU.volume.filename", "GNU.volume.size",
	"GNU.volume.offset", NULL,
};

static bool is_protected(const char *pattern, bool as_pattern)
{
	for (const char *const *p = protected; *p; p++)
		if (as_pattern ? fnmatch(pattern, *p, 0) == 0 : strcmp(pattern, *p) == 0)
			return true;
	return false;
}

static int list_add(struct pax_list *l, const char *key, const char *value)
{
	char **k = reallocarray(l->key, l->n + 1, sizeof(*k));
	if (!k)
		return -1;
	l->key = k;
	char **v = reallocarray(l->value, l->n + 1, sizeof(*v));
	if (!v)
		return -1;
	l->value = v;
	k[l->n] = strdup(key);
	v[l->n] = value ? strdup(value) : NULL;
	if (!k[l->n] || (value && !v[l->n])) {
		free(k[l->n]);
		free(v[l->n]);
		return -1;
	}
	l->n++;
	return 0;
}

static void list_free(struct pax_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->key[i]);
		free(l->value[i]);
	}
	free(l->key);
	free(l->value);
}

/* A time as GNU tar 1.34 takes it here: whole seconds, maybe negative.
 * Returns false when s is not one. */
static bool parse_time(const char *s, time_t *out)
{
	char *end;
	if (!isdigit((unsigned char)s[*s == '-']))
		return false;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (*end || errno == ERANGE || (time_t)v != v)
		return false;
	*out = (time_t)v;
	return true;
}

static int set_string(char **slot, const char *value)
{
	free(*slot);
	return (*slot = strdup(value)) ? 1 : -1;
}

static int set_time(struct tar *t, bool *set, time_t *slot, const char *value)
{
	if (parse_time(value, slot))
		*set = true;
	else
		tar_error(t, 0, "Time stamp is out of allowed range");
	return 1;
}

/* One keyword=value or keyword:=value, its '=' at eq, split in place as
 * GNU tar splits it: the keyword as it is, the value's leading blanks
 * left out. Returns 1, 0 after a usage error (reported), -1 (ENOMEM). */
static int one_pair(struct tar *t, struct pax_opts *po, char *item, char *eq)
{
	if (eq == item) {
		tar_warn(t, 0, "Malformed pax option: %s",
		         diag_quote_style(t->diag, 0, QUOTE_LOCALE, item));
		return 0;
	}
	bool colon = eq[-1] == ':';
	*(colon ? eq - 1 : eq) = 0;
	const char *key = item, *value = eq + 1;
	while (isspace((unsigned char)*value))
		value++;
	if (strcmp(key, "delete") == 0) {
		if (is_protected(value, true)) {
			tar_warn(t, 0, "Pattern %s cannot be used",
			         diag_quote_style(t->diag, 0, QUOTE_LOCALE, value));
			return 0;
		}
		return list_add(&po->deletes, value, NULL) < 0 ? -1 : 1;
	}
	if (strcmp(key, "exthdr.name") == 0)
		return set_string(&po->exthdr_name, value);
	if (strcmp(key, "globexthdr.name") == 0)
		return set_string(&po->globexthdr_name, value);
	if (strcmp(key, "exthdr.mtime") == 0)
		return set_time(t, &po->exthdr_mtime_set, &po->exthdr_mtime, value);
	if (strcmp(key, "globexthdr.mtime") == 0)
		return set_time(t, &po->globexthdr_mtime_set, &po->globexthdr_mtime, value);
	if (is_protected(key, false)) {
		tar_warn(t, 0, "Keyword %s cannot be overridden", key);
		return 0;
	}
	return list_add(colon ? &po->member : &po->global, key, value) < 0 ? -1 : 1;
}

int paxopt_add(struct tar *t, const char *arg)
{
	struct tar_opts *o = &t->opt;
	char *copy = NULL;
	if (!o->pax && !(o->pax = calloc(1, sizeof(*o->pax))))
		goto nomem;
	if (!(copy = strdup(arg)))
		goto nomem;
	int r = 1;
	char *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item && r == 1;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq) {
			tar_warn(t, 0, "Keyword %s is unknown or not yet implemented", item);
			r = 0;
		} else {
			r = one_pair(t, o->pax, item, eq);
		}
	}
	free(copy);
	if (r < 0)
		goto nomem;
	return r;
nomem:
	tar_fatal(t, ENOMEM, "memory exhausted");
	return 0;
}

bool paxopt_check_mode(struct tar *t)
{
	const struct pax_opts *po = t->opt.pax;
	enum tar_mode m = t->opt.mode;
	if (po && po->global.n && (m == MODE_APPEND || m == MODE_UPDATE || m == MODE_CATENATE)) {
		tar_warn(t, 0, "can't update global extended header record");
		return false;
	}
	if (!po || m == MODE_CREATE || m == MODE_APPEND || m == MODE_UPDATE ||
	    m == MODE_CATENATE || m == MODE_DELETE)
		return true;
	if (!po->deletes.n && !po->global.n && !po->member.n)
		return true;
	tar_warn(t, 0, "--pax-option: sweep-tar applies %s only when writing an archive",
	         po->deletes.n ? "delete=" : po->member.n ? "keyword:=value" : "keyword=value");
	return false;
}

bool paxopt_deleted(const struct pax_opts *po, const char *key)
{
	for (size_t i = 0; po && i < po->deletes.n; i++)
		if (fnmatch(po->deletes.key[i], key, 0) == 0)
			return true;
	return false;
}

bool paxopt_overridden(const struct pax_opts *po, const char *key)
{
	for (size_t i = 0; po && i < po->member.n; i++)
		if (strcmp(po->member.key[i], key) == 0)
			return true;
	return false;
}

void paxopt_free(struct pax_opts *po)
{
	if (!po)
		return;
	list_free(&po->deletes);
	list_free(&po->global);
	list_free(&po->member);
	free(po->exthdr_name);
	free(po->globexthdr_name);
	free(po);
}
