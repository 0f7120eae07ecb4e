/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xincr.c: -G/--incremental (or -g with -x) on extract: GNU tar's dumpdirs
 * acted on, so that incremental dumps extracted in order leave the tree as
 * it was at the last one.
 *
 * A directory member of an incremental archive carries its dumpdir: what
 * the directory held at the dump, a flag and a name each ('Y' and 'N'
 * files, 'D' directories), and renames ('R' a name and 'T' the name it got,
 * both from the extraction's top). Before the directory is extracted, as
 * GNU tar does, the renames are made, then whatever the directory holds on
 * the disk that the dumpdir does not list, or lists as of the other kind
 * (a file where a directory was dumped, or the reverse), is removed, a
 * directory with all it holds.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/* The flag the dumpdir gives name, or 0 when it lists no such name. */
static char listed(const struct strbuf *dd, const char *name)
{
	for (const char *p = sb_str(dd); *p; p += strlen(p) + 1)
		if ((*p == 'Y' || *p == 'N' || *p == 'D') && strcmp(p + 1, name) == 0)
			return *p;
	return 0;
}

/* Make the dumpdir's renames: each 'R' with the 'T' after it. */
static void renames(struct extract *x, const struct strbuf *dd)
{
	const char *from = NULL;
	for (const char *p = sb_str(dd); *p; p += strlen(p) + 1) {
		if (*p == 'R')
			from = p + 1;
		else if (*p == 'T' && from) {
			if (rename(from, p + 1) < 0)
				tar_error(x->t, errno, "%s: Cannot rename to %s", tq(x->t, 0, from),
				          tq(x->t, 1, p + 1));
			from = NULL;
		}
	}
}

/* Remove what directory name holds that dd does not list as it is. */
static void purge(struct extract *x, const char *name, const struct strbuf *dd)
{
	struct tar *t = x->t;
	DIR *d = opendir(name);
	if (!d)
		return;
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat st;
		sb_reset(&path);
		if (sb_printf(&path, "%s%s%s", name, name[strlen(name) - 1] == '/' ? "" : "/",
		              de->d_name) < 0 || lstat(path.s, &st) < 0)
			continue;
		char flag = listed(dd, de->d_name);
		if (flag && (flag == 'D') == (S_ISDIR(st.st_mode) != 0))
			continue;
		/* GNU tar says so with the listing, its name first */
		if (t->opt.verbose)
			fprintf(t->listing, "%s: Deleting %s\n", t->diag->prog,
			        diag_quote_style(t->diag, 0, QUOTE_LOCALE, path.s));
		if (xunlink_tree(path.s) < 0)
			tar_cannot(t, path.s, "unlink", errno);
	}
	closedir(d);
	sb_free(&path);
}

int xincr_dir(struct extract *x, struct archive_entry *e, const char *name)
{
	if (!x->t->opt.incremental || archive_entry_filetype(e) != AE_IFDIR ||
	    !archive_entry_size_is_set(e) || archive_entry_size(e) <= 0)
		return 0;
	struct strbuf dd = STRBUF_INIT;
	int r = read_dumpdir(x, &dd);
	if (r == 0) {
		renames(x, &dd);
		purge(x, name, &dd);
	}
	sb_free(&dd);
	archive_entry_set_size(e, 0);
	return r < 0 ? -1 : 1;
}
