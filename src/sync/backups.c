/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backups.c: -b, --backup-dir and --suffix, as rsync has them: what is
 * replaced or deleted is moved aside first (by the copy engine's
 * backup.c), beside itself with the suffix "~", or below the backup
 * directory (taken from DEST when relative, made when the first backup
 * goes there) under its path below DEST, with no suffix unless one is
 * given. Without a backup directory, a name that ends in the suffix is
 * never deleted (rsync's implied "P *SUFFIX" rule): it is a backup.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

int backups_check(struct sync *s)
{
	const char *suffix = s->copy.suffix;
	if (suffix && strchr(suffix, '/')) {
		diag_error(s->diag, 0, "--suffix cannot contain slashes: %s", suffix);
		return -1;
	}
	if (s->backup && !s->backup_dir && suffix && !*suffix) {
		diag_error(s->diag, 0, "--suffix cannot be empty without a --backup-dir");
		return -1;
	}
	return 0;
}

/* The length of --backup-dir's DIR without its trailing slashes. */
static size_t dir_len(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n;
}

/* BACKUP: the backup directory, said once, as rsync's receiver says it
 * as it starts ("(new)": not there yet) */
static void say_backup_dir(struct sync *s)
{
	struct stat st;
	const char *dir = s->backup_dir;
	if (s->info[INFO_BACKUP] < 1 || s->sender_side || s->backup_dir_said)
		return;
	s->backup_dir_said = true;
	bool fresh = stat(s->backup_path.s ? s->backup_path.s : dir, &st) < 0 && errno == ENOENT;
	printf("%sbackup_dir is %.*s\n", fresh ? "(new) " : "", (int)dir_len(dir), dir);
}

void backups_open(struct sync *s, const char *dest, bool dest_is_file)
{
	const char *dir = s->backup_dir;
	s->backup_fd = -1;
	if (!s->backup || !dir)
		return;
	/* as --link-dest's DIR: from DEST, or from a file's directory */
	const char *slash = dest_is_file ? strrchr(dest, '/') : NULL;
	size_t n = dest_is_file ? (slash ? (size_t)(slash - dest) : 0) : strlen(dest);
	sb_reset(&s->backup_path);
	if (dir[0] == '/' || n == 0)
		sb_addstr(&s->backup_path, dir);
	else
		sb_printf(&s->backup_path, "%.*s/%s", (int)n, dest, dir);
	s->copy.backup_dir = backups_dir;
	say_backup_dir(s);
}

/* BACKUP: "backed up REL to ITS-BACKUP", the backup named as rsync's
 * receiver names it (below the backup directory as given) */
static void say_backed_up(struct sync *s, const char *rel)
{
	if (s->info[INFO_BACKUP] < 1 || s->sender_side)
		return;
	const char *dir = s->backup_dir, *suffix = s->copy.suffix;
	if (!suffix)
		suffix = dir ? "" : "~";
	fputs("backed up ", stdout);
	report_name(s, stdout, rel);
	fputs(" to ", stdout);
	if (dir)
		printf("%.*s/", (int)dir_len(dir), dir);
	report_name(s, stdout, rel);
	printf("%s\n", suffix);
}

void backups_said(void *arg, const char *rel_below)
{
	struct sync *s = arg;
	if (s->info[INFO_BACKUP] >= 1 && !s->sender_side)
		say_backed_up(s, sync_relname(s, rel_below));
}

/* mkdir -p of the first len bytes of path. Returns 0 or -1. */
static int make_path(char *path, size_t len)
{
	char saved = path[len];
	path[len] = 0;
	int r = mkdir(path, 0777);
	if (r < 0 && errno == ENOENT) {
		char *slash = strrchr(path, '/');
		if (slash && slash != path && make_path(path, (size_t)(slash - path)) == 0)
			r = mkdir(path, 0777);
	}
	if (r < 0 && errno == EEXIST)
		r = 0;
	path[len] = saved;
	return r;
}

int backups_dir(void *arg)
{
	struct sync *s = arg;
	if (s->backup_fd >= 0 || s->dry_run)
		return s->backup_fd;
	char *path = s->backup_path.s;
	if (!path) {
		errno = ENOMEM;
		return -1;
	}
	if (make_path(path, s->backup_path.len) == 0)
		s->backup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return s->backup_fd;
}

bool backups_is_backup(const struct sync *s, const char *name)
{
	const char *suffix = s->copy.suffix ? s->copy.suffix : "~";
	size_t n = strlen(name), k = strlen(suffix);
	return s->backup && !s->backup_dir && n >= k && strcmp(name + n - k, suffix) == 0;
}

bool backups_protected(const struct sync *s, const char *name)
{
	return !s->delete_excluded && backups_is_backup(s, name);
}

bool backups_deleted(struct sync *s, int pfd, const char *name, const char *rel)
{
	struct strbuf shown = STRBUF_INIT;
	int r = s->dry_run ? 0 : copy_backup_move(&s->copy, pfd, name, rel, &shown);
	if (r < 0)
		report_error(s, errno, "backup of \"%s\" failed", rel);
	else if (!s->dry_run)
		say_backed_up(s, rel);
	sb_free(&shown);
	return r == 0;
}

void backups_free(struct sync *s)
{
	if (s->copy.backup_dir && s->backup_fd >= 0)
		close(s->backup_fd);
	sb_free(&s->backup_path);
}
