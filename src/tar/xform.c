/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xform.c: --transform (--xform), GNU tar's sed-like name edits.
 *
 * Each option holds expressions separated by ';': s/REGEX/REPLACEMENT/FLAGS
 * (any delimiter after the s) or flags=SCOPES, which sets the scopes of the
 * expressions after it. They are compiled once, in order, and a name goes
 * through every one whose scopes include what the name is: a member name
 * (r), a hard link's target (h), a symbolic link's target (s).
 *
 * What GNU tar does is kept where a script could rely on it: a regex that
 * starts with '^' or ends with '$' is replaced once even under g, and \u or
 * \l inside \U or \L ends the \U or \L after its one character. Two things
 * are not: a match number N keeps the text before the skipped matches once
 * (GNU tar 1.34 repeats it), and an empty match under g moves on by one
 * character as sed does (GNU tar 1.34 never ends).
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "tar.h"

enum seg_kind { SEG_TEXT, SEG_REF, SEG_CASE };
enum case_op { CASE_NONE, CASE_STOP, CASE_UPPER, CASE_LOWER, CASE_UPPER_NEXT, CASE_LOWER_NEXT };

/* One piece of a replacement. */
struct xform_seg {
	enum seg_kind kind;
	size_t off, len;      /* SEG_TEXT: a span of the rule's text */
	size_t ref;           /* SEG_REF: the group, 0 for the whole match */
	enum case_op op;      /* SEG_CASE */
};

struct xform_rule {
	regex_t re;
	bool global;          /* g: every match, not the first only */
	size_t nth;           /* N: from the Nth match on; 0 as 1 */
	unsigned scopes;      /* XFORM_* */
	struct strbuf text;   /* the replacement's literal pieces */
	struct xform_seg *segs;
	size_t nsegs, capsegs;
};

/* The scope flag c turned on or off in *scopes; false when c is none. */
static bool scope_flag(unsigned *scopes, char c)
{
	static const char on[] = "rhs", off[] = "RHS";
	static const unsigned bits[] = { XFORM_NAME, XFORM_HARDLINK, XFORM_SYMLINK };
	const char *p;
	if (c && (p = strchr(on, c)) != NULL)
		*scopes |= bits[p - on];
	else if (c && (p = strchr(off, c)) != NULL)
		*scopes &= ~bits[p - off];
	else
		return false;
	return true;
}

static int add_seg(struct xform_rule *r, struct xform_seg seg)
{
	if (r->nsegs == r->capsegs) {
		size_t cap = r->capsegs ? 2 * r->capsegs : 8;
		struct xform_seg *v = reallocarray(r->segs, cap, sizeof(*v));
		if (!v)
			return -1;
		r->segs = v;
		r->capsegs = cap;
	}
	r->segs[r->nsegs++] = seg;
	return 0;
}

/* Literal text, joined to the text segment before it when there is one. */
static int add_text(struct xform_rule *r, const char *p, size_t n)
{
	if (!n)
		return 0;
	size_t off = r->text.len;
	if (sb_add(&r->text, p, n) < 0)
		return -1;
	struct xform_seg *last = r->nsegs ? &r->segs[r->nsegs - 1] : NULL;
	if (last && last->kind == SEG_TEXT && last->off + last->len == off) {
		last->len += n;
		return 0;
	}
	return add_seg(r, (struct xform_seg){ .kind = SEG_TEXT, .off = off, .len = n });
}

/* What a backslash and the character after it stand for in a replacement,
 * other than a group: a control character, a case change, or themselves. */
static int add_backslash(struct xform_rule *r, char c, char delim)
{
	static const char names[] = "abfnrtv", values[] = "\a\b\f\n\r\t\v";
	static const char cases[] = "ELUlu";
	static const enum case_op ops[] = { CASE_STOP, CASE_LOWER, CASE_UPPER,
	                                    CASE_LOWER_NEXT, CASE_UPPER_NEXT };
	const char *p;
	if ((p = strchr(names, c)) != NULL)
		return add_text(r, &values[p - names], 1);
	if ((p = strchr(cases, c)) != NULL)
		return add_seg(r, (struct xform_seg){ .kind = SEG_CASE, .op = ops[p - cases] });
	if (c == '\\' || c == '&' || c == delim)
		return add_text(r, &c, 1);
	char both[2] = { '\\', c };
	return add_text(r, both, 2);
}

/* Split the replacement text (n bytes at p) into segments. Returns 0, -1
 * when memory ran out, or 1 for a group the regex does not have. */
static int parse_replacement(struct xform_rule *r, const char *p, size_t n, char delim)
{
	const char *end = p + n, *text = p;
	while (p < end) {
		if (*p != '\\' && *p != '&') {
			p++;
			continue;
		}
		if (add_text(r, text, (size_t)(p - text)) < 0)
			return -1;
		if (*p == '&' || isdigit((unsigned char)p[1])) {
			char *after = (char *)p + 1;
			size_t ref = *p == '&' ? 0 : strtoul(p + 1, &after, 10);
			if (ref > r->re.re_nsub)
				return 1;
			if (add_seg(r, (struct xform_seg){ .kind = SEG_REF, .ref = ref }) < 0)
				return -1;
			p = after;
		} else if (p + 1 == end) { /* a backslash at the very end */
			if (add_text(r, p++, 1) < 0)
				return -1;
		} else {
			if (add_backslash(r, p[1], delim) < 0)
				return -1;
			p += 2;
		}
		text = p;
	}
	return add_text(r, text, (size_t)(p - text));
}

/* The end of a part of an s expression that ends at delim (a backslash
 * keeps the character after it in the part); NULL when delim never comes. */
static const char *part_end(const char *p, char delim)
{
	for (; *p && *p != delim; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p : NULL;
}

/* The flags after the last delimiter, up to ';' or the end; *p moves past
 * them. Returns false after a usage error (reported). */
static bool parse_flags(struct tar *t, struct xform_rule *r, const char **p, int *cflags)
{
	const char *s = *p;
	for (; *s && *s != ';'; s++) {
		if (*s == 'g')
			r->global = true;
		else if (*s == 'i')
			*cflags |= REG_ICASE;
		else if (*s == 'x')
			*cflags |= REG_EXTENDED;
		else if (isdigit((unsigned char)*s)) {
			char *after;
			r->nth = strtoul(s, &after, 10);
			s = after - 1;
		} else if (!scope_flag(&r->scopes, *s)) {
			tar_warn(t, 0, "Unknown flag in transform expression: %c", *s);
			return false;
		}
	}
	*p = *s ? s + 1 : s;
	return true;
}

/* Compile the regex (n bytes at p) into r->re. Returns false after a usage
 * error (reported). */
static bool compile(struct tar *t, struct xform_rule *r, const char *p, size_t n, int cflags)
{
	char *re = strndup(p, n);
	if (!re) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return false;
	}
	int rc = regcomp(&r->re, re, cflags);
	/* GNU tar: an anchored regex can only match once anyway */
	if (n && (re[0] == '^' || re[n - 1] == '$'))
		r->global = false;
	free(re);
	if (rc == 0)
		return true;
	char why[256];
	regerror(rc, &r->re, why, sizeof(why));
	tar_warn(t, 0, "Invalid transform expression: %s", why);
	return false;
}

static void rule_free(struct xform_rule *r)
{
	regfree(&r->re);
	sb_free(&r->text);
	free(r->segs);
}

/* One s expression at *p into r; *p moves past it and its ';'. Returns
 * false after an error (reported); r is then the caller's to free only
 * when *compiled says its regex was compiled. */
static bool parse_subst(struct tar *t, struct xform_rule *r, const char **p, bool *compiled)
{
	const char *s = *p;
	char delim = s[1];
	const char *re_end = delim ? part_end(s + 2, delim) : NULL;
	const char *repl_end = re_end ? part_end(re_end + 1, delim) : NULL;
	if (!repl_end) {
		tar_warn(t, 0, "Invalid transform expression");
		return false;
	}
	const char *flags = repl_end + 1;
	int cflags = 0;
	if (!parse_flags(t, r, &flags, &cflags))
		return false;
	if (!compile(t, r, s + 2, (size_t)(re_end - (s + 2)), cflags))
		return false;
	*compiled = true;
	int rc = parse_replacement(r, re_end + 1, (size_t)(repl_end - (re_end + 1)), delim);
	if (rc < 0)
		tar_fatal(t, ENOMEM, "memory exhausted");
	else if (rc > 0)
		tar_warn(t, 0, "Invalid transform replacement: back reference out of range");
	*p = flags;
	return rc == 0;
}

/* flags=SCOPES at *p: the scopes of the expressions after it. */
static bool parse_scopes(struct tar *t, const char **p)
{
	unsigned scopes = 0;
	const char *s = *p + strlen("flags=");
	for (; *s && *s != ';'; s++) {
		if (!scope_flag(&scopes, *s)) {
			tar_warn(t, 0, "Unknown transform flag: %c", *s);
			return false;
		}
	}
	t->opt.xform.scopes = scopes;
	*p = *s ? s + 1 : s;
	return true;
}

static bool add_rule(struct tar *t, const char **p)
{
	struct tar_xforms *xf = &t->opt.xform;
	if (xf->n == xf->cap) {
		size_t cap = xf->cap ? 2 * xf->cap : 4;
		struct xform_rule *v = reallocarray(xf->v, cap, sizeof(*v));
		if (!v) {
			tar_fatal(t, ENOMEM, "memory exhausted");
			return false;
		}
		xf->v = v;
		xf->cap = cap;
	}
	struct xform_rule *r = &xf->v[xf->n];
	*r = (struct xform_rule){ .scopes = xf->scopes };
	bool compiled = false;
	if (parse_subst(t, r, p, &compiled)) {
		xf->n++;
		return true;
	}
	if (compiled)
		rule_free(r);
	else
		free(r->segs);
	return false;
}

int xform_add(struct tar *t, const char *arg)
{
	while (*arg) {
		bool ok;
		if (strncmp(arg, "flags=", strlen("flags=")) == 0)
			ok = parse_scopes(t, &arg);
		else if (*arg == 's')
			ok = add_rule(t, &arg);
		else {
			tar_warn(t, 0, "Invalid transform expression");
			ok = false;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* The running case change of a replacement: GNU tar's, where \u and \l
 * go back to what was before them only when that was kept. */
struct case_state {
	enum case_op cur, saved;
};

static void case_change(struct case_state *cs, enum case_op op)
{
	bool single = op == CASE_UPPER_NEXT || op == CASE_LOWER_NEXT;
	if (single && (cs->saved == CASE_STOP || cs->saved == CASE_UPPER ||
	               cs->saved == CASE_LOWER))
		cs->saved = cs->cur;
	cs->cur = op;
}

/* Add n bytes at p to out in the running case. */
static int emit(struct strbuf *out, struct case_state *cs, const char *p, size_t n)
{
	size_t start = out->len;
	if (sb_add(out, p, n) < 0)
		return -1;
	char *s = out->s + start;
	switch (cs->cur) {
	case CASE_UPPER_NEXT:
	case CASE_LOWER_NEXT:
		if (n)
			*s = (char)(cs->cur == CASE_UPPER_NEXT ? toupper((unsigned char)*s)
			                                       : tolower((unsigned char)*s));
		cs->cur = cs->saved;
		cs->saved = CASE_NONE;
		break;
	case CASE_UPPER:
	case CASE_LOWER:
		for (size_t i = 0; i < n; i++)
			s[i] = (char)(cs->cur == CASE_UPPER ? toupper((unsigned char)s[i])
			                                    : tolower((unsigned char)s[i]));
		break;
	default:
		break;
	}
	return 0;
}

/* The replacement for the match m of subject into out. */
static int replace(const struct xform_rule *r, const char *subject, const regmatch_t *m,
                   struct strbuf *out)
{
	struct case_state cs = { CASE_NONE, CASE_NONE };
	for (size_t i = 0; i < r->nsegs; i++) {
		const struct xform_seg *g = &r->segs[i];
		int rc = 0;
		if (g->kind == SEG_TEXT)
			rc = emit(out, &cs, r->text.s + g->off, g->len);
		else if (g->kind == SEG_CASE)
			case_change(&cs, g->op);
		else if (m[g->ref].rm_so >= 0)
			rc = emit(out, &cs, subject + m[g->ref].rm_so,
			          (size_t)(m[g->ref].rm_eo - m[g->ref].rm_so));
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* name through the rule r into out. Returns 0 or -1 (ENOMEM). */
static int apply_rule(const struct xform_rule *r, const char *name, struct strbuf *out,
                      regmatch_t *m)
{
	size_t count = 0, pos = 0, want = r->nth ? r->nth : 1;
	sb_reset(out);
	while (name[pos] &&
	       regexec(&r->re, name + pos, r->re.re_nsub + 1, m, pos ? REG_NOTBOL : 0) == 0) {
		const char *at = name + pos;
		size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo;
		bool wanted = ++count >= want;
		if (sb_add(out, at, wanted ? so : eo) < 0 || (wanted && replace(r, at, m, out) < 0))
			return -1;
		/* an empty match: the character after it is kept, and the
		 * next match looked for after it */
		if (eo == so && at[eo] && sb_add(out, at + eo++, 1) < 0)
			return -1;
		pos += eo;
		if (wanted && !r->global)
			break;
	}
	return sb_addstr(out, name + pos);
}

const char *xform_apply(struct tar *t, unsigned scope, const char *name, struct strbuf *out)
{
	struct tar_xforms *xf = &t->opt.xform;
	const char *in = name;
	int which = 0;
	for (size_t i = 0; i < xf->n; i++) {
		const struct xform_rule *r = &xf->v[i];
		if (!(r->scopes & scope))
			continue;
		regmatch_t *m = calloc(r->re.re_nsub + 1, sizeof(*m));
		struct strbuf *to = &xf->scratch[which];
		int rc = m ? apply_rule(r, in, to, m) : -1;
		free(m);
		if (rc < 0)
			return NULL;
		in = to->s;
		which ^= 1;
	}
	if (in == out->s) /* name was out's own, and nothing changed it */
		return out->s;
	sb_reset(out);
	return sb_addstr(out, in) < 0 ? NULL : out->s;
}

const char *xform_member(struct tar *t, const char *raw, struct strbuf *out)
{
	size_t n = names_bare_len(raw);
	sb_reset(out);
	if (sb_add(out, raw, n) < 0 || !xform_apply(t, XFORM_NAME, out->s, out) ||
	    (raw[n] == '/' && out->len && sb_addc(out, '/') < 0))
		return NULL;
	return out->s;
}

void xform_free(struct tar_xforms *xf)
{
	for (size_t i = 0; i < xf->n; i++)
		rule_free(&xf->v[i]);
	free(xf->v);
	sb_free(&xf->scratch[0]);
	sb_free(&xf->scratch[1]);
	*xf = (struct tar_xforms){ 0 };
}
