/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backup.c: --backup[=CONTROL] and --suffix: a file renamed aside before it
 * is replaced, the archive -c is about to write or the file a member of -x
 * takes the name of, under GNU's backup names (backupname.c); a member that
 * could not be made gives the file its name back, as GNU tar does
 * (maybe_backup_file, undo_last_backup). With -v each rename is listed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "argmatch.h"
#include "tar.h"

bool tar_backup_resolve(struct tar *t)
{
	struct tar_opts *o = &t->opt;
	if (!o->backup_wanted)
		return true;
	const char *arg = o->backup_control, *context = "--backup";
	if (!arg) {
		arg = getenv("VERSION_CONTROL");
		context = "$VERSION_CONTROL";
	}
	o->backup = BACKUP_EXISTING;
	if (arg && *arg) {
		int i = argmatch(arg, backup_words, backup_values);
		if (i < 0) {
			argmatch_report(t->diag, context, arg, i, backup_words, backup_values);
			return false;
		}
		o->backup = (enum backup_type)backup_values[i];
	}
	if (!o->backup_suffix)
		o->backup_suffix = backup_suffix_env();
	return true;
}

/* The name a backup of name gets, directory included, into made. Returns
 * 0, or -1 with errno. */
static int name_aside(struct tar *t, const char *name, struct strbuf *made)
{
	const char *slash = strrchr(name, '/');
	struct strbuf base = STRBUF_INIT;
	int dirfd = AT_FDCWD, r = -1;
	if (slash) {
		struct strbuf dir = STRBUF_INIT;
		if (sb_add(&dir, name, slash > name ? (size_t)(slash - name) : 1) == 0)
			dirfd = open(sb_str(&dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		sb_free(&dir);
		if (dirfd < 0)
			return -1;
	}
	if (backup_name(dirfd, slash ? slash + 1 : name, t->opt.backup, t->opt.backup_suffix,
	                &base) == 0) {
		sb_reset(made);
		r = sb_add(made, name, slash ? (size_t)(slash + 1 - name) : 0) == 0 &&
		    sb_addstr(made, sb_str(&base)) == 0 ? 0 : -1;
	}
	int err = errno;
	if (dirfd >= 0)
		close(dirfd);
	sb_free(&base);
	errno = err;
	return r;
}

static bool put_aside(struct tar *t, const char *name, bool archive, struct strbuf *made);

bool tar_backup(struct tar *t, const char *member, bool archive, struct strbuf *made)
{
	sb_reset(made);
	if (t->opt.backup == BACKUP_NONE || (archive && strcmp(member, "-") == 0))
		return true;
	char *name = names_without_slash(member);
	if (!name) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return false;
	}
	bool r = put_aside(t, name, archive, made);
	free(name);
	return r;
}

/* tar_backup() of name, without trailing slashes. */
static bool put_aside(struct tar *t, const char *name, bool archive, struct strbuf *made)
{
	struct stat st;
	int err = 0;
	if (fstatat(AT_FDCWD, name, &st, t->opt.dereference ? 0 : AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return true;
		err = errno;
		tar_cannot(t, name, "stat", err);
	} else if (S_ISDIR(st.st_mode) || (archive && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))) {
		return true;
	} else if (name_aside(t, name, made) < 0) {
		err = errno;
		tar_error(t, err, "%s: Cannot rename", tq(t, 0, name));
	} else if (rename(name, sb_str(made)) < 0) {
		err = errno;
		tar_error(t, err, "%s: Cannot rename to %s", tq(t, 0, name), tquote(t, 1, sb_str(made)));
	}
	if (err) {
		sb_reset(made);
		if (!archive)
			tar_error(t, err, "%s: Was unable to backup this file", tq(t, 0, name));
		return false;
	}
	if (t->opt.verbose)
		fprintf(t->listing, "Renaming %s to %s\n", tquote(t, 0, name), tquote(t, 1, sb_str(made)));
	return true;
}

void tar_backup_undo(struct tar *t, const char *member, struct strbuf *made)
{
	char *name = made->len ? names_without_slash(member) : NULL;
	if (!name) {
		sb_reset(made);
		return;
	}
	if (rename(sb_str(made), name) < 0)
		tar_error(t, errno, "%s: Cannot rename to %s", tq(t, 0, sb_str(made)), tquote(t, 1, name));
	else if (t->opt.verbose)
		fprintf(t->listing, "Renaming %s back to %s\n", tquote(t, 0, sb_str(made)),
		        tquote(t, 1, name));
	free(name);
	sb_reset(made);
}
