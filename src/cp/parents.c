/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parents.c: --parents. The directories of a source's path are made below
 * the target as GNU cp makes them: each one missing gets its source
 * directory's mode, less the umask (the source's own under -p), writable
 * and searchable by us until the copies are in; then, once every copy is
 * done, its mode, and under -p (-a) its owner and times, as the source's.
 * One that is there already gets only what -p, --preserve say.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cp.h"
#include "strbuf.h"

struct made_parent {
	int pfd;              /* the directory it is in */
	char *name;
	char *shown;
	struct stat st;       /* its source directory's */
	bool made;            /* by this copy, not there before */
};

static const char *q(struct cp *cp, int slot, const char *name)
{
	return diag_quote(cp->diag, slot, name);
}

/* Note the directory at name in fd, from source st (made: by us). */
static void note_made(struct cp *cp, struct cp_parents *ps, int fd, const char *name,
                      const char *shown, const struct stat *st, bool made)
{
	struct made_parent *v = reallocarray(ps->v, ps->n + 1, sizeof(*v));
	if (v)
		ps->v = v;
	int pfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	char *n = strdup(name), *s = strdup(shown);
	if (!v || pfd < 0 || !n || !s) {
		diag_error(cp->diag, errno, "%s", q(cp, 0, shown));
		if (pfd >= 0)
			close(pfd);
		free(n);
		free(s);
		return;
	}
	v[ps->n++] = (struct made_parent){ pfd, n, s, *st, made };
}

/* Make one directory, name in fd (sofar in the source, shown below the
 * target), "a -> t/a" under -v. Returns it opened, or -1 (reported). */
static int make_parent(struct cp *cp, struct cp_parents *ps, int fd, const char *name,
                       const char *sofar, const char *shown)
{
	struct stat st;
	if (stat(sofar, &st) < 0) {
		diag_error(cp->diag, errno, "failed to get attributes of %s", q(cp, 0, sofar));
		return -1;
	}
	const struct copy_opts *o = &cp->copy;
	if (mkdirat(fd, name, (st.st_mode & (0777 | S_ISVTX)) | S_IRWXU) == 0) {
		if (o->verbose)
			printf("%s -> %s\n", sofar, shown);
		note_made(cp, ps, fd, name, shown, &st, true);
	} else if (errno != EEXIST) {
		diag_error(cp->diag, errno, "cannot make directory %s", q(cp, 0, shown));
		return -1;
	} else if (o->preserve_mode || o->preserve_owner || o->preserve_times) {
		note_made(cp, ps, fd, name, shown, &st, false);
	}
	int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (next < 0 && errno == ENOTDIR)
		diag_error(cp->diag, 0, "%s exists but is not a directory", q(cp, 0, shown));
	else if (next < 0)
		diag_error(cp->diag, errno, "%s", q(cp, 0, shown));
	return next;
}

int parents_make(struct cp *cp, struct cp_parents *ps, int tfd, const char *target,
                 const char *src)
{
	int fd = dup(tfd);
	const char *p = src;
	/* (the source's own name is the copy's: "a/x/" makes only a) */
	const char *end = src + strlen(src);
	while (end > src + 1 && end[-1] == '/')
		end--;
	struct strbuf name = STRBUF_INIT, shown = STRBUF_INIT, sofar = STRBUF_INIT;
	for (const char *slash; fd >= 0 && p < end && (slash = memchr(p, '/', (size_t)(end - p)));
	     p = slash + 1) {
		bool ok = sb_add(&sofar, "/", p == src ? 0 : 1) == 0 &&
		          sb_add(&sofar, p, (size_t)(slash - p)) == 0;
		if (ok && slash == p)
			continue;
		sb_reset(&name);
		ok = ok && sb_add(&name, p, (size_t)(slash - p)) == 0 &&
		     cp_join(&shown, target, sb_str(&sofar)) == 0;
		int next = -1;
		if (!ok)
			diag_error(cp->diag, ENOMEM, "memory exhausted");
		else
			next = make_parent(cp, ps, fd, name.s, sb_str(&sofar), sb_str(&shown));
		close(fd);
		fd = next;
	}
	sb_free(&name);
	sb_free(&shown);
	sb_free(&sofar);
	return fd;
}

/* The attributes of one directory made, once what goes in it is in. */
static void finish_one(struct cp *cp, const struct made_parent *m, mode_t umask_now)
{
	const struct copy_opts *o = &cp->copy;
	const struct stat *st = &m->st;
	bool owner_ok = true;
	if (o->preserve_owner &&
	    fchownat(m->pfd, m->name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0) {
		owner_ok = false;
		if (errno != EPERM && errno != EINVAL)
			diag_error(cp->diag, errno, "failed to preserve ownership for %s",
			           q(cp, 0, m->shown));
	}
	mode_t mode = o->no_preserve_mode ? 0777 & ~umask_now
	              : o->preserve_mode ? st->st_mode & (owner_ok ? 07777 : 01777)
	              : st->st_mode & (0777 | S_ISVTX) & ~umask_now;
	/* as GNU cp: one made keeps the set-group-ID bit it took from its
	 * parent, unless the source's mode has bits of its own to set */
	struct stat now;
	if (m->made && !(o->preserve_mode && (st->st_mode & 07000)) &&
	    fstatat(m->pfd, m->name, &now, AT_SYMLINK_NOFOLLOW) == 0)
		mode |= now.st_mode & S_ISGID;
	if ((m->made || o->preserve_mode) && fchmodat(m->pfd, m->name, mode, 0) < 0)
		diag_error(cp->diag, errno, "preserving permissions for %s", q(cp, 0, m->shown));
	struct timespec times[2] = { st->st_atim, st->st_mtim };
	if (o->preserve_times && utimensat(m->pfd, m->name, times, AT_SYMLINK_NOFOLLOW) < 0)
		diag_error(cp->diag, errno, "preserving times for %s", q(cp, 0, m->shown));
}

void parents_finish(struct cp *cp, struct cp_parents *ps)
{
	mode_t umask_now = umask(0);
	umask(umask_now);
	for (size_t i = ps->n; i-- > 0;) {
		finish_one(cp, &ps->v[i], umask_now);
		close(ps->v[i].pfd);
		free(ps->v[i].name);
		free(ps->v[i].shown);
	}
	free(ps->v);
	ps->v = NULL;
	ps->n = 0;
}
