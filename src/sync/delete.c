/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * delete.c: --delete. In each destination directory the transfer goes
 * through, before its contents come (rsync's default, --delete-during),
 * every name its source directory does not hold is removed, a directory
 * with all it holds (deepest first, as rsync reports them), unless a
 * filter rule excludes the name: excluded files are protected. Nothing is
 * followed: names are opened and removed relative to their directory.
 * With -b, a file is moved aside as its backup instead (backups.c);
 * with --delete-excluded, what is excluded goes too (and is not sent).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"

/* The names in fd into sb, each after a 'd' (a directory) or 'f' when
 * typed. Returns 0 or -1 with errno. */
static int list_names(int fd, struct strbuf *sb, bool typed)
{
	int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	struct dirent *de;
	int r = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat st;
		bool dir = de->d_type == DT_DIR ||
		           (de->d_type == DT_UNKNOWN && typed &&
		            fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode));
		if ((typed && sb_addc(sb, dir ? 'd' : 'f') < 0) ||
		    sb_add(sb, de->d_name, strlen(de->d_name) + 1) < 0) {
			r = -1;
			break;
		}
	}
	closedir(d);
	return r;
}

int delete_list_names(int fd, struct strbuf *sb)
{
	return list_names(fd, sb, false);
}

/* rsync's order of deletion in a directory: its list's (files, then
 * directories, each by name) backwards. */
static int cmp_deletion(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	if (*x != *y)
		return *x == 'd' ? -1 : 1;
	return -strcmp(x + 1, y + 1);
}

/* The names in fd in the order rsync deletes them, NUL-separated, into
 * sb (order holds them, in it). Returns 0 or -1 with errno. */
static int deletion_order(int fd, struct strbuf *sb)
{
	struct strbuf typed = STRBUF_INIT;
	const char **v = NULL;
	size_t n = 0;
	int r = list_names(fd, &typed, true);
	for (size_t i = 0; r == 0 && i < typed.len; i += strlen(typed.s + i) + 1)
		n++;
	if (r == 0 && n && !(v = malloc(n * sizeof(*v))))
		r = -1;
	size_t k = 0;
	for (size_t i = 0; r == 0 && i < typed.len; i += strlen(typed.s + i) + 1)
		v[k++] = typed.s + i;
	if (r == 0 && n)
		qsort(v, n, sizeof(*v), cmp_deletion);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = sb_add(sb, v[i] + 1, strlen(v[i] + 1) + 1);
	free(v);
	sb_free(&typed);
	return r;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a SRC other than the one being synced holds rel (a path below
 * DEST): the sources are one tree to rsync, and what one of them brings
 * (or will) is not extraneous in another's directories. An error looking
 * says it may: nothing is deleted on a doubt. */
static bool other_source_has(const struct sync *s, const char *rel)
{
	struct strbuf path = STRBUF_INIT, base = STRBUF_INIT;
	bool has = false;
	for (int i = 0; !has && i < s->nfiles - 1; i++) {
		const char *src = s->files[i];
		if (src == s->current_src)
			continue;
		sb_reset(&path);
		if (sync_is_contents(src)) {
			sb_printf(&path, "%s/%s", src, rel);
		} else if (sb_last_component(&base, src) < 0) {
			has = true; /* no memory: a doubt */
			break;
		} else {
			size_t n = base.len;
			if (strncmp(rel, base.s, n) != 0 || (rel[n] && rel[n] != '/'))
				continue; /* not below this one's name in DEST */
			sb_printf(&path, "%s%s", src, rel + n);
		}
		struct stat st;
		/* ENOTDIR: a file where the path needs a directory, so no; a
		 * directory pruned there (-m), or what the rules leave out, is
		 * not brought either */
		if (!path.s)
			has = true;
		else if (lstat(path.s, &st) == 0)
			has = !prune_hides(s, &st, 1) && !filter_excluded(s, rel, S_ISDIR(st.st_mode));
		else
			has = errno != ENOENT && errno != ENOTDIR;
	}
	sb_free(&path);
	sb_free(&base);
	return has;
}

/* Whether name (rel) is not in the source directory sfd: absent (from
 * the other sources too), or excluded by the sender's rules (it is not
 * sent; what the receiver's rules protect stays all the same). */
static bool extraneous(const struct sync *s, int sfd, const char *name,
                       const char *rel)
{
	struct stat st;
	/* the names a remote sender sends: those its rules leave out, by the
	 * source's kind, are not among them */
	if (s->remote_source)
		return !bsearch(&name, s->src_names, s->nsrc_names, sizeof(*s->src_names), cmp_name);
	if (sfd < 0) /* --ignore-errors: a source directory not read */
		return !other_source_has(s, rel);
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT && !other_source_has(s, rel);
	if (sync_mount_point(s, &st, 1))
		return true; /* -xx: not sent, so not kept */
	/* -m: not sent, unless another SRC brings it (-L: what a link is) */
	struct stat to;
	const struct stat *dir = s->prune_ready && S_ISLNK(st.st_mode) && s->copy_links &&
	                         fstatat(sfd, name, &to, 0) == 0 ? &to : &st;
	if (prune_hides(s, dir, 1))
		return !other_source_has(s, rel);
	return filter_excluded(s, rel, S_ISDIR(st.st_mode));
}

/* A directory of ours the run must remove names from, read-only (a
 * user's run; root's needs no permission), opened up first: one to be
 * removed made writable, as rsync's make_mutable() does it (no more: one
 * that cannot be read stays so, and is not emptied); one the source has
 * (keep), searchable and readable too, as rsync holds such a directory
 * while it works in it. known: its status, if the caller has it. Returns
 * the mode to give back, or (mode_t)-1: nothing changed. */
static mode_t open_up(const struct sync *s, int pfd, const char *name, const struct stat *known,
                      bool keep)
{
	struct stat st;
	mode_t want = keep ? S_IRWXU : S_IWUSR;
	if (s->dry_run || s->root)
		return (mode_t)-1;
	if (known)
		st = *known;
	else if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return (mode_t)-1;
	if (!S_ISDIR(st.st_mode) || (st.st_mode & want) == want ||
	    fchmodat(pfd, name, (st.st_mode & 07777) | want, 0) < 0)
		return (mode_t)-1;
	return st.st_mode & 07777;
}

static void give_back(int pfd, const char *name, mode_t mode)
{
	if (mode != (mode_t)-1 && fchmodat(pfd, name, mode, 0) < 0)
		return; /* then it stays open: nothing is lost */
}

static void say_not_empty(const struct sync *s, const char *rel)
{
	/* rsync's note, on standard output: not an error */
	if (!s->quiet)
		printf("cannot delete non-empty directory: %s\n", rel);
}

static bool remove_entry(struct sync *s, int pfd, const char *name, const struct stat *st,
                         const char *rel, bool top);

/* The contents of the directory name in pfd (status st, shown as rel)
 * removed, as rsync's delete_dir_contents(): 1 when all went, 0 when
 * something stays (what a filter rule protects, a mount point, what
 * could not go), -1 when it could not be read (reported). *backed_up:
 * a file's backup was left in it (-b without --backup-dir). */
static int remove_contents(struct sync *s, int pfd, const char *name, const struct stat *st,
                           const char *rel, bool *backed_up)
{
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct strbuf names = STRBUF_INIT, sub = STRBUF_INIT;
	if (fd < 0 || deletion_order(fd, &names) < 0) {
		report_error(s, errno, "delete_file: opendir(%s) failed", rel);
		/* an I/O error to rsync: no deletion after it */
		s->io_error = true;
		if (fd >= 0)
			close(fd);
		sb_free(&names);
		return -1;
	}
	bool kept = false;
	for (const char *p = names.s; p && p < names.s + names.len; p += strlen(p) + 1) {
		struct stat cst;
		sb_reset(&sub);
		if (fstatat(fd, p, &cst, AT_SYMLINK_NOFOLLOW) < 0 || sb_printf(&sub, "%s/%s", rel, p) < 0)
			kept = true;
		else if (cst.st_dev != st->st_dev || filter_protected(s, sub.s, S_ISDIR(cst.st_mode), true))
			kept = true;
		else if (!remove_entry(s, fd, p, &cst, sub.s, false))
			kept = true;
		else if (s->backup && !s->backup_dir && !s->dry_run && !S_ISDIR(cst.st_mode) &&
		         !backups_is_backup(s, p))
			*backed_up = true;
	}
	sb_free(&names);
	sb_free(&sub);
	close(fd);
	return kept ? 0 : 1;
}

/* Remove name in pfd (status st; shown as rel), a directory with its
 * contents but for what a filter rule excludes (protected, as in rsync:
 * the directory then stays, "cannot delete non-empty directory") and what
 * lies on another file system (a mount point pins its parent); top: one
 * of the names delete_extraneous() found, else below one. Past
 * --max-delete, an entry is left and counted as rsync's delete_item()
 * counts it: a directory below the top whose contents stay is one more
 * (rsync tries it, and says twice that it is not empty). Returns whether
 * it is gone. */
static bool remove_entry(struct sync *s, int pfd, const char *name, const struct stat *st,
                         const char *rel, bool top)
{
	bool dir = S_ISDIR(st->st_mode), backed_up = false;
	mode_t opened = dir ? open_up(s, pfd, name, st, false) : (mode_t)-1;
	int emptied = dir ? remove_contents(s, pfd, name, st, rel, &backed_up) : 1;
	if (emptied <= 0) /* (one that could not be read: rsync says so too) */
		say_not_empty(s, rel);
	if (emptied < 0 || (emptied == 0 && top) || limits_delete_stopped(s))
		goto kept;
	if (emptied == 0 || backed_up) { /* what rmdir would say */
		if (!s->dry_run)
			say_not_empty(s, rel);
		goto kept;
	}
	/* (a file that is itself a backup goes without one, as in rsync) */
	bool back_up = !dir && s->backup && !backups_is_backup(s, name);
	if (!back_up && !s->dry_run && unlinkat(pfd, name, dir ? AT_REMOVEDIR : 0) < 0) {
		/* what it holds may have come while it was emptied */
		if (dir && (errno == ENOTEMPTY || errno == EEXIST))
			say_not_empty(s, rel);
		else
			report_error(s, errno, "delete_file: %s(%s) failed", dir ? "rmdir" : "unlink", rel);
		goto kept;
	}
	if (back_up && !backups_deleted(s, pfd, name, rel))
		return false;
	s->n.deleted[sync_kind(st->st_mode)]++;
	report_delete(s, rel, dir);
	return true;
kept:
	give_back(pfd, name, opened);
	return false;
}


void delete_missing(struct sync *s, int pfd, const char *name, const char *rel)
{
	struct stat st;
	s->n.files[K_REG]++; /* in rsync's list (of no kind), so in --stats */
	/* what the receiver's rules protect stays (the sender's hide rules
	 * are not asked, as rsync's sender sends the name all the same); the
	 * missing name is of no kind: a rule for directories only is not its */
	if (filter_protected(s, rel, false, false))
		return;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return; /* nothing there: nothing to ask */
	if (S_ISDIR(st.st_mode) && !s->delete && !s->force) {
		/* rsync's rmdir: an empty one goes, one that holds something stays */
		struct strbuf names = STRBUF_INIT;
		int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool empty = fd >= 0 && delete_list_names(fd, &names) == 0 && names.len == 0;
		if (fd >= 0)
			close(fd);
		sb_free(&names);
		if (!empty) {
			say_not_empty(s, rel);
			return;
		}
	}
	/* (not among --stats' deletions, as in rsync) */
	uint64_t counted[K_NKINDS];
	memcpy(counted, s->n.deleted, sizeof(counted));
	remove_entry(s, pfd, name, &st, rel, true);
	memcpy(s->n.deleted, counted, sizeof(counted));
}

/* rsync's name for the kind of entry a directory makes way for. */
static const char *kind_name(mode_t mode)
{
	return S_ISREG(mode) ? "regular file" : S_ISLNK(mode) ? "symlink"
	       : S_ISCHR(mode) || S_ISBLK(mode) ? "device file" : "special file";
}

bool delete_make_way(struct sync *s, int pfd, const char *name, const struct stat *st,
                     const char *rel, mode_t mode)
{
	/* a dry run removes nothing: whether the directory is empty, asked of
	 * what it holds */
	struct strbuf names = STRBUF_INIT;
	int fd = s->dry_run ? openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	bool empty = fd >= 0 && delete_list_names(fd, &names) == 0 && names.len == 0;
	if (fd >= 0)
		close(fd);
	sb_free(&names);
	if (s->dry_run ? empty : unlinkat(pfd, name, AT_REMOVEDIR) == 0)
		return true;
	int err = s->dry_run ? ENOTEMPTY : errno;
	if ((err == ENOTEMPTY || err == EEXIST) && (s->delete || s->force)) {
		mode_t opened = open_up(s, pfd, name, st, false);
		bool backed_up = false;
		int emptied = remove_contents(s, pfd, name, st, rel, &backed_up);
		if (emptied == 1 && !backed_up &&
		    (s->dry_run || unlinkat(pfd, name, AT_REMOVEDIR) == 0))
			return true;
		err = emptied < 0 ? 0 : emptied == 0 || backed_up ? ENOTEMPTY : errno;
		give_back(pfd, name, opened);
	}
	if (err == ENOTEMPTY || err == EEXIST)
		say_not_empty(s, rel);
	else if (err)
		report_error(s, err, "delete_file: rmdir(%s) failed", rel);
	fflush(stdout);
	fprintf(stderr, "could not make way for new %s: ", kind_name(mode));
	report_name(s, stderr, rel);
	fputc('\n', stderr);
	s->partial = true;
	return false;
}

bool delete_dangling_in(const struct sync *s, int pfd, const char *name, const char *rel)
{
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct strbuf path = STRBUF_INIT;
	bool found = false;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return false; /* (that error is the walk's to say) */
	}
	struct dirent *de;
	while (!found && (de = readdir(d)) != NULL) {
		struct stat st;
		if ((de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) ||
		    fstatat(fd, de->d_name, &st, 0) == 0 ||
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode))
			continue;
		sb_reset(&path);
		bool top = !*rel || strcmp(rel, ".") == 0;
		if ((top ? sb_addstr(&path, de->d_name) : sb_printf(&path, "%s/%s", rel, de->d_name)) < 0)
			break;
		found = !filter_excluded(s, path.s, false);
	}
	closedir(d);
	sb_free(&path);
	return found;
}

void delete_extraneous(struct sync *s, int sdirfd, const char *sname, int pfd,
                       const char *name, const char *rel)
{
	int sfd = s->remote_source ? -1 : openat(sdirfd, sname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dfd = -1;
	mode_t opened = (mode_t)-1;
	struct strbuf names = STRBUF_INIT, sub = STRBUF_INIT;
	/* a source directory that cannot be read deletes nothing; nor does any
	 * after an error reading the source, as rsync's I/O errors turn
	 * --delete off (what was not read may be what is there). Under
	 * --ignore-errors both delete, as rsync's: the one read as empty */
	if (s->copy_links && !s->ignore_errors && !s->remote_source && sfd >= 0 &&
	    delete_dangling_in(s, sdirfd, sname, rel))
		s->io_error = true; /* (the link itself is said as the walk meets it) */
	bool after = s->delete_when == DEL_AFTER && !s->delete_delay;
	if ((s->io_error || (s->io_error_data && after)) && !s->ignore_errors) {
		if (!s->io_error_said && !s->quiet)
			printf("IO error encountered -- skipping file deletion\n");
		s->io_error_said = true;
		goto out;
	}
	if (!s->ignore_errors && (s->remote_source ? !s->src_names : sfd < 0))
		goto out;
	opened = open_up(s, pfd, name, NULL, true);
	dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat dst;
	/* -x: as rsync, nothing is deleted on another file system than DEST's */
	if (dfd >= 0 && s->one_fs && s->dest_dev && fstat(dfd, &dst) == 0 &&
	    dst.st_dev != s->dest_dev)
		goto out;
	if (dfd < 0 && errno == ENOENT) /* not made yet (a dry run): nothing in it */
		goto out;
	if (dfd < 0 || deletion_order(dfd, &names) < 0) {
		report_error(s, errno, "delete_file: opendir(%s) failed", rel);
		goto out;
	}
	bool root = strcmp(rel, ".") == 0;
	for (const char *p = names.s; p && p < names.s + names.len; p += strlen(p) + 1) {
		struct stat st;
		sb_reset(&sub);
		if ((root ? sb_addstr(&sub, p) : sb_printf(&sub, "%s/%s", rel, p)) < 0)
			break;
		if (!extraneous(s, sfd, p, sub.s))
			continue;
		if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (filter_protected(s, sub.s, S_ISDIR(st.st_mode), false) ||
		    (s->one_fs && s->dest_dev && st.st_dev != s->dest_dev))
			continue; /* (-x: a mount point stays, with what it holds, in silence) */
		remove_entry(s, dfd, p, &st, sub.s, true);
	}
out:
	sb_free(&names);
	sb_free(&sub);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	give_back(pfd, name, opened);
}
