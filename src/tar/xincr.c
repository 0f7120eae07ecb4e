/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xincr.c: -G/--incremental (or -g with -x) on extract: GNU tar's dumpdirs
 * acted on, so that incremental dumps extracted in order leave the tree as
 * it was at the last one.
 *
 * A directory member of an incremental archive carries its dumpdir: what
 * the directory held at the dump, a flag and a name each ('Y' and 'N'
 * files, 'D' directories), and renames ('R' a name and 'T' the name it got,
 * both from the extraction's top; an empty name is a temporary one, made
 * in the directory the 'X' before names, as GNU tar swaps two directories'
 * names through one). Before the directory is extracted, as GNU tar does,
 * the renames are made, then whatever the directory holds on the disk that
 * the dumpdir does not list, or lists as of the other kind (a file where a
 * directory was dumped, or the reverse), is removed, a directory with all
 * it holds; but once a rename failed, nothing more: what is there may be
 * what was to be moved (a directory's dumpdir lists what it holds after
 * the moves), and it stays, as GNU tar leaves it.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"

/* The member's data, the dumpdir, into sb. Returns 0, or -1 after a read
 * error (fatal, reported). */
static int read_dumpdir(struct extract *x, struct strbuf *sb)
{
	char buf[8192];
	la_ssize_t n;
	while ((n = archive_read_data(x->in, buf, sizeof(buf))) > 0)
		if (sb_add(sb, buf, (size_t)n) < 0) {
			tar_fatal(x->t, ENOMEM, "memory exhausted");
			return -1;
		}
	if (n < 0) {
		extract_read_failed(x);
		return -1;
	}
	return sb_addc(sb, 0) < 0 ? -1 : 0; /* an end, should the last be cut */
}

/* Whether the dumpdir's renames are well made, as GNU tar's dumpdir_ok()
 * checks them (each 'R' followed by a 'T', an empty name only after an
 * 'X', one 'X' at a time): a dumpdir that is not is said so, and acted
 * on not at all. */
static bool well_made(struct tar *t, const struct strbuf *dd)
{
	bool xdir = false;
	char expect = 0;
	for (const char *p = sb_str(dd); *p; p += strlen(p) + 1) {
		if (expect && *p != expect) {
			tar_error(t, 0, "Malformed dumpdir: expected '%c' but found %#3o", expect,
			          (unsigned)(unsigned char)*p);
			return false;
		}
		const char *bad = NULL;
		switch (*p) {
		case 'X':
			bad = xdir ? "'X' duplicated" : NULL;
			xdir = true;
			break;
		case 'R':
			if (!p[1])
				bad = xdir ? NULL : "empty name in 'R'";
			if (!p[1])
				xdir = false;
			expect = 'T';
			break;
		case 'T':
			bad = expect != 'T' ? "'T' not preceded by 'R'"
			      : !p[1] && !xdir ? "empty name in 'T'" : NULL;
			expect = 0;
			break;
		}
		if (bad) {
			tar_error(t, 0, "Malformed dumpdir: %s", bad);
			return false;
		}
	}
	if (expect) {
		tar_error(t, 0, "Malformed dumpdir: expected '%c' but found end of data", expect);
		return false;
	}
	if (xdir)
		tar_note(t, WARN_BAD_DUMPDIR, "Malformed dumpdir: 'X' never used");
	return true;
}

/* The names directory d holds now, each ended by a NUL, into names.
 * Returns 0 or -1 (ENOMEM). */
static int read_names(DIR *d, struct strbuf *names)
{
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (sb_add(names, de->d_name, strlen(de->d_name) + 1) < 0)
			return -1;
	}
	return 0;
}

/* A name for the temporary rename in directory dir that nothing has;
 * into tmp. Returns 0 or -1. */
static int temp_name(struct strbuf *tmp, const char *dir)
{
	struct stat st;
	for (unsigned i = 0; i < 1000; i++) {
		sb_reset(tmp);
		if (sb_printf(tmp, "%s%s.sweep-tar.%ld.%u", *dir ? dir : ".", "/", (long)getpid(), i) < 0)
			return -1;
		if (lstat(tmp->s, &st) < 0 && errno == ENOENT)
			return 0;
	}
	errno = EEXIST;
	return -1;
}

/* Make the directories on the way to path that are not there. */
static void make_way(const char *path)
{
	char *p = strdup(path);
	for (char *s = p ? strchr(p + 1, '/') : NULL; s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	free(p);
}

/* rename(from, to), and again once the directories on the way to "to"
 * are made, as GNU tar does it. */
static int rename_made(const char *from, const char *to)
{
	if (rename(from, to) == 0)
		return 0;
	if (errno != ENOENT)
		return -1;
	make_way(to);
	return rename(from, to);
}

/* Make the dumpdir's renames: each 'R' with the 'T' after it, an empty
 * name the temporary one (in the directory of the last 'X'). Returns
 * whether they were all made. */
static bool renames(struct extract *x, const struct strbuf *dd)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *from = NULL, *xdir = ".";
	bool ok = true, have_tmp = false;
	for (const char *p = sb_str(dd); *p; p += strlen(p) + 1) {
		if (*p == 'X')
			xdir = safename(x->t, p + 1, false, NULL);
		else if (*p == 'R')
			/* (as member names: without a leading '/' or '..', unless -P) */
			from = p[1] ? safename(x->t, p + 1, false, NULL) : have_tmp ? tmp.s : p + 1;
		else if (*p == 'T' && from) {
			const char *to = p[1] ? safename(x->t, p + 1, false, NULL) : p + 1;
			if (!*to) {
				if (temp_name(&tmp, xdir) < 0) {
					tar_error(x->t, errno, "%s: Cannot rename", tq(x->t, 0, from));
					ok = false;
					from = NULL;
					continue;
				}
				have_tmp = true;
				to = tmp.s;
			}
			/* nor through a link the archive made (the names were
			 * checked, the links may lead anywhere) */
			if (!xlinks_may_extract(x, from) || !xlinks_may_extract(x, to)) {
				ok = false;
				break;
			}
			if (rename_made(from, to) < 0) {
				tar_error(x->t, errno, "Cannot rename %s to %s", tquote(x->t, 0, from),
				          tquote(x->t, 1, to));
				ok = false;
				break; /* as GNU tar: the others may depend on it */
			}
			from = NULL;
		}
	}
	sb_free(&tmp);
	return ok;
}

/* Remove what directory name held (names, read before the renames) that dd
 * does not list as it is now: a name not listed, a directory listed as a
 * file ('Y') or a file as a directory ('D'); an 'N' (there, not dumped:
 * excluded, or below --no-recursion) stays whatever it is, as in GNU tar. */
static void purge(struct extract *x, const char *name, const struct strbuf *names,
                  const struct strbuf *dd)
{
	struct tar *t = x->t;
	struct dd_index l;
	if (dd_index_make(&l, sb_str(dd)) < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return;
	}
	struct strbuf path = STRBUF_INIT;
	for (const char *n = sb_str(names); n < sb_str(names) + names->len; n += strlen(n) + 1) {
		struct stat st;
		sb_reset(&path);
		if (sb_printf(&path, "%s%s%s", name, name[strlen(name) - 1] == '/' ? "" : "/", n) < 0 ||
		    lstat(path.s, &st) < 0)
			continue; /* (moved away by a rename) */
		char flag = dd_index_flag(&l, n);
		if (flag == 'N' || (flag == 'D' && S_ISDIR(st.st_mode)) ||
		    (flag == 'Y' && !S_ISDIR(st.st_mode)))
			continue;
		/* GNU tar says so with the listing, its name first */
		if (t->opt.verbose)
			fprintf(t->listing, "%s: Deleting %s\n", t->diag->prog,
			        diag_quote_style(t->diag, 0, QUOTE_LOCALE, path.s));
		if (xunlink_tree(path.s) < 0)
			tar_cannot(t, path.s, "unlink", errno);
	}
	sb_free(&path);
	dd_index_free(&l);
}

/* The renames and removals dumpdir dd asks of directory name: none when it
 * is not there (it is about to be made), nor when dd is malformed. */
static void act_on(struct extract *x, const char *name, const struct strbuf *dd)
{
	struct strbuf names = STRBUF_INIT;
	DIR *d = opendir(name);
	if (!d)
		return;
	int r = read_names(d, &names);
	closedir(d);
	if (r < 0)
		tar_fatal(x->t, ENOMEM, "memory exhausted");
	else if (!well_made(x->t, dd))
		;
	else if (!renames(x, dd))
		x->renames_failed = true;
	else if (!x->renames_failed)
		purge(x, name, &names, dd);
	sb_free(&names);
}

int xincr_dir(struct extract *x, struct archive_entry *e, const char *name)
{
	if (!x->t->opt.incremental || archive_entry_filetype(e) != AE_IFDIR ||
	    !archive_entry_size_is_set(e) || archive_entry_size(e) <= 0)
		return 0;
	struct strbuf dd = STRBUF_INIT;
	int r = read_dumpdir(x, &dd);
	if (r == 0)
		act_on(x, name, &dd);
	sb_free(&dd);
	archive_entry_set_size(e, 0);
	return r < 0 ? -1 : 1;
}
