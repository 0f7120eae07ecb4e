/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * send.c: the sending side of a transfer over a remote shell. Each source
 * tree is walked as a local sync walks it (libsweep: names by inode, data
 * by physical block); every entry is decided by the same quick check as a
 * local run, against the receiver's manifest instead of the destination
 * itself, and sent as it is handed out, a regular file's bytes with it
 * when the receiver lacks them. A file found unchanged, or one the options
 * leave out, is sent as its status alone at once (the receiver says what
 * it does with it), and its data is never read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "idcache.h"
#include "keymap.h"
#include "manifest.h"
#include "xattrs.h"
#include "walkenv.h"

#define E_DATA 1u   /* data frames follow */
#define E_NAMES 2u  /* the source directory's names came before (--delete) */
#define NAMES_FRAME (256u << 10)

struct sender {
	struct sync *s;
	struct wire *w;
	struct manifest m;
	size_t rootlen;
	dev_t root_dev;         /* -x: the root's file system */
	char **srcs;            /* every SRC, and the one being sent */
	int nsrc, cur;
	uint32_t dirs_again;    /* --files-from: for the next W_TREE_AT */
	struct strbuf target, names;
	struct keymap sent;     /* -H: (dev, ino) whose data went already */
	struct idcache ids;     /* owners' names, for the receiver to map */
	char *buf;
	int err;                /* the connection failed: stop */
	bool io_error_told;     /* W_IO_ERROR sent */
	bool io_error_data_told; /* ... of a file's data (WIRE_IO_DATA) */
};

static const char *rel_of(const struct sender *t, const struct sweep_entry *e)
{
	const char *rel = e->depth ? e->path + t->rootlen : "";
	while (*rel == '/')
		rel++;
	return rel;
}

/* W_IO_ERROR of kind, *told once sent. */
static int tell_io_error(struct sender *t, uint8_t kind, bool *told)
{
	struct wire_frame e = { STRBUF_INIT };
	wire_begin(&e, W_IO_ERROR);
	wire_u8(&e, kind);
	int r = wire_send(t->w, &e);
	sb_free(&e.b);
	*told = r == 0;
	return r;
}

/* A frame, after W_IO_ERROR the first time the source could not be read
 * (and the first time a file's data could not): the receiver deletes, and
 * must not where what was not read may be what its destination holds (the
 * frame comes before anything sent later, as a local run's error comes
 * before the deletions after it). */
static int sender_send(struct sender *t, struct wire_frame *f)
{
	if (t->s->io_error && !t->io_error_told &&
	    tell_io_error(t, WIRE_IO_LIST, &t->io_error_told) < 0)
		return -1;
	if (t->s->io_error_data && !t->io_error_data_told &&
	    tell_io_error(t, WIRE_IO_DATA, &t->io_error_data_told) < 0)
		return -1;
	return wire_send(t->w, f);
}

/* The quick check of a local run, against the manifest, silently. */
static enum copy_verdict decide(struct sender *t, const struct sweep_entry *e)
{
	struct stat dst;
	const char *rel = rel_of(t, e);
	const struct stat *d = manifest_find(&t->m, rel, &dst);
	return sync_decide(t->s, e, rel, -1, e->name, d);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A copy of name appended to v. Returns 0 or -1 (no memory). */
static int add_name(const char *name, char ***v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		char **nv = reallocarray(*v, c, sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	if (!((*v)[*n] = strdup(name)))
		return -1;
	(*n)++;
	return 0;
}

/* Whether the sender leaves name de of directory fd out, as a mount point
 * (-xx; own: of the SRC being sent, whose device s->src_dev is) or a
 * pruned directory (-m, every SRC's; under -L, a link to one). */
static bool hidden(const struct sync *s, bool own, int fd, const struct dirent *de,
                   struct stat *st)
{
	bool dir = de->d_type == DT_DIR || de->d_type == DT_UNKNOWN;
	if (own && s->no_mounts && dir && fstatat(fd, de->d_name, st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    sync_mount_point(s, st, 1))
		return true;
	int follow = s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW;
	return s->prune_ready && (dir || (s->copy_links && de->d_type == DT_LNK)) &&
	       fstatat(fd, de->d_name, st, follow) == 0 && prune_hides(s, st, 1);
}

/* Whether the sender's rules leave de (in fd, in the directory dir_rel as
 * the rules see it) out, judged by its own kind: then it is not sent, and
 * no name of the source's for the receiver's --delete, as rsync's file
 * list holds no excluded name (the receiver, which sees only its own
 * kind there, judged by that: a link the source has where DEST has a
 * directory, under "H build/", deleted the directory). */
static bool rules_leave_out(const struct sync *s, int fd, const struct dirent *de,
                            const char *dir_rel, struct strbuf *path)
{
	struct stat st;
	if (!s->nrules)
		return false;
	bool dir = de->d_type == DT_DIR;
	if ((de->d_type == DT_UNKNOWN || (de->d_type == DT_LNK && s->copy_links)) &&
	    fstatat(fd, de->d_name, &st, s->copy_links ? 0 : AT_SYMLINK_NOFOLLOW) == 0)
		dir = S_ISDIR(st.st_mode);
	sb_reset(path);
	bool top = !*dir_rel || strcmp(dir_rel, ".") == 0;
	if ((top ? sb_addstr(path, de->d_name) : sb_printf(path, "%s/%s", dir_rel, de->d_name)) < 0)
		return false; /* (no memory: sent, kept) */
	return filter_excluded(s, path->s, dir);
}

/* The names in the directory dirfd/name (dir_rel to the rules), appended
 * to v, but those the sender leaves out (hidden(), rules_leave_out()).
 * Returns 0, or -1 (it cannot be read, or no memory). */
static int read_names(const struct sync *s, bool own, int dirfd, const char *name,
                      const char *dir_rel, char ***v, size_t *n, size_t *cap)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int r = 0;
	struct dirent *de;
	struct stat st;
	struct strbuf path = STRBUF_INIT;
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (hidden(s, own, fd, de, &st) || rules_leave_out(s, fd, de, dir_rel, &path))
			continue; /* not sent: not kept from --delete */
		r = add_name(de->d_name, v, n, cap);
	}
	closedir(d);
	sb_free(&path);
	return r;
}

/* Where several SRC go to one DEST, rsync takes them as one tree: a name
 * another SRC brings to the directory at dpath (below DEST) is no
 * deletion's. Its names are added to v; none when it has no such
 * directory (or it cannot be read: then nothing is deleted on its
 * account, as in a local run's other_source_has()). */
static int add_other_sources(struct sender *t, const char *dpath, const char *dir_rel, char ***v,
                             size_t *n, size_t *cap)
{
	struct strbuf path = STRBUF_INIT, base = STRBUF_INIT;
	int r = 0;
	for (int i = 0; r == 0 && i < t->nsrc; i++) {
		const char *src = t->srcs[i];
		struct stat st;
		if (i == t->cur)
			continue;
		sb_reset(&path);
		if (sync_is_contents(src)) {
			r = sb_printf(&path, "%s/%s", src, dpath);
		} else if ((r = sb_last_component(&base, src)) == 0) {
			size_t k = base.len;
			if (!*dpath) { /* DEST itself holds this SRC's name, if it is */
				if (lstat(src, &st) == 0 || errno != ENOENT)
					r = add_name(base.s, v, n, cap);
				continue;
			}
			if (strncmp(dpath, base.s, k) != 0 || (dpath[k] && dpath[k] != '/'))
				continue;
			r = sb_printf(&path, "%s%s", src, dpath + k);
		}
		if (r < 0)
			break;
		if (stat(path.s, &st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				r = -1; /* a doubt: nothing is deleted there */
			continue;
		}
		if (S_ISDIR(st.st_mode))
			r = read_names(t->s, false, AT_FDCWD, path.s, dir_rel, v, n, cap);
	}
	sb_free(&path);
	sb_free(&base);
	return r < 0 ? -1 : 0;
}

/* The names in directory e (with what other SRC bring there), sorted,
 * without repeats, NUL-separated, into t->names (for the receiver's
 * --delete). Returns 0, or -1: it cannot be read (then nothing is deleted
 * there, as rsync's I/O errors turn --delete off). */
static int dir_names(struct sender *t, const struct sweep_entry *e)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	/* (the directory's path as the rules see it, copied: sync_relname()'s
	 * buffer is shared) */
	struct strbuf dir_rel = STRBUF_INIT;
	int r = sb_addstr(&dir_rel, sync_relname(t->s, rel_of(t, e)));
	if (r == 0)
		r = read_names(t->s, true, e->dirfd, e->name, dir_rel.s, &v, &n, &cap);
	/* -L: a link there that leads nowhere turns the receiver's --delete
	 * off before it deletes there (W_IO_ERROR comes before the names) */
	if (r == 0 && t->s->copy_links && !t->s->ignore_errors &&
	    delete_dangling_in(t->s, e->dirfd, e->name, dir_rel.s))
		t->s->io_error = true;
	if (r == 0 && t->nsrc > 1) {
		const char *rel = rel_of(t, e), *prefix = t->s->prefix;
		struct strbuf dpath = STRBUF_INIT;
		r = sb_printf(&dpath, "%s%s%s", prefix, *prefix && *rel ? "/" : "", rel) < 0 ? -1
		    : add_other_sources(t, dpath.s, dir_rel.s, &v, &n, &cap);
		sb_free(&dpath);
	}
	sb_free(&dir_rel);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	sb_reset(&t->names);
	for (size_t i = 0; i < n; i++) {
		bool repeat = i && strcmp(v[i], v[i - 1]) == 0;
		if (r == 0 && !repeat && sb_add(&t->names, v[i], strlen(v[i]) + 1) < 0)
			r = -1;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return r;
}

/* -X, -A: a regular file's attributes, and a directory's, before its
 * contents (the receiver's -i letters compare them) and with its end (where
 * the receiver sets them). */
static void put_xattrs(struct sender *t, const struct sweep_entry *e, struct wire_frame *f)
{
	struct sync *s = t->s;
	mode_t m = e->st.st_mode;
	if (!(s->xattrs || s->acls) || !(S_ISREG(m) || S_ISDIR(m))) {
		wire_u32(f, 0);
		return;
	}
	int fd = e->kind == SWEEP_DATA ? e->fd
	         : openat(e->dirfd, e->name, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
	                  (s->copy_links ? 0 : O_NOFOLLOW));
	/* one it may not read (a directory of mode 0311) has attributes
	 * it may read all the same, by name, as rsync reads them */
	bool by_path = fd < 0 && errno == EACCES;
	if (by_path)
		fd = openat(e->dirfd, e->name, O_PATH | O_CLOEXEC | (s->copy_links ? 0 : O_NOFOLLOW));
	int open_err = fd < 0 ? errno : 0;
	/* not read: the receiver is told so, and leaves the copy's as they
	 * are (an empty set would have them all taken off); one gone since
	 * its look is no error of its own */
	if (xattrs_put(f, fd, by_path, !s->xattrs) < 0 && open_err != ENOENT) {
		s->io_error = true;
		report_error(s, open_err ? open_err : errno,
		             "[sender] listing attributes of \"%s\" failed", sync_abspath(s, e->path));
	}
	if (fd >= 0 && fd != e->fd)
		close(fd);
}

/* The owner's and group's names (rsync maps ids by name unless
 * --numeric-ids), or empty. */
static void put_owner(struct sender *t, const struct sweep_entry *e, struct wire_frame *f)
{
	const struct sync *s = t->s;
	const char *u = NULL, *g = NULL;
	if (s->owner && !s->numeric_ids)
		u = idcache_user(&t->ids, e->st.st_uid);
	if (s->group && !s->numeric_ids)
		g = idcache_group(&t->ids, e->st.st_gid);
	wire_str(f, u ? u : "", u ? strlen(u) : 0);
	wire_str(f, g ? g : "", g ? strlen(g) : 0);
}

/* The names of dir_names() in W_NAMES frames of whole names (a directory
 * may hold more than a frame may). */
static int send_names(struct sender *t)
{
	struct wire_frame f = { STRBUF_INIT };
	int r = 0;
	for (size_t i = 0; r == 0 && i < t->names.len;) {
		size_t end = i;
		while (end < t->names.len && (end == i || end - i < NAMES_FRAME))
			end += strlen(t->names.s + end) + 1;
		wire_begin(&f, W_NAMES);
		sb_add(&f.b, t->names.s + i, end - i);
		r = sender_send(t, &f);
		i = end;
	}
	sb_free(&f.b);
	return r;
}

static int send_entry(struct sender *t, const struct sweep_entry *e, unsigned flags)
{
	struct wire_frame f = { STRBUF_INIT };
	const struct stat *st = &e->st;
	sb_reset(&t->target);
	if (S_ISLNK(st->st_mode) && e->kind != SWEEP_DIR_POST) {
		size_t size = st->st_size > 0 ? (size_t)st->st_size + 1 : 256;
		ssize_t n = sb_reserve(&t->target, size) == 0
		            ? readlinkat(e->dirfd, e->name, t->target.s, size) : -1;
		t->target.len = n > 0 && (size_t)n < size ? (size_t)n : 0;
	}
	/* (-x: a mount point's names are not sent: nothing is deleted in it) */
	if (e->kind == SWEEP_DIR && t->s->delete && !sync_delete_pass(t->s, DEL_BEFORE) &&
	    !(e->flags & SWEEP_E_XDEV) && sync_contents_sent(t->s, e) && dir_names(t, e) == 0) {
		if (send_names(t) < 0)
			return -1;
		flags |= E_NAMES;
	}
	wire_begin(&f, W_ENTRY);
	wire_u8(&f, (uint8_t)e->kind);
	wire_u8(&f, (uint8_t)flags);
	wire_u64(&f, e->dir_id);
	wire_u64(&f, e->parent_id);
	wire_u32(&f, (uint32_t)e->depth);
	wire_str(&f, e->depth ? e->name : "", e->depth ? strlen(e->name) : 0);
	wire_u32(&f, (uint32_t)st->st_mode);
	wire_u32(&f, (uint32_t)st->st_uid);
	wire_u32(&f, (uint32_t)st->st_gid);
	wire_u64(&f, (uint64_t)st->st_size);
	wire_u64(&f, (uint64_t)st->st_mtim.tv_sec);
	wire_u32(&f, (uint32_t)st->st_mtim.tv_nsec);
	wire_u64(&f, (uint64_t)st->st_atim.tv_sec);
	wire_u32(&f, (uint32_t)st->st_atim.tv_nsec);
	wire_u64(&f, (uint64_t)st->st_rdev);
	wire_u64(&f, (uint64_t)st->st_dev);
	wire_u64(&f, (uint64_t)st->st_ino);
	wire_u64(&f, (uint64_t)st->st_nlink);
	wire_str(&f, t->target.s, t->target.len);
	put_xattrs(t, e, &f);
	put_owner(t, e, &f);
	int r = sender_send(t, &f);
	sb_free(&f.b);
	return r;
}

/* A regular file's bytes from fd, then W_DATA_END with 0 or the errno of
 * a failed read (reported here; the receiver then keeps nothing). */
static int send_data(struct sender *t, const struct sweep_entry *e, int fd)
{
	int err = 0;
	for (;;) {
		ssize_t n = read(fd, t->buf, WIRE_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			report_error(t->s, err, "[sender] read errors mapping \"%s\"",
			             sync_abspath(t->s, e->path));
			break;
		}
		if (n == 0)
			break;
		if (wire_send_data(t->w, t->buf, (size_t)n) < 0)
			return -1;
	}
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_DATA_END);
	wire_u32(&f, (uint32_t)err);
	int r = wire_send(t->w, &f);
	sb_free(&f.b);
	return r;
}

/* -c: whether e's bytes (fd) differ from the receiver's file, by sums. */
static bool sums_differ(struct sender *t, const struct sweep_entry *e, int fd)
{
	const unsigned char *theirs = manifest_sum(&t->m, rel_of(t, e));
	unsigned char ours[SYNC_SUM_LEN];
	if (!theirs)
		return true;
	if (fd < 0 || sync_checksum(fd, ours) < 0) {
		report_error(t->s, errno, "[sender] checksum of \"%s\" failed", e->path);
		return true;
	}
	return memcmp(ours, theirs, SYNC_SUM_LEN) != 0;
}

/* Whether the receiver needs e's bytes (asked when it is handed out, fd
 * open on them, or -1). */
static bool need_data(struct sender *t, const struct sweep_entry *e, int fd)
{
	t->s->sum_differs = !t->s->checksum || sums_differ(t, e, fd);
	if (t->s->dry_run || decide(t, e) != COPY_MAKE)
		return false;
	/* later names are linked to the first by the receiver; not where it
	 * decides by directories this end does not see (--compare-dest,
	 * --link-dest, --copy-dest): the first may be left for DIR's copy, a
	 * later name then made of its own bytes (those of one it links, it
	 * passes over) */
	if (!t->s->hard_links || e->st.st_nlink < 2 || t->s->nlink_dest)
		return true;
	if (keymap_get(&t->sent, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino))
		return false;
	return keymap_put(&t->sent, (uint64_t)e->st.st_dev, (uint64_t)e->st.st_ino, 1) == 0;
}

/* When the walk meets an entry: left out by a filter rule (never sent);
 * sent now as its status alone, its data not read (what is unchanged, or
 * left out otherwise: the receiver says so); or kept, to be sent when the
 * walk hands it out. */
static enum sweep_verdict send_filter(const struct sweep_entry *e, void *arg)
{
	struct sender *t = arg;
	struct sync *s = t->s;
	if (t->err)
		return SWEEP_PRUNE;
	struct sweep_entry view;
	/* --chmod: as if the source had it; --chown: the ids as this end
	 * knows them, to decide by (the receiver gives its own) */
	e = sync_source_view(s, e, &view);
	bool dir = S_ISDIR(e->st.st_mode), reg = S_ISREG(e->st.st_mode);
	const char *rel = rel_of(t, e);
	if (s->cap_depth && e->depth >= s->cap_depth)
		return SWEEP_PRUNE; /* --files-from: the root alone, or what it holds */
	s->sum_differs = true; /* -c: summed when its data is read */
	/* --files-from filters a listed name itself, never its implied
	 * directories (files_from.c) */
	if (!(e->depth == 0 && (!*s->prefix || s->files_from)) &&
	    sender_hides(s, sync_relname(s, rel), &e->st, e->depth))
		return SWEEP_PRUNE;
	enum copy_verdict v = decide(t, e);
	/* a directory is sent as the walk hands it out (it has no id to be
	 * named by before), whatever the verdict: the receiver leaves it
	 * and what comes below it as its own check says (--existing,
	 * --ignore-existing), and does not take it for gone (--delete) */
	if ((v != COPY_LEAVE || dir) && !reg)
		return SWEEP_KEEP;
	if (v == COPY_MAKE && !s->dry_run)
		return SWEEP_KEEP;
	if (v != COPY_LEAVE && s->hard_links && e->st.st_nlink > 1)
		return SWEEP_KEEP; /* in walk order, for the receiver's links */
	if (send_entry(t, e, 0) < 0)
		t->err = -1;
	return SWEEP_PRUNE;
}

/* An entry handed out by the walk: sent, with its bytes if needed. */
static void send_walked(struct sender *t, const struct sweep_entry *e)
{
	if (e->kind == SWEEP_ERROR) {
		sync_walk_error(t->s, e);
		return;
	}
	struct sweep_entry view;
	e = sync_source_view(t->s, e, &view);
	unsigned flags = 0;
	int fd = -1;
	if (S_ISREG(e->st.st_mode)) {
		fd = e->kind == SWEEP_DATA ? e->fd
		     : sync_open_read(e->dirfd, e->name, O_RDONLY | O_CLOEXEC | O_NOCTTY |
		                                      (t->s->copy_links ? 0 : O_NOFOLLOW), &e->st);
		if (fd < 0 && errno == ENOENT) {
			sync_vanished(t->s, e->path, false); /* between its stat and now: 24 */
			return;
		}
		if (fd < 0) {
			report_error(t->s, errno, "[sender] send_files failed to open \"%s\"",
			             sync_abspath(t->s, e->path));
			return;
		}
		flags = need_data(t, e, fd) ? E_DATA : 0;
	}
	if (send_entry(t, e, flags) < 0 || (flags && send_data(t, e, fd) < 0))
		t->err = -1;
	if (fd >= 0 && fd != e->fd)
		close(fd);
}

static int send_frame(struct sender *t, enum wire_type type)
{
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, type);
	int r = sender_send(t, &f);
	sb_free(&f.b);
	return r;
}

/* --delete-before's pass: the directories the transfer will go through
 * (not excluded; on the root's file system under -x), in the walk's order. */
static enum sweep_verdict predelete_filter(const struct sweep_entry *e, void *arg)
{
	struct sender *t = arg;
	struct sync *s = t->s;
	if (t->err || !S_ISDIR(e->st.st_mode) || (s->one_fs && e->st.st_dev != t->root_dev))
		return SWEEP_PRUNE;
	bool top = e->depth == 0 && (!*s->prefix || s->files_from);
	return !top && sender_hides(s, sync_relname(s, rel_of(t, e)), &e->st, e->depth)
	       ? SWEEP_PRUNE : SWEEP_KEEP;
}

/* Each directory's names, then its path (W_PREDELETE), for the receiver
 * to delete what they lack before anything is sent; W_PREDELETE_END. */
static int send_predeletes(struct sender *t, const char *src)
{
	struct sweep_options so = {
		.follow = t->s->copy_links ? SWEEP_FOLLOW_ALL : SWEEP_FOLLOW_NONE,
		.flags = SWEEP_NODATA | (t->s->one_fs ? SWEEP_XDEV : 0) | walkenv_flags(),
		.filter = predelete_filter,
		.filter_arg = t,
	};
	delete_prescan(t->s, src);
	walkenv_read(&so.order, &so.warm);
	struct sweep *sw = sweep_open(NULL, &so);
	if (sw && sweep_add_root(sw, AT_FDCWD, src) < 0) {
		sweep_close(sw); /* said by the transfer's own walk */
		sw = NULL;
	}
	const struct sweep_entry *e;
	struct wire_frame f = { STRBUF_INIT };
	while (sw && !t->err && (e = sweep_next(sw)) != NULL) {
		if (e->kind != SWEEP_DIR || dir_names(t, e) < 0)
			continue; /* unread: nothing is deleted there */
		const char *rel = rel_of(t, e);
		wire_begin(&f, W_PREDELETE);
		wire_str(&f, rel, strlen(rel));
		if (send_names(t) < 0 || sender_send(t, &f) < 0)
			t->err = -1;
	}
	sb_free(&f.b);
	sweep_close(sw);
	return t->err ? -1 : send_frame(t, W_PREDELETE_END);
}

/* --remove-source-files: what the receiver made whole or found up to date
 * goes from the tree at src, as it goes in a local run. */
static int remove_sent(struct sender *t, const char *src)
{
	struct wire_msg m;
	struct strbuf rel = STRBUF_INIT, z = STRBUF_INIT;
	int r;
	while ((r = wire_recv(t->w, &m, &z)) == 0 && m.type == W_REMOVE) {
		struct stat read = { 0 };
		bool ok = wire_get_cstr(&m, &rel);
		read.st_size = (off_t)wire_get_u64(&m);
		read.st_mtim.tv_sec = (time_t)wire_get_u64(&m);
		read.st_mtim.tv_nsec = (long)(wire_get_u32(&m) % 1000000000);
		const char *p = sb_str(&rel);
		if (!ok || m.bad || sync_has_dotdot(p) || *p == '/') {
			r = wire_bad(t->w, "a removal that does not parse");
			break;
		}
		const char *shown = sync_relname(t->s, p);
		if (!t->s->removals_wait)
			sync_remove_below(t->s, src, p, shown, &read);
		else if (sync_removal_keep(t->s, src, p, shown, &read) < 0)
			report_error(t->s, ENOMEM, "[sender] sender failed to remove %s", shown);
	}
	if (r == 0 && m.type != W_REMOVE_END)
		r = wire_bad(t->w, "a frame out of place after a tree");
	sb_free(&rel);
	sb_free(&z);
	return r;
}

/* One source tree, once its W_TREE or W_TREE_AT is sent (r: how that
 * went): the receiver's manifest, the walk. */
static int send_tree_body(struct sender *t, const char *src, int r)
{
	struct sync *s = t->s;
	t->rootlen = strlen(src);
	struct stat rst;
	t->root_dev = lstat(src, &rst) == 0 ? rst.st_dev : 0;
	t->err = 0;
	if (r < 0 || manifest_recv(&t->m, t->w) < 0 ||
	    (sync_delete_pass(s, DEL_BEFORE) && send_predeletes(t, src) < 0)) {
		manifest_free(&t->m);
		return -1;
	}
	struct sweep_options so = {
		.follow = s->copy_links ? SWEEP_FOLLOW_ALL : SWEEP_FOLLOW_NONE,
		.flags = SWEEP_POSTORDER | (s->one_fs ? SWEEP_XDEV : 0) | walkenv_flags(),
		.filter = send_filter,
		.filter_arg = t,
	};
	walkenv_read(&so.order, &so.warm);
	struct sweep *sw = sweep_open(NULL, &so);
	if (!sw || sweep_add_root(sw, AT_FDCWD, src) < 0)
		report_error(s, errno, "[sender] cannot walk \"%s\"", src);
	const struct sweep_entry *e;
	while (sw && !t->err && (e = sweep_next(sw)) != NULL) {
		/* what lies below the cap is left out: not even read (a name's
		 * implied directory, /tmp say, may hold much, and change) */
		if (e->kind == SWEEP_DIR && s->cap_depth && e->depth >= s->cap_depth - 1)
			sweep_prune(sw);
		send_walked(t, e);
	}
	sweep_close(sw);
	manifest_free(&t->m);
	keymap_free(&t->sent);
	if (t->err || send_frame(t, W_TREE_END) < 0)
		return -1;
	return s->remove_source ? remove_sent(t, src) : 0;
}

/* One source tree, named as a SRC operand. */
static int send_tree(struct sender *t, const char *src, mode_t mode, int nsrc)
{
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_TREE);
	wire_u32(&f, (uint32_t)nsrc);
	wire_u32(&f, (uint32_t)mode);
	wire_str(&f, src, strlen(src));
	int r = sender_send(t, &f);
	sb_free(&f.b);
	return send_tree_body(t, src, r);
}

/* --files-from: a tree placed by its path below DEST (files_from.c). */
static int send_tree_at(void *arg, const char *from, const char *path, int cap, bool root)
{
	struct sender *t = arg;
	struct stat st;
	if (t->err)
		return -1;
	if (lstat(from, &st) < 0) {
		link_stat_failed(t->s, from, errno);
		return 0;
	}
	struct wire_frame f = { STRBUF_INIT };
	t->s->tree_no++;
	wire_begin(&f, W_TREE_AT);
	wire_u8(&f, (uint8_t)((cap == 1 ? FF_ALONE : cap == 2 ? FF_ONE_LEVEL : 0) |
	                      (root ? FF_ROOT : 0) | (t->s->name_abs ? FF_ABS : 0)));
	wire_u32(&f, (uint32_t)st.st_mode);
	wire_str(&f, path, strlen(path));
	wire_u32(&f, t->dirs_again);
	t->dirs_again = 0;
	int r = sender_send(t, &f);
	sb_free(&f.b);
	if (send_tree_body(t, from, r) < 0)
		t->err = -1;
	return t->err;
}

/* --delete-missing-args: a tree of mode 0, without a body: the receiver
 * removes the copy of src (placed as a SRC, or at path below DEST with
 * --files-from) */
static int send_missing_tree(struct sender *t, enum wire_type type, const char *name, int nsrc)
{
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, type);
	if (type == W_TREE) {
		wire_u32(&f, (uint32_t)nsrc);
		wire_u32(&f, 0);
		wire_str(&f, name, strlen(name));
	} else {
		wire_u8(&f, 0);
		wire_u32(&f, 0);
		wire_str(&f, name, strlen(name));
		wire_u32(&f, t->dirs_again);
		t->dirs_again = 0;
	}
	int r = sender_send(t, &f);
	sb_free(&f.b);
	return r;
}

static void send_missing(void *arg, const char *path)
{
	struct sender *t = arg;
	if (!t->err && send_missing_tree(t, W_TREE_AT, path, 0) < 0)
		t->err = -1;
}

/* --files-from: an implied directory counted again, told with the next
 * tree (its receiver's --stats count it). */
static void send_dir_again(void *arg)
{
	struct sender *t = arg;
	t->dirs_again++;
}

/* --files-from: a directory's source time, for the receiver to set again
 * once everything is in. */
static void send_dir_time(void *arg, const char *path, const struct timespec *mtime)
{
	struct sender *t = arg;
	if (t->err)
		return;
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_DIR_TIME);
	wire_str(&f, path, strlen(path));
	wire_u64(&f, (uint64_t)mtime->tv_sec);
	wire_u32(&f, (uint32_t)mtime->tv_nsec);
	if (sender_send(t, &f) < 0)
		t->err = -1;
	sb_free(&f.b);
}

int send_trees(struct sync *s, struct wire *w, char **srcs, int nsrc)
{
	struct sender t = { .s = s, .w = w, .buf = malloc(WIRE_CHUNK), .srcs = srcs,
	                    .nsrc = nsrc };
	int r = t.buf ? 0 : -1;
	s->sender_side = true;
	s->removals_wait = s->copy_links || nsrc > 1 || s->files_from;
	s->first_wins = nsrc > 1 || s->files_from;
	if (r == 0 && s->files_from && nsrc == 1) {
		const struct ff_ops ops = { send_tree_at, send_dir_again, send_dir_time, send_missing,
			                    &t };
		s->prefix = "";
		files_from_each(s, srcs[0], &ops);
		r = t.err;
		nsrc = 0;
	}
	sync_sources_check(s, srcs, nsrc);
	prune_scan(s, srcs, nsrc);
	for (int i = 0; r == 0 && i < nsrc; i++) {
		struct stat st;
		if (lstat(srcs[i], &st) < 0) {
			int err = errno;
			if (s->delete_missing && sync_missing_ok(s, srcs[i], err) &&
			    (r = send_missing_tree(&t, W_TREE, srcs[i], nsrc)) < 0)
				break;
			link_stat_failed(s, srcs[i], err);
			continue;
		}
		struct strbuf base = STRBUF_INIT;
		/* the prefix of rel paths, as the receiver's operands.c sets it */
		bool all = sync_is_contents(srcs[i]);
		if (sb_last_component(&base, srcs[i]) < 0) {
			r = -1;
			break;
		}
		s->prefix = all ? "" : base.s;
		s->tree_no++;
		t.cur = i;
		r = send_tree(&t, srcs[i], st.st_mode, nsrc);
		s->prefix = NULL;
		sb_free(&base);
	}
	sync_removals_end(s);
	if (r == 0)
		r = send_frame(&t, W_END);
	if (r == 0)
		r = wire_flush(w);
	sb_free(&t.target);
	sb_free(&t.names);
	idcache_free(&t.ids);
	free(t.buf);
	return r;
}
