/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * operands.c: SRC... DEST, by rsync's rules. DEST is a directory (made when
 * missing: its last component only, as rsync makes it) unless there is one
 * source, not a directory, and DEST is not one and has no trailing slash:
 * then DEST is the file's new name. A SRC that ends in '/' (or "/.") stands
 * for the directory's contents, which go into DEST itself; any other SRC
 * goes into DEST under its last component.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

static bool ends_in_slash(const char *path)
{
	size_t n = strlen(path);
	return n && path[n - 1] == '/';
}

/* Whether SRC names a directory's contents: a trailing '/', "." or "..".
 * (".." counts too: taken as a name, it would make the top of the copy
 * DEST/.., above DEST.) */
static bool contents(const char *src)
{
	size_t n = strlen(src);
	return (n && src[n - 1] == '/') || strcmp(src, ".") == 0 || strcmp(src, "..") == 0 ||
	       (n >= 2 && strcmp(src + n - 2, "/.") == 0) ||
	       (n >= 3 && strcmp(src + n - 3, "/..") == 0);
}

void link_stat_failed(struct sync *s, const char *src, int err)
{
	char *cwd = src[0] == '/' ? NULL : getcwd(NULL, 0);
	report_error(s, err, "[sender] link_stat \"%s%s%s\" failed", cwd ? cwd : "",
	             cwd ? "/" : "", src);
	free(cwd);
}

/* The directory a file named dst goes in, opened; -1 with errno. */
static int open_parent(const char *dst)
{
	const char *slash = strrchr(dst, '/');
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash == dst)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = strndup(dst, (size_t)(slash - dst));
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	return fd;
}

/* DEST as a directory, made if missing (not in a dry run: -1 then, with
 * *made). Returns its descriptor, -1 in a dry run, or -2 (reported). */
static int open_dest_dir(struct sync *s, const char *dest, bool *made)
{
	*made = false;
	int fd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT) {
		if (fd < 0)
			report_error(s, errno, "[Receiver] change_dir#3 \"%s\" failed", dest);
		return fd >= 0 ? fd : -2;
	}
	if (!s->dry_run && mkdir(dest, 0777) < 0) {
		report_error(s, errno, "[Receiver] mkdir \"%s\" failed", dest);
		return -2;
	}
	*made = true;
	if ((s->verbose || s->itemize || s->progress_names) && !s->quiet) {
		size_t n = strlen(dest);
		while (n > 1 && dest[n - 1] == '/')
			n--;
		printf("created directory %.*s\n", (int)n, dest);
	}
	if (s->dry_run)
		return -1;
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		report_error(s, errno, "[Receiver] change_dir#3 \"%s\" failed", dest);
	return fd >= 0 ? fd : -2;
}

/* Sync one SRC into the directory open at dfd (DEST, shown as dest). */
static void sync_into(struct sync *s, struct copy *c, const char *src, int dfd,
                      const char *dest, bool made)
{
	struct strbuf base = STRBUF_INIT, shown = STRBUF_INIT;
	bool all = contents(src);
	if (sb_last_component(&base, src) < 0 ||
	    sb_printf(&shown, "%s%s%s", dest, ends_in_slash(dest) ? "" : "/", all ? "" : base.s) < 0) {
		report_error(s, ENOMEM, "%s", src);
		goto out;
	}
	s->prefix = all ? "" : base.s;
	s->root_created = all && made;
	if (s->delete && s->delete_when == DEL_BEFORE)
		delete_pass(s, src, dfd, all ? "." : base.s);
	if (copy_tree(c, src, dfd, all ? "." : base.s, shown.s) < 0)
		s->partial = true;
	if (s->delete && s->delete_when == DEL_AFTER)
		delete_pass(s, src, dfd, all ? "." : base.s);
out:
	sb_free(&base);
	sb_free(&shown);
}

void sync_run(struct sync *s)
{
	if (s->nfiles < 2) {
		diag_error(s->diag, 0, s->nfiles ? "missing DEST operand (no listing of SRC: "
		                                   "--list-only is not supported)"
		                                 : "missing SRC and DEST operands");
		diag_try_help(s->diag);
		s->usage_error = true;
		return;
	}
	int nsrc = s->nfiles - 1;
	const char *dest = s->files[nsrc];
	if (!*dest) {
		diag_error(s->diag, 0, "Empty destination arg specified (use \".\").");
		s->usage_error = true;
		return;
	}
	/* rsync deletes against all the sources at once; one source at a time,
	 * each would delete what the others brought */
	if (s->files_from && nsrc > 1) {
		diag_error(s->diag, 0, "--files-from takes one SRC, the directory its names are in");
		diag_try_help(s->diag);
		s->usage_error = true;
		return;
	}
	if (s->delete && nsrc > 1) {
		diag_error(s->diag, 0, "--delete with more than one SRC is not supported yet");
		diag_try_help(s->diag);
		s->usage_error = true;
		return;
	}
	struct copy *c = copy_new(&s->copy, s->diag);
	if (!c) {
		report_error(s, ENOMEM, "copy engine");
		return;
	}
	sync_signals_copy(c);
	struct stat st, dst;
	bool one_file = nsrc == 1 && lstat(s->files[0], &st) == 0 && !S_ISDIR(st.st_mode) &&
	                !ends_in_slash(dest) &&
	                (stat(dest, &dst) < 0 || !S_ISDIR(dst.st_mode));
	if (one_file) {
		struct strbuf base = STRBUF_INIT, sbase = STRBUF_INIT;
		int pfd = -1;
		if (sb_last_component(&base, dest) < 0 || sb_last_component(&sbase, s->files[0]) < 0)
			report_error(s, ENOMEM, "%s", dest);
		else if ((pfd = open_parent(dest)) < 0)
			report_error(s, errno, "[Receiver] change_dir#3 \"%s\" failed", dest);
		linkdest_open(s, dest, true);
		backups_open(s, dest, true);
		s->prefix = sb_str(&sbase); /* rsync names it as the source does */
		if (pfd >= 0 && copy_tree(c, s->files[0], pfd, base.s, dest) < 0)
			s->partial = true;
		if (pfd >= 0)
			close(pfd);
		sb_free(&base);
		sb_free(&sbase);
		sync_signals_copy(NULL);
		copy_free(c);
		return;
	}
	bool made = false;
	int dfd = -2;
	for (int i = 0; i < nsrc; i++) {
		if (lstat(s->files[i], &st) < 0) {
			link_stat_failed(s, s->files[i], errno);
			continue;
		}
		if (dfd == -2) {
			if ((dfd = open_dest_dir(s, dest, &made)) == -2)
				break;
			linkdest_open(s, dest, false);
			backups_open(s, dest, false);
		}
		if (s->files_from)
			files_from_run(s, c, s->files[i], dfd, dest, made);
		else
			sync_into(s, c, s->files[i], dfd, dest, made);
		made = false;
	}
	if (dfd >= 0)
		close(dfd);
	sync_signals_copy(NULL);
	copy_free(c);
}
