/*
 * listing.c: the lines of -v and -t in GNU tar's format.
 *
 * Short: the member name. Long (-tv, -cvv, -xvv):
 *   -rw-r--r-- user/group      1234 2024-01-02 03:04 name
 * where the owner, group and size share one column that widens as wider
 * values come (GNU tar starts it at 19), devices show "major,minor", and
 * links end in " -> target" or " link to target". Names are escaped as GNU
 * tar escapes them.
 */
#include <archive_entry.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
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
	const char *rwx = "rwxrwxrwx";
	out[0] = type;
	for (int i = 0; i < 9; i++)
		out[i + 1] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[3] = out[3] == 'x' ? 's' : 'S';
	if (m & S_ISGID)
		out[6] = out[6] == 'x' ? 's' : 'S';
	if (m & S_ISVTX)
		out[9] = out[9] == 'x' ? 't' : 'T';
	out[10] = 0;
}

static void time_string(const struct tar *t, time_t when, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&when, &tm) ||
	    !strftime(buf, size, t->opt.full_time ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, size, "%jd", (intmax_t)when);
}

static void print_long(struct tar *t, struct archive_entry *e, const char *name)
{
	char modes[11], size[48], when[64], uid[24], gid[24];
	mode_string(e, modes);
	const char *user = archive_entry_uname(e), *group = archive_entry_gname(e);
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
	time_string(t, archive_entry_mtime(e), when, sizeof(when));
	int sizelen = (int)strlen(size);
	int pad = (int)(strlen(user) + 1 + strlen(group) + 1) + sizelen;
	if (t->ugswidth < 19)
		t->ugswidth = 19;
	if (pad > t->ugswidth)
		t->ugswidth = pad;
	fprintf(t->listing, "%s %s/%s %*s %-16s %s", modes, user, group,
	        t->ugswidth - pad + sizelen, size, when, tqlist(t, 0, name));
}

void listing_print(struct tar *t, struct archive_entry *e, const char *name)
{
	bool lng = t->opt.verbose >= 2 || (t->opt.mode == MODE_LIST && t->opt.verbose);
	if (!lng) {
		fprintf(t->listing, "%s\n", tqlist(t, 0, name));
		return;
	}
	print_long(t, e, name);
	const char *hard = archive_entry_hardlink(e), *sym = archive_entry_symlink(e);
	if (hard)
		fprintf(t->listing, " link to %s", tqlist(t, 1, hard));
	else if (sym)
		fprintf(t->listing, " -> %s", tqlist(t, 1, sym));
	fputc('\n', t->listing);
}
