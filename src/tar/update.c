/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * update.c: -r, -u and -A, which add to an archive file in place, where its
 * end-of-archive blocks begin (scan.c): the record they begin in is written
 * again with what was before them, as GNU tar writes it, and the end goes
 * on to a whole record; nothing after is cut off.
 *
 * -r archives its names there with create's walk (create.c), in disk order.
 * -u first goes through the archive's members as GNU tar does, with its
 * list of names: a member that a name selects (the name itself, or a member
 * below it) is looked at on the disk under the member's name; if that is a
 * directory, the name gives way to the names of what the directory holds
 * (looked at in turn by the members that come later), and otherwise the
 * name is dropped when the file is no newer than the member. What is left
 * is archived as -r would. -A copies whole archives, as they are, there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"
#include "update.h"

enum { BLOCK = 512 };

/* A name of -u's list. */
struct uname {
	char *name;
	size_t origin;  /* the operand of t->opt.names it comes from */
	int dirfd;      /* the -C directory it is relative to; -1: none could be opened */
	bool gone;      /* dropped: not to be archived */
};

struct ulist {
	struct uname *v;
	size_t n, cap;
	int *dirfds;    /* the -C directories opened */
	size_t ndirfds;
};

static int ulist_add(struct ulist *l, char *name, size_t origin, int dirfd)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct uname *v = reallocarray(l->v, cap, sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct uname){ .name = name, .origin = origin, .dirfd = dirfd };
	return 0;
}

static void ulist_free(struct ulist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	for (size_t i = 0; i < l->ndirfds; i++)
		close(l->dirfds[i]);
	free(l->v);
	free(l->dirfds);
}

/* The operands, each with its -C directory, trailing slashes dropped as
 * GNU tar drops them. Returns 0 or -1 (ENOMEM). */
static int ulist_start(struct tar *t, struct ulist *l)
{
	struct tar_names *ns = &t->opt.names;
	int dirfd = AT_FDCWD;
	l->dirfds = calloc(ns->n ? ns->n : 1, sizeof(*l->dirfds));
	if (!l->dirfds)
		return -1;
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->v[i].chdir) {
			int fd = dirfd < 0 && dirfd != AT_FDCWD ? -1
			         : openat(dirfd, ns->v[i].name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0)
				l->dirfds[l->ndirfds++] = fd;
			dirfd = fd;
			continue;
		}
		char *name = strdup(ns->v[i].name);
		if (!name)
			return -1;
		name[names_bare_len(name)] = 0;
		if (ulist_add(l, name, i, dirfd) < 0) {
			free(name);
			return -1;
		}
	}
	return 0;
}

/* The name of directory u gives way to those of what it holds. Returns
 * 0, or -1 when memory ran out; a directory that cannot be read keeps
 * its name, an error (as GNU tar, that reads the name: a pattern that
 * selects a directory member cannot be opened). */
static int expand_dir(struct tar *t, struct ulist *l, size_t k)
{
	struct uname *u = &l->v[k];
	int fd = openat(u->dirfd, u->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		tar_cannot(t, u->name, fd < 0 ? "open" : "savedir", errno);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	size_t origin = u->origin;
	int dirfd = u->dirfd;
	bool slash = u->name[strlen(u->name) - 1] == '/';
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		size_t len = strlen(l->v[k].name) + strlen(de->d_name) + 2;
		char *name = malloc(len);
		if (!name) {
			rc = -1;
			break;
		}
		snprintf(name, len, "%s%s%s", l->v[k].name, slash ? "" : "/", de->d_name);
		if (ulist_add(l, name, origin, dirfd) < 0) {
			free(name);
			rc = -1;
			break;
		}
	}
	closedir(d);
	l->v[k].gone = true;
	return rc;
}

/* Whether file time a is no later than the member's b; without the
 * nanoseconds when the member's format has none. */
static bool not_newer(struct timespec a, const struct scan_member *m)
{
	if (m->format != FMT_PAX)
		return a.tv_sec <= m->mtime.tv_sec;
	return a.tv_sec < m->mtime.tv_sec ||
	       (a.tv_sec == m->mtime.tv_sec && a.tv_nsec <= m->mtime.tv_nsec);
}

/* The first name of the list left that selects member name; l->n if none. */
static size_t first_match(struct tar *t, const struct ulist *l, const char *name)
{
	size_t k;
	for (k = 0; k < l->n; k++)
		if (!l->v[k].gone &&
		    members_match(t, l->v[k].name,
		                  name_match_how(&t->opt.names.v[l->v[k].origin]), name))
			break;
	return k;
}

/* Whether member name lies below the directory u names, rather than being
 * it: it comes before the directory's own member in an archive that stores
 * a directory after its contents, as sweep-tar's -c does. */
static bool below_dir(const struct uname *u, const char *name, int flags)
{
	size_t n = names_bare_len(name), un = strlen(u->name);
	struct stat st;
	return n > un && fstatat(u->dirfd, u->name, &st, flags) == 0 && S_ISDIR(st.st_mode);
}

/* Go through the members with the list, as GNU tar's -u does; but a name
 * of a directory meets a member below it as it would meet the directory's
 * own member, which GNU tar's order puts first: it gives way to the names
 * of what the directory holds, and the member is matched against those.
 * (GNU tar's -u drops the directory's name there when the member is not
 * newer, and leaves out every change below it.) Returns 0, or -1 when
 * memory ran out. */
static int update_names(struct tar *t, struct ulist *l, const struct scan *s)
{
	int flags = t->opt.dereference ? 0 : AT_SYMLINK_NOFOLLOW;
	struct strbuf xname = STRBUF_INIT;
	int r = 0;
	for (size_t i = 0; i < s->n && r == 0; i++) {
		const struct scan_member *m = &s->v[i];
		/* (a global header is no member to GNU tar's -u) */
		if (m->kind == SCAN_GLOBAL)
			continue;
		/* by its name as --transform makes it, as GNU tar reads it */
		const char *name = xform_member(t, m->name, &xname);
		if (!name) {
			r = -1;
			break;
		}
		size_t k = first_match(t, l, name);
		while (k < l->n && l->v[k].dirfd != -1 && below_dir(&l->v[k], name, flags)) {
			r = expand_dir(t, l, k);
			if (r < 0 || !l->v[k].gone)
				break; /* (a directory that cannot be read keeps its name) */
			k = first_match(t, l, name);
		}
		if (r < 0 || k == l->n || l->v[k].dirfd == -1)
			continue;
		struct stat st;
		if (fstatat(l->v[k].dirfd, name, &st, flags) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			r = expand_dir(t, l, k);
		else if (not_newer(st.st_mtim, m))
			l->v[k].gone = true;
	}
	sb_free(&xname);
	return r;
}

/* The operands replaced by the names -u keeps, -C directories in place.
 * Returns 0 or -1 (ENOMEM). */
static int keep_names(struct tar *t, const struct ulist *l)
{
	struct tar_names *ns = &t->opt.names, out = { 0 };
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->v[i].chdir && names_add(&out, ns->v[i].name, true) < 0)
			goto fail;
		for (size_t k = 0; !ns->v[i].chdir && k < l->n; k++)
			if (l->v[k].origin == i && !l->v[k].gone && names_add(&out, l->v[k].name, false) < 0)
				goto fail;
	}
	names_free(ns);
	*ns = out;
	return 0;
fail:
	names_free(&out);
	return -1;
}

static int choose_names(struct tar *t, const struct scan *s)
{
	struct ulist l = { 0 };
	int rc = ulist_start(t, &l) < 0 || update_names(t, &l, s) < 0 || keep_names(t, &l) < 0 ? -1 : 0;
	ulist_free(&l);
	if (rc < 0)
		tar_fatal(t, ENOMEM, "memory exhausted");
	return rc;
}

/* Copy the archive at name (relative to dirfd) into out, its last block
 * filled with zeros. Returns 0, or -1 when the run cannot go on (fatal,
 * reported); a file that cannot be opened is an error, and the run goes on. */
static int copy_archive(struct tar *t, struct tar_out *out, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		tar_cannot(t, name, "open", errno);
		return 0;
	}
	if (fstat(fd, &st) < 0) {
		tar_cannot(t, name, "stat", errno);
		close(fd);
		return 0;
	}
	static char buf[65536];
	uint64_t left = (uint64_t)st.st_size, done = 0;
	int rc = 0;
	while (left > 0) {
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tar_fatal(t, errno, "%s: Read error at byte %ju, while reading %zu bytes",
			          tq(t, 0, name), (uintmax_t)done, want);
			rc = -1;
			break;
		}
		if (n == 0) {
			tar_fatal(t, 0, left == 1 ? "%s: File shrank by %ju byte"
			                          : "%s: File shrank by %ju bytes",
			          tq(t, 0, name), (uintmax_t)left);
			rc = -1;
			break;
		}
		if (out_write(out, buf, (size_t)n) < 0) {
			rc = -1;
			break;
		}
		done += (uint64_t)n;
		left -= (uint64_t)n;
	}
	size_t tail = (size_t)(done % BLOCK);
	size_t zlen;
	const void *z = out_zeros(&zlen);
	if (rc == 0 && tail && out_write(out, z, BLOCK - tail) < 0)
		rc = -1;
	close(fd);
	return rc;
}

/* -A: each operand copied whole, then the end of the archive; records
 * are counted from at. */
static void catenate(struct tar *t, int fd, int64_t at)
{
	struct tar_out out;
	if (out_open_fd(&out, fd, t->opt.archive, (uint64_t)at) < 0) {
		tar_fatal(t, errno, "memory exhausted");
		close(fd);
		return;
	}
	out.record = t->opt.record_size;
	struct tar_names *ns = &t->opt.names;
	int dirfd = AT_FDCWD, opened[2] = { -1, -1 };
	for (size_t i = 0; i < ns->n && !t->fatal && !out.err; i++) {
		if (!ns->v[i].chdir) {
			copy_archive(t, &out, dirfd, ns->v[i].name);
			continue;
		}
		int d = openat(dirfd, ns->v[i].name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d < 0) {
			tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, ns->v[i].name));
			break;
		}
		if (opened[0] >= 0)
			close(opened[0]);
		opened[0] = opened[1];
		opened[1] = dirfd = d;
	}
	size_t zlen;
	const void *z = out_zeros(&zlen);
	bool written = !t->fatal && out_write(&out, z, 2 * BLOCK) == 0 && out_close(&out) == 0;
	if (!written && out.err)
		tar_fatal(t, out.err, "%s: Cannot write", tq(t, 0, out.name));
	for (int i = 0; i < 2; i++)
		if (opened[i] >= 0)
			close(opened[i]);
	out_free(&out);
}

/* GNU tar writes on in the format of the last header it read, whatever
 * --format says (a ustar header is posix when it has an extended header
 * of its own, a label without a magic v7). */
static void keep_format(struct tar *t, const struct scan *s)
{
	for (size_t i = s->n; i-- > 0;) {
		if (s->v[i].kind != SCAN_GLOBAL) {
			t->opt.format = s->v[i].format;
			return;
		}
	}
}

int tar_update(struct tar *t)
{
	struct scan s = { 0 };
	int fd = scan_open(t, t->opt.archive);
	if (fd < 0)
		goto out;
	/* GNU tar's -u and -r stop at the first zero block, -i or not */
	if (label_check_fd(t, fd) < 0 || scan_members(t, fd, &s, false) < 0) {
		close(fd);
		goto out;
	}
	if (lseek(fd, s.eof, SEEK_SET) != s.eof) {
		tar_fatal(t, errno, "%s: Cannot seek", tq(t, 0, t->opt.archive));
		close(fd);
		goto out;
	}
	/* an archive that ends in a short record without end blocks, or a
	 * file with no tar header at all: GNU tar's records then run from
	 * the file's end (the stream pads to a multiple of its records from
	 * a base of 0) */
	int64_t rec = (int64_t)t->opt.record_size, grid = s.eof;
	if (s.not_tar)
		grid = 0;
	else if (s.eof == s.size && s.size % rec)
		grid = s.eof - s.size % rec;
	if (t->opt.mode == MODE_CATENATE) {
		catenate(t, fd, grid);
		goto out;
	}
	if (t->opt.mode == MODE_UPDATE && choose_names(t, &s) < 0) {
		close(fd);
		goto out;
	}
	keep_format(t, &s);
	t->append_fd = fd;
	t->append_at = grid;
	tar_create(t);
	if (t->append_fd >= 0)
		close(t->append_fd);
	t->append_fd = -1;
out:
	scan_free(&s);
	return t->diag->status;
}
