/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * operands.c: sources and target. Decides, as GNU cp does, whether the last
 * operand is a directory to copy into or the new name of the one source;
 * refuses up front what GNU refuses (a missing source, a directory without
 * -r, a directory into itself); opens the directory each copy goes in
 * (following links there: that part of the path is the user's) and hands
 * the rest to the engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cp.h"
#include "progress.h"
#include "strbuf.h"

static const char *q(struct cp *cp, int slot, const char *name)
{
	return diag_quote(cp->diag, slot, name);
}

static void strip_slashes(char *s)
{
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = 0;
}

int cp_join(struct strbuf *sb, const char *dir, const char *name)
{
	/* as GNU cp joins them (gnulib's file_name_concat): DIR's trailing
	 * slashes left out but a root's, one '/' between, NAME's own leading
	 * one serving ("out//" and "/tmp/f": "out/tmp/f") */
	sb_reset(sb);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	bool root = n == 1 && dir[0] == '/';
	if (root)
		name += *name == '/';
	if (sb_add(sb, dir, n) < 0)
		return -1;
	if (n && !root && *name != '/' && sb_addc(sb, '/') < 0)
		return -1;
	return sb_addstr(sb, name);
}

/* Whether dst lies in (or is) the directory src, both resolved. */
static bool inside(const char *src, const char *dst)
{
	char *s = realpath(src, NULL), *dparent = NULL;
	struct strbuf dir = STRBUF_INIT;
	bool r = false;
	const char *slash = strrchr(dst, '/');
	if (!s || sb_add(&dir, dst, slash ? (size_t)(slash - dst) + 1 : 0) < 0)
		goto out;
	dparent = realpath(dir.len ? dir.s : ".", NULL);
	if (!dparent)
		goto out;
	size_t n = strlen(s);
	r = strncmp(dparent, s, n) == 0 && (dparent[n] == '/' || dparent[n] == 0 || n == 1);
out:
	free(s);
	free(dparent);
	sb_free(&dir);
	return r;
}

/* Whether descriptors a and b are one directory. */
static bool same_dir(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* What GNU says when the place of a copy cannot be opened. */
static void cannot_create(struct cp *cp, const struct stat *st, const char *dst, int err)
{
	const char *what = S_ISDIR(st->st_mode) ? "directory"
	                   : S_ISLNK(st->st_mode) ? "symbolic link"
	                   : S_ISREG(st->st_mode) ? "regular file"
	                   : S_ISFIFO(st->st_mode) ? "fifo" : "special file";
	diag_error(cp->diag, err, "cannot create %s %s", what, q(cp, 0, dst));
}

/* The directory a copy named dst goes in, opened; -1 with errno. */
static int open_parent(const char *dst)
{
	const char *slash = strrchr(dst, '/');
	size_t n = strlen(dst);
	while (slash && slash > dst && slash[1] == 0) { /* "d/x/": the x */
		n = (size_t)(slash - dst);
		while (n > 1 && dst[n - 1] == '/')
			n--;
		slash = memrchr(dst, '/', n);
	}
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash == dst)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = strndup(dst, (size_t)(slash - dst));
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	return fd;
}

/* Whether source src (of st) was given before, by a name in the same
 * directory (so that its copy has the same name): GNU cp then says so and
 * copies it once (a file only when no backup is asked: else the second
 * copy is "just-created"'s business). */
static bool given_before(struct cp *cp, const char *src, const struct stat *st)
{
	/* one source: one file, in one directory (as GNU's file set sees it,
	 * the directory not followed: "d/f" and "link-to-d/f" are two) */
	struct strbuf dir = STRBUF_INIT;
	struct stat src_dir = { 0 };
	size_t n = strlen(src);
	while (n > 1 && src[n - 1] == '/')
		n--;
	const char *slash = memrchr(src, '/', n);
	if (!slash ? sb_addc(&dir, '.') == 0
	           : sb_add(&dir, src, slash > src ? (size_t)(slash - src) : 1) == 0)
		(void)lstat(dir.s, &src_dir);
	sb_free(&dir);
	/* keyed by its name in that directory, and both inodes */
	uint64_t a, b, id = ((uint64_t)st->st_ino * 0x9e3779b97f4a7c15u ^ (uint64_t)st->st_dev) +
	                    ((uint64_t)src_dir.st_ino * 0xff51afd7ed558ccdu ^ (uint64_t)src_dir.st_dev);
	struct strbuf base = STRBUF_INIT;
	keymap_str_key(sb_last_component(&base, src) == 0 ? base.s : src, "", &a, &b);
	sb_free(&base);
	a ^= id;
	if (!keymap_get(&cp->sources, a, b)) {
		(void)keymap_put(&cp->sources, a, b, 1); /* (without memory: copied again) */
		return false;
	}
	if (!S_ISDIR(st->st_mode) && cp->copy.backup != BACKUP_NONE)
		return false;
	diag_warn(cp->diag, 0, "warning: source %s %s specified more than once",
	          S_ISDIR(st->st_mode) ? "directory" : "file", q(cp, 0, src));
	return true;
}

/* Copy src to dst (its new name; pfd its directory when already open, or
 * -1). Returns 0 or -1 (reported). */
static int copy_one(struct cp *cp, struct copy *c, const char *src, const char *dst, int pfd,
                    int **fds, size_t *nfds)
{
	struct stat st;
	bool follow = cp->copy.follow != SWEEP_FOLLOW_NONE;
	if ((follow ? stat(src, &st) : lstat(src, &st)) < 0) {
		diag_error(cp->diag, errno, "cannot stat %s", q(cp, 0, src));
		return -1;
	}
	if (S_ISDIR(st.st_mode) && !cp->copy.recursive) {
		diag_error(cp->diag, 0, "-r not specified; omitting directory %s", q(cp, 0, src));
		return -1;
	}
	if (given_before(cp, src, &st))
		return 0;
	struct stat dst_st;
	if (S_ISDIR(st.st_mode) && stat(dst, &dst_st) == 0 && dst_st.st_dev == st.st_dev &&
	    dst_st.st_ino == st.st_ino) {
		diag_error(cp->diag, 0, "%s and %s are the same file", q(cp, 0, src), q(cp, 1, dst));
		return -1;
	}
	size_t dlen = strlen(dst);
	if (!S_ISDIR(st.st_mode) && dlen && dst[dlen - 1] == '/') {
		/* a new name with a slash after it names a directory, which
		 * it is not (nor will be made), as GNU cp says; a file there
		 * is "cannot stat", one below a directory not there "No such
		 * file or directory" */
		struct stat there;
		int fd = -1;
		if (stat(dst, &there) < 0 && errno == ENOTDIR) {
			diag_error(cp->diag, errno, "cannot stat %s", q(cp, 0, dst));
			return -1;
		}
		int err = (fd = open_parent(dst)) < 0 ? errno : S_ISREG(st.st_mode) ? ENOTDIR : ENOENT;
		if (fd >= 0)
			close(fd);
		cannot_create(cp, &st, dst, err);
		return -1;
	}
	if (S_ISDIR(st.st_mode) && inside(src, dst)) {
		diag_error(cp->diag, 0, "cannot copy a directory, %s, into itself, %s", q(cp, 0, src),
		           q(cp, 1, dst));
		return -1;
	}
	if (pfd < 0)
		pfd = open_parent(dst);
	if (pfd < 0) {
		cannot_create(cp, &st, dst, errno);
		return -1;
	}
	if (*nfds && same_dir(pfd, (*fds)[*nfds - 1])) {
		/* many sources into one directory: one descriptor for them all */
		close(pfd);
		pfd = (*fds)[*nfds - 1];
		goto copy;
	}
	int *v = reallocarray(*fds, *nfds + 1, sizeof(*v));
	if (!v) {
		close(pfd);
		diag_error(cp->diag, ENOMEM, "%s", q(cp, 0, src));
		return -1;
	}
	*fds = v;
	v[(*nfds)++] = pfd;
copy:;
	struct strbuf base = STRBUF_INIT;
	int r = sb_last_component(&base, dst) < 0 ? -1 : copy_tree(c, src, pfd, base.s, dst);
	sb_free(&base);
	return r;
}

/* GNU cp -f --backup F F, a regular file by one name twice: F is copied
 * to the name its backup would get, with no backup of its own (GNU's
 * "special case"). dst, F, becomes that name. */
static void backup_onto_itself(struct cp *cp, const char *src, struct strbuf *dst)
{
	struct stat st;
	struct strbuf name = STRBUF_INIT;
	if (!cp->copy.force || cp->copy.backup == BACKUP_NONE || strcmp(src, dst->s) != 0 ||
	    stat(dst->s, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	const char *slash = strrchr(dst->s, '/');
	size_t dirlen = slash ? (size_t)(slash + 1 - dst->s) : 0;
	int dirfd = open_parent(dst->s);
	if (dirfd < 0)
		return; /* the copy says why */
	struct strbuf path = STRBUF_INIT;
	if (backup_name(dirfd, dst->s + dirlen, cp->copy.backup, cp->copy.suffix, &name) == 0 &&
	    sb_add(&path, dst->s, dirlen) == 0 && sb_addstr(&path, name.s) == 0) {
		sb_free(dst);
		*dst = path;
		cp->copy.backup = BACKUP_NONE;
	} else {
		sb_free(&path); /* (no memory: copied as asked, and refused) */
	}
	close(dirfd);
	sb_free(&name);
}

/* The copy engine's --progress callback. */
static void progress_cb(void *p, uint64_t files, uint64_t bytes, uint64_t known)
{
	progress_update(p, files, bytes, known);
}

/* Where the operands go: the target directory (NULL: the last operand is
 * the new name of the only source). Returns 0 or -1 (reported). */
static int choose_target(struct cp *cp, const char **target, int *nsrc)
{
	struct stat st;
	*nsrc = cp->nfiles;
	*target = cp->target_dir;
	if (cp->nfiles < 1 || (cp->nfiles < 2 && !cp->target_dir)) {
		if (cp->nfiles < 1)
			diag_error(cp->diag, 0, "missing file operand");
		else
			diag_error(cp->diag, 0, "missing destination file operand after %s",
			           q(cp, 0, cp->files[0]));
		diag_try_help(cp->diag);
		return -1;
	}
	if (cp->target_dir) {
		int err = stat(cp->target_dir, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		if (err) {
			diag_error(cp->diag, err, "target directory %s", q(cp, 0, cp->target_dir));
			return -1;
		}
		return 0;
	}
	*nsrc = cp->nfiles - 1;
	const char *last = cp->files[cp->nfiles - 1];
	if (cp->no_target_dir) {
		if (cp->nfiles > 2) {
			diag_error(cp->diag, 0, "extra operand %s", q(cp, 0, cp->files[2]));
			diag_try_help(cp->diag);
			return -1;
		}
		if (cp->parents) { /* (it copied nothing, exit 0) */
			diag_error(cp->diag, 0, "with --parents, the destination must be a directory");
			diag_try_help(cp->diag);
			return -1;
		}
		return 0;
	}
	int err = stat(last, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (!err || cp->nfiles > 2 || cp->parents) {
		if (err && cp->parents && cp->nfiles == 2) {
			diag_error(cp->diag, 0, "with --parents, the destination must be a directory");
			diag_try_help(cp->diag);
			return -1;
		}
		if (err) {
			diag_error(cp->diag, err, "target %s", q(cp, 0, last));
			return -1;
		}
		*target = last;
	}
	return 0;
}

int cp_run(struct cp *cp)
{
	const char *target;
	int nsrc;
	if (choose_target(cp, &target, &nsrc) < 0)
		return 1;
	/* two operands may have one name in the target: the second refused */
	cp->copy.no_remake = target && nsrc > 1;
	cp->copy.operand_dirs_once = true;
	struct copy *c = copy_new(&cp->copy, cp->diag);
	if (!c) {
		diag_error(cp->diag, ENOMEM, "memory exhausted");
		return 1;
	}
	if (cp->progress_wanted) {
		cp->progress = progress_start();
		cp->copy.progress = cp->progress ? progress_cb : NULL;
		cp->copy.arg = cp->progress;
	}
	int *fds = NULL, tfd = -1;
	size_t nfds = 0;
	struct cp_parents made = { NULL, 0 };
	struct strbuf dst = STRBUF_INIT, base = STRBUF_INIT;
	if (target && cp->parents && (tfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		diag_error(cp->diag, errno, "target directory %s", q(cp, 0, target));
	for (int i = 0; i < nsrc && (!cp->parents || tfd >= 0); i++) {
		char *src = cp->files[i];
		/* as GNU cp 9: only where copies go into a directory (copied to a
		 * new name, "link/" stays the directory it points to) */
		if (cp->strip_slashes && target)
			strip_slashes(src);
		int pfd = -1;
		if (!target) {
			sb_reset(&dst);
			sb_addstr(&dst, cp->files[nsrc]);
			backup_onto_itself(cp, src, &dst);
		} else if (cp->parents) {
			cp_join(&dst, target, src);
			pfd = parents_make(cp, &made, tfd, target, src);
			if (pfd < 0)
				continue;
		} else if (sb_last_component(&base, src) == 0) {
			/* "DIR/.." goes into TARGET/., as GNU cp's: not TARGET/..,
			 * outside the target */
			cp_join(&dst, target, strcmp(base.s, "..") == 0 ? "." : base.s);
		}
		copy_one(cp, c, src, sb_str(&dst), pfd, &fds, &nfds);
	}
	uint64_t files, bytes;
	copy_counts(c, &files, &bytes);
	progress_end(cp->progress, files, bytes);
	copy_free(c);
	keymap_free(&cp->sources);
	parents_finish(cp, &made); /* (after the copies: they change its times) */
	for (size_t i = 0; i < nfds; i++)
		close(fds[i]);
	if (tfd >= 0)
		close(tfd);
	free(fds);
	sb_free(&dst);
	sb_free(&base);
	return cp->diag->status;
}
