/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xcheck.c: what -t and -x check in a member's header before trusting it.
 * libarchive reads a pax uid or gid as a 64-bit number and hands it on as
 * it is; on disk it would wrap (uid 4294968296 becomes 1000, -5 becomes
 * 4294967291), so a setuid file could land owned by someone the archive
 * never named. GNU tar reports such a value and ignores it.
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"

#define ID_MAX UINT32_MAX /* uid_t and gid_t on Linux */

/* Report an id out of range in GNU tar's words: those of its pax reader
 * when the member had a pax header, else those of its ustar reader. */
static void id_out_of_range(struct extract *x, const char *key, const char *type, int64_t v)
{
	if (archive_format(x->in) == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE)
		tar_error(x->t, 0, "Extended header %s=%jd is out of range 0..%ju", key,
		          (intmax_t)v, (uintmax_t)ID_MAX);
	else
		tar_error(x->t, 0, "Archive value %jd is out of %s range 0..%ju", (intmax_t)v,
		          type, (uintmax_t)ID_MAX);
}

/* Replace an owner or group out of range by the extracting user's own,
 * which grants nothing (GNU tar falls back to the ustar field, which
 * libarchive does not keep), and drop the set-id bit it would carry. */
void xcheck_ids(struct extract *x, struct archive_entry *e)
{
	int64_t uid = archive_entry_uid(e), gid = archive_entry_gid(e);
	mode_t drop = 0;
	if (uid < 0 || uid > (int64_t)ID_MAX) {
		id_out_of_range(x, "uid", "uid_t", uid);
		archive_entry_set_uid(e, geteuid());
		archive_entry_set_uname(e, NULL);
		drop |= S_ISUID;
	}
	if (gid < 0 || gid > (int64_t)ID_MAX) {
		id_out_of_range(x, "gid", "gid_t", gid);
		archive_entry_set_gid(e, getegid());
		archive_entry_set_gname(e, NULL);
		drop |= S_ISGID;
	}
	if (drop)
		archive_entry_set_perm(e, archive_entry_perm(e) & ~drop);
}
