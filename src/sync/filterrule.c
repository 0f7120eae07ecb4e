/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filterrule.c: --filter (-f) rules, in rsync's syntax: a rule, short
 * ("-", "+", "H", "S", "P", "R", ".", "!") or long ("exclude", "include",
 * "hide", "show", "protect", "risk", "merge", "clear"), then modifiers
 * (after a ',', which a short rule may leave out), then a space or an
 * underscore and the pattern or file name.
 *
 * hide and show are an exclude and an include for the sender alone (what
 * is sent), protect and risk for the receiver alone (what --delete may
 * remove); the modifiers 's' and 'r' give any rule such a side, '!'
 * makes it match what its pattern does not, and 'p' (perishable) lets a
 * directory that --delete removes go with what the rule matches in it. merge reads a file of rules,
 * one a line ('#' and ';' start comments), with '-' or '+' a file of bare
 * exclude or include patterns; clear drops every rule before it.
 *
 * Per-directory merge files (dir-merge, ':', and -F, which asks for them)
 * and the modifiers rsync has for what sweep-sync does not do (CVS rules,
 * attribute names, absolute paths) are refused, naming
 * the rule: a filter taken only in part would copy or delete what the
 * user did not ask for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sync.h"

#define MERGE_DEPTH 32 /* files merged from merged files, as rsync: no endless loop */
#define RSYNC_MODIFIERS "/Cxenw" /* rsync's, which sweep-sync does not take */

/* What a rule does: the rule's letter and what it adds. */
struct rule_kind {
	const char *name;
	char letter;
	bool include;
	unsigned char side;
};

static const struct rule_kind kinds[] = {
	{ "exclude", '-', false, RULE_BOTH },
	{ "include", '+', true, RULE_BOTH },
	{ "hide", 'H', false, RULE_SENDER },
	{ "show", 'S', true, RULE_SENDER },
	{ "protect", 'P', false, RULE_RECEIVER },
	{ "risk", 'R', true, RULE_RECEIVER },
	{ "merge", '.', false, RULE_BOTH },
	{ "dir-merge", ':', false, RULE_BOTH },
	{ "clear", '!', false, RULE_BOTH },
};

struct merge_arg {
	struct sync *s;
	int depth;
	int bare;            /* '-' or '+': lines are bare patterns; else 0 */
	unsigned char side;  /* the merge rule's own 's' or 'r' */
	int failed;          /* what a rule in the file returned, if not 0 */
};

static int parse(struct sync *s, const char *text, int depth, unsigned char side);

/* A rule that is wrong, said as rsync says it (without the program's
 * name: rsync's own words, before a transfer starts) */
static int bad_rule(const char *what, const char *text)
{
	fprintf(stderr, "%s: %s\n", what, text);
	return -1;
}

/* The kind text starts with, and in *rest what follows its name. */
static const struct rule_kind *rule_kind(const char *text, const char **rest)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].name);
		if (strncmp(text, kinds[i].name, n) == 0 && strchr(", _", text[n])) {
			*rest = text + n + (text[n] == ',');
			return &kinds[i];
		}
		if (text[0] == kinds[i].letter) {
			*rest = text + 1 + (text[1] == ',');
			return &kinds[i];
		}
	}
	return NULL;
}

static int merge_line(void *arg, const char *line)
{
	struct merge_arg *m = arg;
	m->failed = !m->bare ? parse(m->s, line, m->depth + 1, m->side)
	            : filter_push(m->s, line, m->bare == '+', m->side, false) < 0 ? -3 : 0;
	return m->failed ? -1 : 0;
}

static int merge(struct sync *s, const char *path, struct merge_arg *m)
{
	if (m->depth >= MERGE_DEPTH) {
		fprintf(stderr, "[client] merge-file include depth limit (%d) exceeded at %s\n",
		        MERGE_DEPTH, path);
		return -2;
	}
	if (listfile_read(path, s->from0, true, merge_line, m) == 0)
		return 0;
	if (m->failed != 0 && m->failed != -3)
		return m->failed; /* a rule in it, or a file it merges: said */
	if (m->failed == -3 || errno == ENOMEM) {
		diag_error(s->diag, 0, "memory exhausted");
		return -1;
	}
	report_error(s, errno, "[client] failed to open exclude file %s", path);
	return -2;
}

/* One rule; side: that of the merge file it came from, or RULE_BOTH. */
static int parse(struct sync *s, const char *text, int depth, unsigned char side)
{
	const char *p;
	const struct rule_kind *k = rule_kind(text, &p);
	if (!k)
		return bad_rule("Unknown filter rule", text);
	if (k->letter == ':')
		return bad_rule("sweep-sync: per-directory merge files (dir-merge, ':', -F) are not supported",
		                text);
	bool negate = false, perishable = false;
	int bare = 0;
	unsigned char sides = 0;
	for (; *p && *p != ' ' && *p != '_'; p++) {
		if (*p == 's' || *p == 'r')
			sides |= *p == 's' ? RULE_SENDER : RULE_RECEIVER;
		else if (*p == '!' && k->letter != '.' && k->letter != '!')
			negate = true;
		else if (*p == 'p' && k->letter != '.' && k->letter != '!')
			perishable = true;
		else if ((*p == '-' || *p == '+') && k->letter == '.')
			bare = *p;
		else if (k->letter == '!')
			return bad_rule("'!' rule has trailing characters", text);
		else if (strchr(RSYNC_MODIFIERS, *p))
			return bad_rule("sweep-sync: this modifier is not supported in filter rule", text);
		else {
			fprintf(stderr, "invalid modifier '%c' at position %d in filter rule: %s\n",
			        *p, (int)(p - text), text);
			return -1;
		}
	}
	const char *arg = *p ? p + 1 : p;
	if (k->letter == '!') {
		if (*p)
			return bad_rule("'!' rule has trailing characters", text);
		filter_free(s);
		return 0;
	}
	if (!*arg)
		return bad_rule("unexpected end of filter rule", text);
	/* both 's' and 'r': both sides, as no modifier says */
	unsigned char own = sides == (RULE_SENDER | RULE_RECEIVER) ? RULE_BOTH : sides;
	if (k->letter == '.') {
		struct merge_arg m = { s, depth, bare, own ? own : side, 0 };
		return merge(s, arg, &m);
	}
	own = own ? own : k->side ? k->side : side;
	if (filter_push(s, arg, k->include, own, negate) < 0) {
		diag_error(s->diag, 0, "memory exhausted");
		return -1;
	}
	s->rules[s->nrules - 1].perishable = perishable;
	return 0;
}

int filter_rule(struct sync *s, const char *text)
{
	return parse(s, text, 0, RULE_BOTH);
}
