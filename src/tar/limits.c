/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limits.c: what ustar and v7 headers cannot hold, refused before libarchive
 * is asked, with GNU tar's words and choices: a name too long for the
 * format (ustar splits names of up to 256 bytes at a '/' into a prefix of
 * 155 and a name of 100; v7 holds 99), a link target over 100 bytes (99
 * in v7, one less than GNU tar), numbers past their octal fields, and in
 * v7 devices and fifos. A directory refused is not read either, as in GNU
 * tar.
 */
#include <archive_entry.h>
#include <stdint.h>
#include <string.h>
#include "create.h"

enum { NAME_FIELD = 100, PREFIX_FIELD = 155 };

/* Where GNU tar splits a long ustar name: the last '/' in the first 156
 * bytes (not a trailing one); 0 when there is none. */
static size_t split_at(const char *name, size_t len)
{
	if (len > PREFIX_FIELD + 1)
		len = PREFIX_FIELD + 1;
	else if (name[len - 1] == '/')
		len--;
	size_t i = len - 1;
	while (i > 0 && name[i] != '/')
		i--;
	return i;
}

/* Why member cannot be stored in format f, in GNU tar's words; NULL when
 * it can. */
static const char *name_problem(enum tar_format f, const char *member)
{
	size_t len = strlen(member);
	if (f == FMT_V7)
		return len > NAME_FIELD - 1 ? "file name is too long (max 99); not dumped" : NULL;
	if (f != FMT_USTAR || len <= NAME_FIELD)
		return NULL;
	if (len > PREFIX_FIELD + NAME_FIELD + 1)
		return "file name is too long (max 256); not dumped";
	size_t i = split_at(member, len);
	size_t rest = len - i - 1;
	if (i == 0 || rest > NAME_FIELD || rest == 0)
		return "file name is too long (cannot be split); not dumped";
	return NULL;
}

bool limits_name_ok(struct create *cr, const char *path, const char *member, bool quiet)
{
	const char *why = name_problem(cr->format, member);
	if (why && !quiet)
		tar_error(cr->t, 0, "%s: %s", tq(cr->t, 0, path), why);
	return why == NULL;
}

/* Whether the numbers of e fit the octal fields of ustar and v7 (7
 * digits for ids, 11 for size and time); else the first that does not is
 * reported in GNU tar's words, which name no file, and e is not stored. */
static bool numbers_fit(struct create *cr)
{
	struct archive_entry *ae = cr->entry;
	const int64_t id_max = 07777777, big_max = 077777777777;
	const struct { const char *type; int64_t v, max; } field[] = {
		{ "uid_t", archive_entry_uid(ae), id_max },
		{ "gid_t", archive_entry_gid(ae), id_max },
		{ "off_t", archive_entry_size(ae), big_max },
		{ "time_t", archive_entry_mtime(ae), big_max },
	};
	for (size_t i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		if (field[i].v >= 0 && field[i].v <= field[i].max)
			continue;
		tar_error(cr->t, 0, "value %jd out of %s range 0..%jd", (intmax_t)field[i].v,
		          field[i].type, (intmax_t)field[i].max);
		return false;
	}
	return true;
}

bool limits_entry_ok(struct create *cr, const struct sweep_entry *e)
{
	if (cr->format != FMT_USTAR && cr->format != FMT_V7)
		return true;
	if (!numbers_fit(cr))
		return false;
	mode_t type = e->st.st_mode & S_IFMT;
	if (cr->format == FMT_V7 && !e->link_first &&
	    (type == S_IFCHR || type == S_IFBLK || type == S_IFIFO)) {
		tar_error(cr->t, 0, "%s: Unknown file type; file ignored", tq(cr->t, 0, e->path));
		return false;
	}
	const char *link = archive_entry_hardlink(cr->entry);
	if (!link)
		link = archive_entry_symlink(cr->entry);
	/* libarchive's v7 writer keeps a byte for a NUL that GNU tar's does not:
	 * a 100-byte target fits GNU tar's v7 header, not libarchive's. */
	size_t max = cr->format == FMT_V7 ? NAME_FIELD - 1 : NAME_FIELD;
	if (link && strlen(link) > max) {
		tar_error(cr->t, 0, "%s: link name is too long; not dumped", tq(cr->t, 0, link));
		return false;
	}
	return true;
}
