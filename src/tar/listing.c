/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listing.c: the lines of -v and -t in GNU tar's format.
 *
 * Short: the member name. Long (-tv, -cvv, -xvv):
 *   -rw-r--r-- user/group      1234 2024-01-02 03:04 name
 * where the owner, group and size share one column that widens as wider
 * values come (GNU tar starts it at 19), devices show "major,minor", and
 * links end in " -> target" or " link to target". With --xattrs or --acls
 * the mode gets a mark ('+' ACLs, '*' attributes) and, one level more
 * verbose, "  a:" and "  x:" lines follow. Names are escaped as GNU tar
 * escapes them.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "permstr.h"
#include "tar.h"

/* The ten characters of ls -l's mode column. */
static void mode_string(struct archive_entry *e, char out[11])
{
	mode_t m = archive_entry_mode(e);
	char type = '-';
	switch (archive_entry_filetype(e)) {
	case AE_IFDIR: type = 'd'; break;
	case AE_IFLNK: type = 'l'; break;
	case AE_IFCHR: type = 'c'; break;
	case AE_IFBLK: type = 'b'; break;
	case AE_IFIFO: type = 'p'; break;
	case AE_IFSOCK: type = 's'; break;
	}
	if (archive_entry_hardlink(e))
		type = 'h';
	out[0] = type;
	perm_letters(m, out + 1);
}

/* when (ns: its nanoseconds) as GNU tar lists it: to the minute, or with
 * --full-time to the second and the fraction the archive has, its
 * trailing zeros dropped. */
static void time_string(const struct tar *t, time_t when, long ns, char *buf, size_t size)
{
	struct tm tm;
	if (!(t->opt.utc ? gmtime_r(&when, &tm) : localtime_r(&when, &tm)) ||
	    !strftime(buf, size, t->opt.full_time ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M", &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)when);
		return;
	}
	if (!t->opt.full_time || ns <= 0 || ns >= 1000000000)
		return;
	size_t n = strlen(buf);
	int digits = 9;
	while (ns % 10 == 0) {
		ns /= 10;
		digits--;
	}
	snprintf(buf + n, size - n, ".%0*ld", digits, ns);
}

/* GNU tar's verbosity: listing counts one more than creating. */
static int verbosity(const struct tar *t)
{
	return t->opt.verbose + (t->opt.mode == MODE_LIST && t->opt.verbose ? 1 : 0);
}

/* The mark after the mode with --xattrs or --acls, as GNU's ls -l-like
 * preview: '+' ACLs, '*' shown attributes, ' ' neither. */
static char attr_mark(const struct tar *t, struct archive_entry *e)
{
	const char *name;
	const void *value;
	size_t size;
	if (t->opt.acls && (archive_entry_acl_count(e, ARCHIVE_ENTRY_ACL_TYPE_ACCESS) > 0 ||
	                    archive_entry_acl_count(e, ARCHIVE_ENTRY_ACL_TYPE_DEFAULT) > 0))
		return '+';
	if (t->opt.xattrs && archive_entry_xattr_reset(e) > 0)
		while (archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK)
			if (xattr_wanted(&t->opt, name, false))
				return '*';
	return ' ';
}

/* The "  x: SIZE NAME" lines, in the archive's order: libarchive hands
 * attributes out last read first. */
static void print_xattrs(struct tar *t, struct archive_entry *e)
{
	int n = archive_entry_xattr_reset(e);
	const char **names = n > 0 ? calloc((size_t)n, sizeof(*names)) : NULL;
	size_t *sizes = n > 0 ? calloc((size_t)n, sizeof(*sizes)) : NULL;
	const void *value;
	int k = 0;
	while (names && sizes && k < n &&
	       archive_entry_xattr_next(e, &names[k], &value, &sizes[k]) == ARCHIVE_OK)
		k++;
	while (k-- > 0)
		if (xattr_wanted(&t->opt, names[k], false))
			fprintf(t->listing, "  x: %zu %s\n", sizes[k], names[k]);
	free(names);
	free(sizes);
}

/* The "  a: ACL" and "  x: SIZE NAME" lines of the most verbose listing. */
static void print_attrs(struct tar *t, struct archive_entry *e)
{
	static const int types[] = { ARCHIVE_ENTRY_ACL_TYPE_ACCESS, ARCHIVE_ENTRY_ACL_TYPE_DEFAULT };
	const int style = ARCHIVE_ENTRY_ACL_STYLE_EXTRA_ID | ARCHIVE_ENTRY_ACL_STYLE_SEPARATOR_COMMA |
	                  ARCHIVE_ENTRY_ACL_STYLE_MARK_DEFAULT;
	bool any = false;
	for (int i = 0; t->opt.acls && i < 2; i++) {
		char *text = archive_entry_acl_count(e, types[i]) > 0
		                     ? archive_entry_acl_to_text(e, NULL, types[i] | style) : NULL;
		if (text)
			fprintf(t->listing, "%s%s", any ? "," : "  a: ", text);
		any = any || text;
		free(text);
	}
	if (any)
		fputc('\n', t->listing);
	if (t->opt.xattrs)
		print_xattrs(t, e);
}

static void print_long(struct tar *t, struct archive_entry *e, const char *name, char mark)
{
	char modes[12], size[48], when[64], uid[24], gid[24];
	mode_string(e, modes);
	if (mark)
		modes[0] = mark;
	/* (--selinux: no context is ever stored here, SELinux being off) */
	if (t->opt.xattrs || t->opt.acls || t->opt.selinux) {
		modes[10] = attr_mark(t, e);
		modes[11] = 0;
	}
	/* --numeric-owner lists the ids, as GNU tar, names or not */
	bool numeric = t->opt.numeric_owner;
	const char *user = numeric ? NULL : archive_entry_uname(e);
	const char *group = numeric ? NULL : archive_entry_gname(e);
	if (!user || !*user) {
		snprintf(uid, sizeof(uid), "%jd", (intmax_t)archive_entry_uid(e));
		user = uid;
	}
	if (!group || !*group) {
		snprintf(gid, sizeof(gid), "%jd", (intmax_t)archive_entry_gid(e));
		group = gid;
	}
	mode_t type = archive_entry_filetype(e);
	if ((type == AE_IFCHR || type == AE_IFBLK) && !archive_entry_hardlink(e))
		snprintf(size, sizeof(size), "%ju,%ju", (uintmax_t)archive_entry_rdevmajor(e),
		         (uintmax_t)archive_entry_rdevminor(e));
	else
		snprintf(size, sizeof(size), "%jd", (intmax_t)archive_entry_size(e));
	time_string(t, archive_entry_mtime(e), archive_entry_mtime_nsec(e), when, sizeof(when));
	int sizelen = (int)strlen(size);
	int pad = (int)(strlen(user) + 1 + strlen(group) + 1) + sizelen;
	if (t->ugswidth < 19)
		t->ugswidth = 19;
	if (pad > t->ugswidth)
		t->ugswidth = pad;
	fprintf(t->listing, "%s %s/%s %*s %-16s %s", modes, user, group,
	        t->ugswidth - pad + sizelen, size, when, mark == 'V' ? name : tqlist(t, 0, name));
}

void listing_print(struct tar *t, struct archive_entry *e, const char *name)
{
	if (verbosity(t) < 2) {
		fprintf(t->listing, "%s\n", tqlist(t, 0, name));
		return;
	}
	print_long(t, e, name, 0);
	const char *hard = archive_entry_hardlink(e), *sym = archive_entry_symlink(e);
	if (hard)
		fprintf(t->listing, " link to %s", tqlist(t, 1, hard));
	else if (sym)
		fprintf(t->listing, " -> %s", tqlist(t, 1, sym));
	fputc('\n', t->listing);
	if (verbosity(t) >= 3)
		print_attrs(t, e);
}

void listing_label(struct tar *t, const char *label, time_t mtime)
{
	if (verbosity(t) < 2) {
		fprintf(t->listing, "%s\n", tqlist(t, 0, label));
		return;
	}
	struct archive_entry *e = archive_entry_new();
	struct strbuf name = STRBUF_INIT;
	if (!e || sb_addstr(&name, tqlist(t, 0, label)) < 0 ||
	    sb_addstr(&name, "--Volume Header--") < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		goto out;
	}
	archive_entry_set_mtime(e, mtime, 0);
	archive_entry_set_size(e, 0);
	/* the name is escaped already, its suffix is not to be */
	print_long(t, e, name.s, 'V');
	fputc('\n', t->listing);
out:
	sb_free(&name);
	archive_entry_free(e);
}
