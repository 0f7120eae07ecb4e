/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chmod.c: --chmod=CHMOD, rsync's changes to the permissions the sender
 * reads, as if the source had them (so without -p they reach new files
 * only). CHMOD is a comma-separated list of items, each applied in turn:
 * an item starting with D applies to directories only, F to the rest; then
 * an octal mode (the permissions and special bits, set whole), or WHO OP
 * PERMS as in chmod(1): WHO of u, g, o, a (none: all, but for the bits of
 * the umask), OP one of + - =, PERMS of r, w, x, X (x where a directory,
 * or where the source has an x bit), s, t, or one class, u, g or o, whose
 * bits are copied.
 *
 * Where it parts from GNU chmod, it follows rsync (measured against rsync
 * 3.5): "=" keeps the special bits unless s or t is given, "+s" without a
 * WHO is the set-user-ID bit alone, an octal mode sets the special bits of
 * a directory too, X looks at the source's bits rather than the ones the
 * items before set, and "=" copying a class clears the special bit of each
 * class set (u: set-user-ID, g: set-group-ID, o: sticky).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sync.h"

enum { ONLY_DIRS = 1, ONLY_FILES = 2 };

struct sync_chmod {
	unsigned char only;  /* ONLY_* */
	char op;             /* '+', '-', '=', or 0 for an octal mode */
	char from;           /* the class copied (u, g, o), or 0 */
	bool xkeep;          /* X */
	mode_t who;          /* 0111-style: a bit for each class named; 0 none */
	mode_t topbits;      /* the set-ID bits of u and g when named */
	mode_t perms;        /* rwx as 4 2 1 */
	mode_t special;      /* s and t bits asked for */
	mode_t octal;
};

static mode_t class_bit(char c)
{
	return c == 'u' ? 0100 : c == 'g' ? 0010 : c == 'o' ? 0001 : c == 'a' ? 0111 : 0;
}

/* The special bits of the classes in who: u's set-user-ID, g's
 * set-group-ID, o's sticky bit. */
static mode_t class_special(mode_t who)
{
	return (who & 0100 ? 04000 : 0) | (who & 0010 ? 02000 : 0) | (who & 0001 ? 01000 : 0);
}

/* D or F (c) into m: false when the other was given. */
static bool only_one(struct sync_chmod *m, char c)
{
	unsigned char only = c == 'D' ? ONLY_DIRS : ONLY_FILES;
	if (m->only && m->only != only)
		return false;
	m->only = only;
	return true;
}

/* Parse one item of len bytes at p into *m. Returns whether it is one. */
static bool parse_item(const char *p, size_t len, struct sync_chmod *m)
{
	const char *end = p + len;
	memset(m, 0, sizeof(*m));
	for (; p < end && (*p == 'D' || *p == 'F'); p++)
		if (!only_one(m, *p))
			return false;
	if (p < end && *p >= '0' && *p <= '7') {
		for (; p < end && *p >= '0' && *p <= '7'; p++)
			m->octal = (m->octal << 3) | (mode_t)(*p - '0');
		return p == end && m->octal <= 07777;
	}
	for (; p < end && (class_bit(*p) || *p == 'D' || *p == 'F'); p++) {
		if (!class_bit(*p) && !only_one(m, *p))
			return false;
		m->who |= class_bit(*p);
		m->topbits |= *p == 'u' ? 04000 : *p == 'g' ? 02000 : *p == 'a' ? 06000 : 0;
	}
	if (p == end || !strchr("+-=", *p))
		return false;
	m->op = *p++;
	if (p < end && strchr("ugo", *p)) {
		m->from = *p++;
		return p == end;
	}
	for (; p < end; p++) {
		switch (*p) {
		case 'r': m->perms |= 4; break;
		case 'w': m->perms |= 2; break;
		case 'X': m->xkeep = true; /* fall through */
		case 'x': m->perms |= 1; break;
		/* with no u or g, rsync's s is the set-user-ID bit, and only it
		 * (a t before it is lost) */
		case 's': m->special = m->topbits ? m->special | m->topbits : 04000; break;
		case 't': m->special |= 01000; break;
		default: return false;
		}
	}
	return true;
}

int chmod_add(struct sync *s, const char *arg)
{
	const char **args = realloc(s->chmod_args, (s->nchmod_args + 1) * sizeof(*args));
	if (!args) {
		report_error(s, ENOMEM, "--chmod");
		return -1;
	}
	s->chmod_args = args;
	args[s->nchmod_args++] = arg;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		struct sync_chmod m;
		if (!parse_item(p, len, &m)) {
			report_error(s, 0, "Invalid argument passed to --chmod (%s)", arg);
			return -1;
		}
		struct sync_chmod *v = realloc(s->chmod, (s->nchmod + 1) * sizeof(*v));
		if (!v) {
			report_error(s, ENOMEM, "--chmod");
			return -1;
		}
		s->chmod = v;
		s->chmod[s->nchmod++] = m;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!s->chmod_umask_known) {
		s->chmod_umask = umask(0);
		umask(s->chmod_umask);
		s->chmod_umask_known = true;
	}
	return 0;
}

/* The bits of class from in mode, as rwx of each class in who. */
static mode_t copied(mode_t mode, char from, mode_t who)
{
	unsigned shift = from == 'u' ? 6 : from == 'g' ? 3 : 0;
	return who * ((mode >> shift) & 7);
}

static mode_t apply(const struct sync_chmod *m, mode_t mode, mode_t umask_bits, bool x_before,
                    bool dir)
{
	if (!m->op)
		return (mode & ~(mode_t)07777) | m->octal;
	mode_t who = m->who ? m->who : 0111;
	mode_t bits = m->from ? copied(mode, m->from, who) : who * m->perms;
	if (!m->who)
		bits &= ~umask_bits;
	if (m->xkeep && !x_before && !dir && m->op != '-') /* X adds no x there; - takes it */
		bits &= ~(mode_t)0111;
	switch (m->op) {
	case '+':
		return mode | bits | m->special;
	case '-':
		return mode & ~(bits | m->special);
	default: /* '=': the set-ID bits of u and g named too where s or t is
		  * given; every special bit of the classes set where one is copied */
		mode &= ~(who * 7);
		mode &= ~(m->from ? class_special(who) : m->special ? m->topbits : 0);
		return mode | bits | m->special;
	}
}

mode_t chmod_apply(const struct sync *s, mode_t mode)
{
	bool dir = S_ISDIR(mode), x_before = (mode & 0111) != 0;
	for (size_t i = 0; i < s->nchmod; i++) {
		const struct sync_chmod *m = &s->chmod[i];
		if ((m->only == ONLY_DIRS && !dir) || (m->only == ONLY_FILES && dir))
			continue;
		mode = apply(m, mode, s->chmod_umask, x_before, dir);
	}
	return mode;
}

const struct sweep_entry *chmod_view(const struct sync *s, const struct sweep_entry *e,
                                     struct sweep_entry *view)
{
	if (!s->nchmod || e->kind == SWEEP_ERROR || S_ISLNK(e->st.st_mode))
		return e;
	*view = *e;
	view->st.st_mode = chmod_apply(s, e->st.st_mode);
	return view;
}

void chmod_free(struct sync *s)
{
	free(s->chmod);
	free(s->chmod_args);
}

const struct sweep_entry *sync_source_view(void *arg, const struct sweep_entry *e,
                                           struct sweep_entry *view)
{
	struct sync *s = arg;
	e = chmod_view(s, e, view);
	if ((s->usermap || s->groupmap) && e->kind != SWEEP_ERROR) {
		if (e != view)
			*view = *e;
		chown_apply(s, &view->st);
		e = view;
	}
	return e;
}
