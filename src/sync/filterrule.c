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
 * remove); the modifiers 's' and 'r' give an exclude or an include such
 * a side, '!' makes a rule match what its pattern does not, and 'p'
 * (perishable) lets a directory that --delete removes go with what the
 * rule matches in it. merge reads a file of rules, one a line ('#' and
 * ';' start comments), with '-' or '+' a file of bare exclude or include
 * patterns; its 's', 'r' and 'p' go to every rule of the file (which may
 * then name no side of its own). clear drops every rule before it.
 *
 * Per-directory merge files (dir-merge, ':', and -F, which asks for them)
 * and the modifiers rsync has for what sweep-sync does not do (CVS rules,
 * attribute names, absolute paths) are refused, naming the rule: a
 * filter taken only in part would copy or delete what the user did not
 * ask for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sync.h"

#define MERGE_DEPTH 32 /* files merged from merged files, as rsync: no endless loop */

/* What a rule does: the rule's letter and what it adds; the modifiers
 * rsync takes after it (those sweep-sync does not: UNSUPPORTED). */
struct rule_kind {
	const char *name;
	char letter;
	bool include;
	unsigned char side;
	const char *mods;
};

#define UNSUPPORTED "/Cxenw"

static const struct rule_kind kinds[] = {
	{ "exclude", '-', false, RULE_BOTH, "!srp/Cx" },
	{ "include", '+', true, RULE_BOTH, "!srp/Cx" },
	{ "hide", 'H', false, RULE_SENDER, "!p/x" },
	{ "show", 'S', true, RULE_SENDER, "!p/x" },
	{ "protect", 'P', false, RULE_RECEIVER, "!p/x" },
	{ "risk", 'R', true, RULE_RECEIVER, "!p/x" },
	{ "merge", '.', false, RULE_BOTH, "-+srpCenw/x" },
	{ "dir-merge", ':', false, RULE_BOTH, "" },
	{ "clear", '!', false, RULE_BOTH, "" },
};

/* What a rule's modifiers say (or, for a merge file's rules, its own). */
struct rule_mods {
	unsigned char side;  /* RULE_*: 's' or 'r' (both: RULE_BOTH) */
	bool sided;          /* a side given (both too), by the rule or its kind */
	bool negate;         /* '!' */
	bool perishable;     /* 'p' */
	int bare;            /* a merge's '-' or '+': lines are bare patterns */
};

/* A merge file being read: its rules' modifiers, where it is. */
struct merge_arg {
	struct sync *s;
	int depth;
	struct rule_mods mods;
	const char *path;
	int line;            /* rules read from it so far */
	int failed;          /* what a rule in the file returned, if not 0 */
};

static int parse(struct sync *s, const char *text, int depth, const struct merge_arg *from);

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

/* The modifiers at *p, up to the space or '_' before the pattern, into m;
 * *p left there. Returns 0, or -1 (said). */
static int modifiers(const char *text, const struct rule_kind *k, const char **p,
                     struct rule_mods *m)
{
	unsigned char sides = 0;
	for (; **p && **p != ' ' && **p != '_'; (*p)++) {
		char c = **p;
		if (k->letter == '!')
			return bad_rule("'!' rule has trailing characters", text);
		if (!strchr(k->mods, c) || ((c == '-' || c == '+') && m->bare)) {
			fprintf(stderr, "invalid modifier '%c' at position %d in filter rule: %s\n",
			        c, (int)(*p - text), text);
			return -1;
		}
		if (strchr(UNSUPPORTED, c))
			return bad_rule("sweep-sync: this modifier is not supported in filter rule", text);
		if (c == 's' || c == 'r')
			sides |= c == 's' ? RULE_SENDER : RULE_RECEIVER;
		else if (c == '!')
			m->negate = true;
		else if (c == 'p')
			m->perishable = true;
		else
			m->bare = c;
	}
	/* both 's' and 'r': both sides, as no modifier says */
	m->side = sides == (RULE_SENDER | RULE_RECEIVER) ? RULE_BOTH : sides;
	m->sided = sides || k->side;
	return 0;
}

static int push(struct sync *s, const char *pattern, bool include, const struct rule_mods *m)
{
	if (filter_push(s, pattern, include, m->side, m->negate) < 0) {
		diag_error(s->diag, 0, "memory exhausted");
		return -1;
	}
	s->rules[s->nrules - 1].perishable = m->perishable;
	return 0;
}

static int merge_line(void *arg, const char *line)
{
	struct merge_arg *m = arg;
	m->line++;
	m->failed = m->mods.bare ? push(m->s, line, m->mods.bare == '+', &m->mods)
	            : parse(m->s, line, m->depth + 1, m);
	return m->failed ? -1 : 0;
}

static int merge(struct sync *s, const char *path, struct merge_arg *m)
{
	if (m->depth >= MERGE_DEPTH) {
		fprintf(stderr, "[client] merge-file include depth limit (%d) exceeded at %s\n",
		        MERGE_DEPTH, path);
		return -2;
	}
	if (listfile_read(path, s->from0, true, merge_line, m) == 0 || (!m->failed && errno == EISDIR))
		return 0; /* (a directory: nothing to read, as rsync) */
	if (m->failed)
		return m->failed; /* a rule in it, or a file it merges: said */
	report_error(s, errno, "[client] failed to open %s file %s",
	             m->mods.bare == '+' ? "include" : "exclude", path);
	return -2;
}

/* One rule; from: the merge file it was read from, or NULL. */
static int parse(struct sync *s, const char *text, int depth, const struct merge_arg *from)
{
	const char *p;
	if (!*text)
		return 0; /* (an empty rule: none, as rsync) */
	const struct rule_kind *k = rule_kind(text, &p);
	if (!k)
		return bad_rule("Unknown filter rule", text);
	if (k->letter == ':')
		return bad_rule("sweep-sync: per-directory merge files (dir-merge, ':', -F) are not supported",
		                text);
	struct rule_mods m = { 0 };
	if (modifiers(text, k, &p, &m) < 0)
		return -1;
	const char *arg = *p ? p + 1 : p;
	if (k->letter == '!') {
		if (*p)
			return bad_rule("'!' rule has trailing characters", text);
		filter_free(s);
		return 0;
	}
	if (!*arg)
		return bad_rule("unexpected end of filter rule", text);
	if (!m.side)
		m.side = k->side;
	if (from) { /* what the merge rule said, for every rule in its file */
		if (from->mods.sided && m.sided) {
			fprintf(stderr, "specified-side merge file contains specified-side filter: "
			        "<rule from %s line %d>\n", from->path, from->line);
			return -1;
		}
		m.side |= from->mods.side;
		m.perishable |= from->mods.perishable;
	}
	if (k->letter != '.')
		return push(s, arg, k->include, &m);
	struct merge_arg inner = { s, depth, m, arg, 0, 0 };
	return merge(s, arg, &inner);
}

int filter_rule(struct sync *s, const char *text)
{
	return parse(s, text, 0, NULL);
}
