/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * names.c: what find knows of an entry beyond libsweep's fields.
 *
 * The parts of its name that find shows (%f, %h, %P) and matches (-name),
 * with GNU find's treatment of starting points that end in slashes: "d/"
 * has %f "d/", %h "." and -name matches "d"; "/" is "/". Below a starting
 * point the last component is simply the entry's name.
 *
 * Its status: the walk asks libsweep not to stat files (SWEEP_NOSTAT: their
 * type and inode come from the directory), and the status is fetched here
 * the first time a test needs it, as GNU find does. An expression like
 * "-name '*.c'" reads no inode at all; one that needs sizes or times still
 * stats in disk order, the order entries come in.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "find.h"

/* Where the last component of the starting point path begins, and how long
 * it is without trailing slashes; all-slash paths have none (*len 0). */
static size_t last_component(const char *path, size_t *len)
{
	size_t end = strlen(path);
	while (end > 0 && path[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	*len = end - start;
	return start;
}

/* %f: the name; for a starting point, its last component with at most one
 * of its trailing slashes ("/" for "/" or "//"). */
const char *entry_basename(const struct sweep_entry *e, struct strbuf *sb)
{
	if (e->depth > 0)
		return e->name;
	size_t len, start = last_component(e->path, &len);
	sb_reset(sb);
	if (len == 0)
		return "/";
	size_t keep = e->path[start + len] == '/' ? len + 1 : len;
	if (sb_add(sb, e->path + start, keep) < 0)
		return e->path + start;
	return sb_str(sb);
}

/* -name's subject: the base name without trailing slashes. */
const char *entry_matchname(const struct sweep_entry *e, struct strbuf *sb)
{
	if (e->depth > 0)
		return e->name;
	size_t len, start = last_component(e->path, &len);
	sb_reset(sb);
	if (len == 0)
		return "/";
	if (sb_add(sb, e->path + start, len) < 0)
		return e->path + start;
	return sb_str(sb);
}

/* %h: what comes before the base name, less the one slash that separates
 * them; "." when there is nothing. A starting point without a directory
 * part but with trailing slashes follows GNU find 4.9, which takes
 * everything before the last slash when the name is one character or none
 * ("a/" gives "a", "a//" "a/", "//" "/", "/" nothing) and "." otherwise
 * ("dir/"). */
const char *entry_dirname(const struct sweep_entry *e, struct strbuf *sb)
{
	const char *p = e->path;
	size_t len = 1, start = (size_t)(e->name - e->path);
	if (e->depth == 0)
		start = last_component(p, &len);
	sb_reset(sb);
	int err;
	const char *slash = strrchr(p, '/');
	if (start > 0)
		err = sb_add(sb, p, start - 1);
	else if (len > 1 || !slash)
		err = sb_addstr(sb, ".");
	else
		err = sb_add(sb, p, (size_t)(slash - p));
	return err ? "." : sb_str(sb);
}

/* %P: the path below the starting point, "" for the starting point. */
const char *entry_relative(const struct find *f, const struct sweep_entry *e)
{
	if (e->depth == 0 || !f->root)
		return "";
	size_t n = strlen(f->root);
	const char *rest = strncmp(e->path, f->root, n) == 0 ? e->path + n : e->name;
	return *rest == '/' ? rest + 1 : rest;
}

/* Whether e was stat-ed through a symbolic link (-L, or -H for a starting
 * point). */
bool entry_follows(const struct find *f, const struct sweep_entry *e)
{
	return f->opt.follow == SWEEP_FOLLOW_ALL ||
	       (f->opt.follow == SWEEP_FOLLOW_ROOTS && e->depth == 0);
}

/* The target of a symbolic link, in sb; NULL for anything else or when it
 * cannot be read. */
const char *entry_link(const struct sweep_entry *e, struct strbuf *sb)
{
	if (!S_ISLNK(e->st.st_mode))
		return NULL;
	size_t size = e->st.st_size > 0 ? (size_t)e->st.st_size + 1 : 256;
	for (;;) {
		sb_reset(sb);
		if (sb_reserve(sb, size) < 0)
			return NULL;
		ssize_t n = readlinkat(e->dirfd, e->name, sb->s, size);
		if (n < 0)
			return NULL;
		if ((size_t)n < size) {
			sb->s[n] = 0;
			sb->len = (size_t)n;
			return sb->s;
		}
		size *= 2;
	}
}

/* Whether GNU find takes e's status only when a test wants it: not a
 * directory's, a starting point's, nor a link's followed (fts has those
 * before the expression is evaluated). */
static bool stat_when_wanted(const struct find *f, const struct sweep_entry *e)
{
	struct stat st;
	if (e->depth == 0 || S_ISDIR(e->st.st_mode))
		return false;
	return f->opt.follow != SWEEP_FOLLOW_ALL ||
	       (fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode));
}

/* The entry's status, fetched on first use; NULL when it cannot be had
 * (reported once). What libsweep took ahead (helper threads) stands for
 * the status GNU find would take here, unless GNU takes it only when a
 * test wants it and a command ran on the entry before a test looked at
 * it: GNU's is taken after the command, and so is this. */
const struct stat *entry_stat(struct find *f, const struct sweep_entry *e)
{
	if (f->no_stat)
		return NULL;
	if (!(e->flags & SWEEP_E_NOSTAT) &&
	    (f->ran_serial != f->serial || !stat_when_wanted(f, e))) {
		f->looked_serial = f->serial;
		return &e->st;
	}
	if (f->lazy_serial == f->serial)
		return f->lazy_ok ? &f->lazy : NULL;
	f->lazy_serial = f->serial;
	/* NOSTAT entries, and those taken anew after a command, are never
	 * links to follow (stat_when_wanted()): libsweep stats those */
	f->lazy_ok = fstatat(e->dirfd, e->name, &f->lazy, AT_SYMLINK_NOFOLLOW) == 0;
	if (!f->lazy_ok && !entry_vanished(f, e, errno))
		diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, e->path));
	return f->lazy_ok ? &f->lazy : NULL;
}

bool entry_vanished(const struct find *f, const struct sweep_entry *e, int err)
{
	return f->opt.ignore_race && err == ENOENT && e->depth > 0;
}
