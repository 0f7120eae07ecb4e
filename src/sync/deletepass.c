/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * deletepass.c: --delete-before and --delete-after, rsync's deletions in
 * a pass of their own over the tree, before or after the transfer,
 * instead of in each directory as the transfer reaches it. The pass goes
 * down the source and the destination together, through the directories
 * the transfer goes through: both there as directories (never through a
 * symbolic link), not excluded, and on the source's file system under -x.
 * Only one of --delete-before, --delete-during and --delete-after may be
 * given, as in rsync.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

/* After the transfer, a directory that deletions changed gets its
 * source's time back, as rsync gives it. */
static void restore_time(const struct sync *s, int sd, int dd)
{
	struct stat st, dst;
	if (!s->times || s->copy.omit_dir_times || s->dry_run || fstat(sd, &st) < 0 ||
	    fstat(dd, &dst) < 0 || sync_cmp_mtime(s, &dst.st_mtim, &st.st_mtim) == 0)
		return;
	struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, st.st_mtim };
	futimens(dd, times);
}

/* Delete below the directory pair sname in sfd, dname in dfd (rel), then
 * in their subdirectories. */
static void pass_dir(struct sync *s, int sfd, const char *sname, int dfd, const char *dname,
                     const char *rel, dev_t dev)
{
	delete_extraneous(s, sfd, sname, dfd, dname, rel);
	/* -L: the source's links to directories are directories, as the walk
	 * takes them (the destination's real ones bound the descent) */
	int nofollow = s->copy_links ? 0 : O_NOFOLLOW;
	int sd = openat(sfd, sname, O_RDONLY | O_DIRECTORY | nofollow | O_CLOEXEC);
	int dd = openat(dfd, dname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct strbuf names = STRBUF_INIT, sub = STRBUF_INIT;
	if (sd < 0 || dd < 0 || delete_list_names(sd, &names) < 0)
		goto out;
	if (s->delete_when == DEL_AFTER)
		restore_time(s, sd, dd);
	bool root = strcmp(rel, ".") == 0;
	for (const char *p = names.s; p && p < names.s + names.len; p += strlen(p) + 1) {
		struct stat st, dst;
		sb_reset(&sub);
		if ((root ? sb_addstr(&sub, p) : sb_printf(&sub, "%s/%s", rel, p)) < 0)
			break;
		if (fstatat(sd, p, &st, s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) ||
		    (s->one_fs && st.st_dev != dev) || sender_hides(s, sub.s, &st, 1) ||
		    fstatat(dd, p, &dst, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(dst.st_mode))
			continue;
		pass_dir(s, sd, p, dd, p, sub.s, dev);
	}
out:
	sb_free(&names);
	sb_free(&sub);
	if (sd >= 0)
		close(sd);
	if (dd >= 0)
		close(dd);
}

/* --delete-before: whether every directory of the source below sname in
 * sfd (rel) the transfer will go through can be read. rsync lists the
 * whole source before it deletes, and deletes nothing when some of it
 * could not be read; the pass deletes as it goes down, so it looks first.
 * (The transfer's walk says what failed.) */
static bool source_readable(const struct sync *s, int sfd, const char *sname, const char *rel,
                            dev_t dev)
{
	int nofollow = s->copy_links ? 0 : O_NOFOLLOW;
	int sd = openat(sfd, sname, O_RDONLY | O_DIRECTORY | nofollow | O_CLOEXEC);
	struct strbuf names = STRBUF_INIT, sub = STRBUF_INIT;
	bool ok = sd >= 0 && delete_list_names(sd, &names) == 0;
	bool root = strcmp(rel, ".") == 0;
	for (const char *p = names.s; ok && p && p < names.s + names.len; p += strlen(p) + 1) {
		struct stat st;
		sb_reset(&sub);
		if ((root ? sb_addstr(&sub, p) : sb_printf(&sub, "%s/%s", rel, p)) < 0)
			break;
		if (fstatat(sd, p, &st, s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode) && !(s->one_fs && st.st_dev != dev) &&
		    !sender_hides(s, sub.s, &st, 1))
			ok = source_readable(s, sd, p, sub.s, dev);
	}
	sb_free(&names);
	sb_free(&sub);
	if (sd >= 0)
		close(sd);
	return ok;
}

bool sync_delete_pass(const struct sync *s, int when)
{
	/* --files-from deletes in each listed directory as it comes (decide.c) */
	return s->delete && (int)s->delete_when == when && !s->cap_depth && !s->files_from;
}

bool sync_mount_point(const struct sync *s, const struct stat *st, int depth)
{
	return s->no_mounts && depth > 0 && S_ISDIR(st->st_mode) && st->st_dev != s->src_dev;
}

bool sync_contents_sent(const struct sync *s, const struct sweep_entry *e)
{
	return !s->cap_depth || e->depth + 1 < s->cap_depth;
}

int delete_when_set(struct sync *s, int when)
{
	if (s->delete_when_given) {
		diag_error(s->diag, 0, "You may not combine multiple --delete-WHEN options.");
		return -1;
	}
	s->delete_when_given = true;
	s->delete = true;
	s->delete_when = when;
	return 0;
}

/* The top of a tree the pass goes through (src, a directory, not
 * excluded), looked over first under --delete-before; rel: its path for
 * the filters. Returns whether there is a pass to make. */
static bool pass_top(struct sync *s, const char *src, const char **rel, dev_t *dev)
{
	struct stat st;
	*rel = *s->prefix ? s->prefix : ".";
	if (lstat(src, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    (*s->prefix && sender_hides(s, *rel, &st, 0)))
		return false;
	*dev = st.st_dev;
	if (s->delete_when == DEL_BEFORE && !source_readable(s, AT_FDCWD, src, *rel, *dev))
		s->io_error = true;
	return true;
}

void delete_pass(struct sync *s, const char *src, int dfd, const char *name)
{
	const char *rel;
	dev_t dev;
	if (dfd >= 0 && pass_top(s, src, &rel, &dev))
		pass_dir(s, AT_FDCWD, src, dfd, name, rel, dev);
}

void delete_prescan(struct sync *s, const char *src)
{
	const char *rel;
	dev_t dev;
	pass_top(s, src, &rel, &dev);
}
