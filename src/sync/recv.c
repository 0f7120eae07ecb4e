/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * recv.c: the receiving side of a transfer over a remote shell. For each
 * source tree the sender announces, the destination is placed by the
 * rules of a local run (operands.c), walked once in its disk order for
 * the sender's manifest, then made from the entries the sender streams,
 * by the copy engine (copy_stream) and the same decide hook as a local
 * run, so that what is shown, counted, replaced and deleted is the same.
 *
 * Nothing the sender says is trusted for a path: an entry names its
 * directory by the id of a directory sent before it and itself by one
 * component, never "." or ".." or anything with a '/', and its path is
 * built here; a tree's root goes only where the local rules put it.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "keymap.h"
#include "manifest.h"
#include "xattrs.h"

#define E_DATA 1u
#define E_NAMES 2u

/* A directory the sender has sent: where its path starts in paths. */
struct rdir {
	uint64_t parent_id;
	int depth;
	size_t path;
};

struct receiver {
	struct sync *s;
	struct wire *w;
	struct wire_msg m;
	struct strbuf zbuf;
	struct sweep_entry e;
	struct strbuf src;        /* the tree's source, as the sender names it */
	struct strbuf path, target, names;
	struct strbuf standin;    /* the stand-in's name in scratch */
	mode_t standin_mode;      /* its kind */
	int standin_fd;           /* a regular one's, as e->fd */
	struct strbuf xattrs;     /* the entry's attributes, as sent */
	struct strbuf owner;      /* the owner's name, as sent */
	struct keymap ids;        /* (sender's id, 0 user / 1 group) -> ours + 1 */
	const char **name_index;  /* names, split */
	size_t name_cap;
	struct keymap dirs;       /* dir_id -> index in rdirs + 1 */
	struct rdir *rdirs;
	size_t nrdirs, rdir_cap;
	struct strbuf paths;      /* the directories' paths, NUL-separated */
	bool root_seen;
	mode_t root_mode;         /* the tree's root's kind, as W_TREE said */
	unsigned trees, ntrees;   /* trees received, and how many may come */
	bool data_left;           /* data frames of the entry not yet read */
	const char *chunk;
	size_t chunk_left;
	int scratch;              /* stand-ins for symbolic links */
	char scratch_path[64];
	bool failed, tree_done;
	struct late_deletes late; /* --delete-after: what to delete at the end */
	struct ff_dest ff;        /* --files-from: DEST, as the trees go in */
	bool ff_open;
};

static int bad(struct receiver *r, const char *what)
{
	r->failed = true;
	return wire_bad(r->w, what);
}

static bool valid_name(const char *p, size_t n)
{
	return n > 0 && memchr(p, '/', n) == NULL && memchr(p, 0, n) == NULL &&
	       !(n == 1 && p[0] == '.') && !(n == 2 && p[0] == '.' && p[1] == '.');
}

/* The next frame into r->m; W_IO_ERROR (the sender could not read part
 * of the source) taken on the way: --delete stops, as in a local run
 * (a kind not known, or none, as for the list). */
static int next_frame(struct receiver *r)
{
	for (;;) {
		if (wire_recv(r->w, &r->m, &r->zbuf) < 0)
			return -1;
		if (r->m.type != W_IO_ERROR)
			return 0;
		if (wire_get_u8(&r->m) == WIRE_IO_DATA && !r->m.bad)
			r->s->io_error_data = true;
		else
			r->s->io_error = true;
	}
}

/* Read what is left of the last entry's data. */
static int drain(struct receiver *r)
{
	r->chunk_left = 0;
	while (r->data_left && !r->failed) {
		if (next_frame(r) < 0) {
			r->failed = true;
			return -1;
		}
		if (r->m.type == W_DATA_END)
			r->data_left = false;
		else if (r->m.type != W_DATA)
			return bad(r, "a frame out of place in a file's data");
	}
	return r->failed ? -1 : 0;
}

static ssize_t recv_read(void *arg, void *buf, size_t n)
{
	struct receiver *r = arg;
	while (r->chunk_left == 0) {
		if (!r->data_left)
			return 0;
		if (r->failed || next_frame(r) < 0) {
			r->failed = true;
			errno = ECONNRESET;
			return -1;
		}
		if (r->m.type == W_DATA) {
			r->chunk = r->m.p;
			r->chunk_left = (size_t)(r->m.end - r->m.p);
		} else if (r->m.type == W_DATA_END) {
			uint32_t err = wire_get_u32(&r->m);
			r->data_left = false;
			if (err == 0 && !r->m.bad)
				return 0;
			errno = err > 0 && err < 4096 ? (int)err : EIO;
			return -1;
		} else {
			bad(r, "a frame out of place in a file's data");
			errno = EPROTO;
			return -1;
		}
	}
	size_t k = n < r->chunk_left ? n : r->chunk_left;
	memcpy(buf, r->chunk, k);
	r->chunk += k;
	r->chunk_left -= k;
	return (ssize_t)k;
}

static struct rdir *find_dir(struct receiver *r, uint64_t id)
{
	const uint64_t *i = keymap_get(&r->dirs, id, 0);
	return i ? &r->rdirs[*i - 1] : NULL;
}

/* Remember directory e (its path in r->path) for what it holds. */
static int add_dir(struct receiver *r)
{
	if (find_dir(r, r->e.dir_id))
		return bad(r, "a directory id sent twice");
	if (r->nrdirs == r->rdir_cap) {
		size_t cap = r->rdir_cap ? 2 * r->rdir_cap : 256;
		struct rdir *v = reallocarray(r->rdirs, cap, sizeof(*v));
		if (!v)
			return -1;
		r->rdirs = v;
		r->rdir_cap = cap;
	}
	struct rdir d = { r->e.parent_id, r->e.depth, r->paths.len };
	if (sb_add(&r->paths, r->path.s, r->path.len + 1) < 0 ||
	    keymap_put(&r->dirs, r->e.dir_id, 0, r->nrdirs + 1) < 0)
		return -1;
	r->rdirs[r->nrdirs++] = d;
	return 0;
}

/* The entry's path (into r->path), its name and depth, from its parent;
 * a directory's SWEEP_DIR_POST from what its SWEEP_DIR said. */
static int place_entry(struct receiver *r, const char *name, size_t n)
{
	struct sweep_entry *e = &r->e;
	sb_reset(&r->path);
	if (e->kind == SWEEP_DIR_POST) {
		const struct rdir *d = find_dir(r, e->dir_id);
		if (!d)
			return bad(r, "the end of a directory never begun");
		e->parent_id = d->parent_id;
		e->depth = d->depth;
		return sb_addstr(&r->path, r->paths.s + d->path);
	}
	if (e->depth == 0) {
		if (r->root_seen)
			return bad(r, "a second root in one tree");
		r->root_seen = true;
		if (S_ISDIR(e->st.st_mode) != S_ISDIR(r->root_mode))
			return bad(r, "a root of another kind than its tree's");
		e->parent_id = 0;
		return sb_addstr(&r->path, r->src.s);
	}
	const struct rdir *d = find_dir(r, e->parent_id);
	if (!d)
		return bad(r, "an entry in a directory never sent");
	if (!valid_name(name, n))
		return bad(r, "a name that is not one component");
	e->depth = d->depth + 1;
	const char *dp = r->paths.s + d->path;
	size_t dl = strlen(dp);
	if (sb_add(&r->path, dp, dl) < 0 || (dl && dp[dl - 1] != '/' && sb_addc(&r->path, '/') < 0))
		return -1;
	return sb_add(&r->path, name, n);
}

static int open_scratch(struct receiver *r)
{
	if (r->scratch >= 0)
		return 0;
	const char *tmp = getenv("TMPDIR");
	snprintf(r->scratch_path, sizeof(r->scratch_path), "%s/sweep-sync.XXXXXX",
	         tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(r->scratch_path) ||
	    (r->scratch = open(r->scratch_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	return 0;
}

static void drop_stand_in(struct receiver *r)
{
	if (r->standin_fd >= 0)
		close(r->standin_fd);
	r->standin_fd = -1;
	if (r->standin.len && r->scratch >= 0)
		unlinkat(r->scratch, r->standin.s, S_ISDIR(r->standin_mode) ? AT_REMOVEDIR : 0);
	sb_reset(&r->standin);
}

/* The entry's stand-in, under its own name (the engine names the
 * destination by e->name): a symbolic link with its target, or (-X, -A) a
 * file or directory with its attributes, none at all included, for the
 * engine to copy them from and to compare its copy's with (and take off the
 * copy what it lacks). */
static int stand_in(struct receiver *r, bool attrs)
{
	struct sweep_entry *e = &r->e;
	mode_t m = e->st.st_mode;
	bool link = S_ISLNK(m) && e->kind != SWEEP_DIR_POST;
	/* (a directory's before its contents too: its -i letters are
	 * found then, against its copy's attributes) */
	if (!link && !(attrs && (S_ISREG(m) || S_ISDIR(m))))
		return 0;
	if (r->scratch < 0) {
		errno = EBADF;
		return -1;
	}
	if (sb_addstr(&r->standin, e->name) < 0)
		return -1;
	r->standin_mode = m;
	const char *name = r->standin.s;
	int fd = -1;
	if (link ? symlinkat(r->target.s, r->scratch, name) :
	    S_ISDIR(m) ? mkdirat(r->scratch, name, 0700) :
	    (fd = openat(r->scratch, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) {
		sb_reset(&r->standin);
		return -1;
	}
	e->dirfd = r->scratch;
	e->name = name;
	if (link)
		return 0;
	if (S_ISDIR(m))
		fd = openat(r->scratch, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = fd < 0 ? errno : xattrs_apply(&r->xattrs, fd);
	if (err) {
		/* a stand-in without all of them would have the copy's others
		 * taken off: none, and the copy's are left as they are */
		if (fd >= 0)
			close(fd);
		drop_stand_in(r);
		e->dirfd = r->scratch;
		e->name = "";
		errno = err;
		return -1;
	}
	if (S_ISREG(m))
		e->fd = r->standin_fd = fd; /* the engine's source for them */
	else
		close(fd);
	return 0;
}

/* --delete: the sorted names of the source directory, split. */
static int index_names(struct receiver *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->names.len; i += strlen(r->names.s + i) + 1)
		n++;
	if (n + 1 > r->name_cap) { /* never NULL: NULL says "not read" */
		const char **v = reallocarray(r->name_index, n + 1, sizeof(*v));
		if (!v)
			return -1;
		r->name_index = v;
		r->name_cap = n + 1;
	}
	n = 0;
	for (size_t i = 0; i < r->names.len; i += strlen(r->names.s + i) + 1)
		r->name_index[n++] = r->names.s + i;
	r->s->src_names = r->name_index;
	r->s->nsrc_names = n;
	return 0;
}

/* The sender's id as ours: by --usermap/--groupmap (--chown) where a pair
 * matches, else by its name (rsync's default): the same number where the
 * name is unknown here, or not sent; 0 is never mapped so. */
static unsigned map_id(struct receiver *r, unsigned id, bool group, const char *name)
{
	unsigned to;
	if (id_map_find(r->s, group, id, r->s->numeric_ids ? "" : name, &to))
		return to;
	if (!*name || id == 0 || r->s->numeric_ids)
		return id;
	const uint64_t *v = keymap_get(&r->ids, id, group);
	if (v)
		return (unsigned)(*v - 1);
	unsigned ours = id;
	if (group) {
		const struct group *g = getgrnam(name);
		ours = g ? g->gr_gid : id;
	} else {
		const struct passwd *p = getpwnam(name);
		ours = p ? p->pw_uid : id;
	}
	keymap_put(&r->ids, id, group, (uint64_t)ours + 1); /* else looked up again */
	return ours;
}

static bool kind_fits(enum sweep_kind k, mode_t mode, unsigned flags)
{
	switch (k) {
	case SWEEP_DIR:
	case SWEEP_DIR_POST:
		return S_ISDIR(mode) && !(flags & E_DATA);
	case SWEEP_FILE:
	case SWEEP_DATA:
		return !S_ISDIR(mode) && !(flags & E_NAMES) && (S_ISREG(mode) || !(flags & E_DATA));
	default:
		return false;
	}
}

/* The W_ENTRY frame in r->m, into r->e. */
static int decode_entry(struct receiver *r)
{
	struct wire_msg *m = &r->m;
	struct sweep_entry *e = &r->e;
	memset(e, 0, sizeof(*e));
	e->kind = (enum sweep_kind)wire_get_u8(m);
	unsigned flags = wire_get_u8(m);
	e->dir_id = wire_get_u64(m);
	e->parent_id = wire_get_u64(m);
	e->depth = wire_get_u32(m) ? 1 : 0; /* only whether it is a root */
	size_t n;
	const char *name = wire_get_str(m, &n);
	struct stat *st = &e->st;
	st->st_mode = (mode_t)wire_get_u32(m);
	st->st_uid = (uid_t)wire_get_u32(m);
	st->st_gid = (gid_t)wire_get_u32(m);
	st->st_size = (off_t)wire_get_u64(m);
	st->st_mtim.tv_sec = (time_t)wire_get_u64(m);
	st->st_mtim.tv_nsec = wire_get_u32(m) % 1000000000;
	st->st_atim.tv_sec = (time_t)wire_get_u64(m);
	st->st_atim.tv_nsec = wire_get_u32(m) % 1000000000;
	st->st_rdev = (dev_t)wire_get_u64(m);
	st->st_dev = (dev_t)wire_get_u64(m);
	st->st_ino = (ino_t)wire_get_u64(m);
	st->st_nlink = (nlink_t)wire_get_u64(m);
	bool target_ok = wire_get_cstr(m, &r->target);
	unsigned nattrs;
	bool attrs_ok = xattrs_take(m, &r->xattrs, &nattrs);
	bool owner_ok = wire_get_cstr(m, &r->owner);
	st->st_uid = map_id(r, st->st_uid, false, sb_str(&r->owner));
	bool group_ok = owner_ok && wire_get_cstr(m, &r->owner);
	st->st_gid = map_id(r, st->st_gid, true, sb_str(&r->owner));
	if (m->bad || !target_ok || !attrs_ok || !group_ok ||
	    !kind_fits(e->kind, st->st_mode, flags))
		return bad(r, "an entry that does not parse");
	if (S_ISLNK(st->st_mode)) /* what a link's readers size their buffer by */
		st->st_size = (off_t)r->target.len;
	if (place_entry(r, name, n) < 0)
		return r->failed ? -1 : bad(r, "an entry too large for memory");
	e->path = r->path.s;
	e->pathlen = r->path.len;
	const char *slash = strrchr(e->path, '/');
	/* what the engine opens of a source is a stand-in in scratch, by one
	 * component (a root's, the sender's path, is named apart): never a
	 * path of the receiver's own, and none at all when there is no
	 * stand-in (a stale one is gone first) */
	e->name = e->depth && slash ? slash + 1 : "root";
	e->dirfd = r->scratch;
	e->fd = -1;
	e->phys = SWEEP_PHYS_NONE;
	if (e->depth == 0)
		e->flags |= SWEEP_E_ROOT;
	drop_stand_in(r);
	/* (attributes the sender could not read: no stand-in holds them) */
	if (stand_in(r, (r->s->xattrs || r->s->acls) && nattrs != XATTRS_UNKNOWN) < 0)
		report_error(r->s, errno, "[receiver] cannot keep what \"%s\" holds beside its "
		             "data (its link target or attributes) in %s", e->path, r->scratch_path);
	if (e->kind == SWEEP_DIR && add_dir(r) < 0)
		return r->failed ? -1 : bad(r, "more directories than memory holds");
	r->s->src_names = NULL;
	if ((flags & E_NAMES) && index_names(r) < 0)
		r->s->src_names = NULL; /* no memory: nothing deleted there */
	r->data_left = flags & E_DATA;
	r->s->stream_data = r->data_left;
	return 0;
}

static void put_removal(void *arg, const char *root, const char *rel, const char *shown,
                        const struct stat *read)
{
	(void)root, (void)shown;
	struct receiver *r = arg;
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_REMOVE);
	wire_str(&f, rel, strlen(rel));
	wire_u64(&f, (uint64_t)read->st_size);
	wire_u64(&f, (uint64_t)read->st_mtim.tv_sec);
	wire_u32(&f, (uint32_t)read->st_mtim.tv_nsec);
	if (wire_send(r->w, &f) < 0)
		r->failed = true;
	sb_free(&f.b);
}

/* --remove-source-files: at the tree's end, what the sender is to remove
 * (recv_done's), then W_REMOVE_END. */
static int send_removals(struct receiver *r)
{
	sync_removals_each(r->s, put_removal, r);
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_REMOVE_END);
	int ret = r->failed || wire_send(r->w, &f) < 0 ? -1 : wire_flush(r->w);
	sb_free(&f.b);
	return ret;
}

/* --remove-source-files: an entry made whole or found up to date, kept for
 * the sender to remove; not one that is the destination's own file (the
 * sender's numbers are this host's when both ends are on one). */
static void recv_done(void *arg, const struct sweep_entry *e, const char *rel,
                      const struct stat *dst)
{
	struct receiver *r = arg;
	struct sync *s = r->s;
	if (s->remove_sent_only && sync_not_sent(e, dst))
		return;
	if (dst && dst->st_dev == e->st.st_dev && dst->st_ino == e->st.st_ino) {
		sync_removal_refused(s, sync_relname(s, rel));
		return;
	}
	if (sync_removal_keep(s, "", rel, "", &e->st) < 0)
		report_error(s, ENOMEM, "[receiver] --remove-source-files: %s", sync_relname(s, rel));
}

static const struct sweep_entry *recv_next(void *arg)
{
	struct receiver *r = arg;
	if (r->failed || r->tree_done || drain(r) < 0)
		return NULL;
	/* a directory's names (--delete) come before it, in frames of their own */
	sb_reset(&r->names);
	r->s->src_names = NULL;
	while (next_frame(r) == 0 && r->m.type == W_NAMES)
		if (sb_add(&r->names, r->m.p, (size_t)(r->m.end - r->m.p)) < 0) {
			bad(r, "more names than memory holds");
			return NULL;
		}
	if (r->w->failed) {
		r->failed = true;
		return NULL;
	}
	if (r->m.type == W_TREE_END) {
		r->tree_done = true;
		if (r->s->remove_source && send_removals(r) < 0)
			r->failed = true;
		return NULL;
	}
	if (r->m.type != W_ENTRY) {
		bad(r, "a frame out of place in a tree");
		return NULL;
	}
	return decode_entry(r) < 0 ? NULL : &r->e;
}

/* The quick check of a local run; and a file to be made again whose bytes
 * the sender did not send (its check saw another destination: it changed
 * while the transfer ran) is left as it is, said, not emptied. */
static enum copy_verdict recv_decide(void *arg, const struct sweep_entry *e, const char *rel,
                                     int pfd, const char *name, const struct stat *dst)
{
	struct receiver *r = arg;
	struct sync *s = r->s;
	if (sync_delete_pass(s, DEL_AFTER) && S_ISDIR(e->st.st_mode) && s->src_names &&
	    late_deletes_keep(&r->late, rel, s->src_names, s->nsrc_names, &e->st.st_mtim) < 0)
		report_error(s, ENOMEM, "[receiver] --delete-after in %s", sync_relname(s, rel));
	enum copy_verdict v = sync_decide(s, e, rel, pfd, name, dst);
	if (v == COPY_MAKE && S_ISREG(e->st.st_mode) && !s->stream_data && !s->dry_run) {
		report_error(s, 0, "[receiver] \"%s\" was not sent: the destination changed "
		             "while the transfer ran", sync_relname(s, rel));
		return COPY_LEAVE;
	}
	return v;
}

static void recv_append_failed(void *arg, const struct sweep_entry *e, const char *rel)
{
	struct receiver *r = arg;
	sync_append_failed(r->s, e, rel);
}

static void recv_backed_up(void *arg, const char *rel)
{
	struct receiver *r = arg;
	backups_said(r->s, rel);
}

static int recv_backup_dir(void *arg)
{
	struct receiver *r = arg;
	return backups_dir(r->s);
}

static void recv_progress(void *arg, uint64_t files, uint64_t bytes, uint64_t known)
{
	struct receiver *r = arg;
	report_progress(r->s, files, bytes, known);
}

static bool recv_linked(void *arg, const struct sweep_entry *e, const char *rel, int pfd,
                        const char *name, const struct stat *dst, bool same,
                        const char *first, const char *elsewhere)
{
	struct receiver *r = arg;
	return sync_linked(r->s, e, rel, pfd, name, dst, same, first, elsewhere);
}

/* Pass over the rest of a tree (not run, or ended early). */
static int skip_tree(struct receiver *r)
{
	while (!r->failed && !r->tree_done)
		recv_next(r);
	return r->failed ? -1 : 0;
}

static void tree_reset(struct receiver *r)
{
	keymap_free(&r->dirs);
	r->nrdirs = 0;
	sb_reset(&r->paths);
	r->root_seen = r->tree_done = r->data_left = false;
}

/* A directory path from the sender: names that valid_name() takes, each
 * followed by one '/' ("" for the tree's top). */
static bool valid_rel(const char *p, size_t n)
{
	while (n) {
		const char *slash = memchr(p, '/', n);
		size_t len = slash ? (size_t)(slash - p) : n;
		if (!valid_name(p, len) || (slash && len + 1 == n))
			return false;
		p += len + !!slash;
		n -= len + !!slash;
	}
	return true;
}

/* --delete-before: the sender's directories, each deleted in as it comes
 * (dfd -1: a tree not placed, passed over). Returns 0 or -1. */
static int recv_predeletes(struct receiver *r, int dfd, const char *name)
{
	struct strbuf rel = STRBUF_INIT;
	sb_reset(&r->names);
	while (!r->failed) {
		if (next_frame(r) < 0) {
			r->failed = true;
		} else if (r->m.type == W_NAMES) {
			if (sb_add(&r->names, r->m.p, (size_t)(r->m.end - r->m.p)) < 0)
				bad(r, "more names than memory holds");
		} else if (r->m.type == W_PREDELETE) {
			if (!wire_get_cstr(&r->m, &rel) || !valid_rel(rel.s, rel.len)) {
				bad(r, "a directory to delete in that is not below the destination");
				break;
			}
			if (dfd >= 0 && index_names(r) < 0)
				r->s->src_names = NULL;
			if (dfd >= 0)
				late_delete_dir(r->s, dfd, name, rel.s, NULL);
			r->s->src_names = NULL;
			sb_reset(&r->names);
		} else if (r->m.type == W_PREDELETE_END) {
			break;
		} else {
			bad(r, "a frame out of place before a tree");
		}
	}
	sb_free(&rel);
	return r->failed ? -1 : 0;
}

static bool predeletes_come(const struct sync *s)
{
	return sync_delete_pass(s, DEL_BEFORE);
}

/* A tree, placed: the manifest of name in dfd, then its entries. */
static int recv_tree(void *arg, struct copy *c, const char *src, int dfd, const char *name,
                     const char *shown)
{
	struct receiver *r = arg;
	if (manifest_send(r->s, r->w, dfd, name) < 0 ||
	    (predeletes_come(r->s) && recv_predeletes(r, dfd, name) < 0)) {
		r->failed = true;
		return -1;
	}
	int ret = copy_stream(c, src, dfd, name, shown, recv_next, r);
	if (skip_tree(r) < 0)
		return -1;
	if (!copy_write_failed(c))
		late_deletes_run(r->s, &r->late, dfd, name);
	return ret;
}

/* The root's name (the last component of the sender's SRC) must be one
 * component where it is used as a name in DEST. */
static bool valid_root(const char *src)
{
	if (sync_is_contents(src))
		return true;
	struct strbuf base = STRBUF_INIT;
	bool ok = sb_last_component(&base, src) == 0 && valid_name(base.s, base.len);
	sb_free(&base);
	return ok;
}

/* A W_TREE frame: placed and received, or passed over. */
static int recv_one(struct receiver *r, struct copy *c, struct sync_dest *d)
{
	uint32_t nsrc = wire_get_u32(&r->m);
	mode_t mode = (mode_t)wire_get_u32(&r->m);
	if (!wire_get_cstr(&r->m, &r->src) || nsrc == 0 || nsrc > INT32_MAX || !valid_root(r->src.s))
		return bad(r, "a tree whose root does not parse");
	/* as many trees as sources were asked for (a pull knows; a push takes
	 * the first tree's word): a second tree where one file was placed
	 * would be placed again, through what the first made */
	if (!r->ntrees)
		r->ntrees = nsrc;
	if (nsrc != r->ntrees || ++r->trees > r->ntrees)
		return bad(r, "more trees than sources");
	if (!r->s->server && !remote_asked_for(r->s, r->src.s))
		return bad(r, "a tree that was not asked for");
	r->s->first_wins = nsrc > 1;
	if (mode == 0) { /* --delete-missing-args: a SRC not there, no body */
		if (!r->s->delete_missing)
			return bad(r, "a tree without a root");
		sync_place_missing(r->s, c, d, r->src.s, (int)nsrc, NULL, NULL);
		return 0;
	}
	tree_reset(r);
	r->root_mode = mode;
	if (sync_place(r->s, c, d, r->src.s, mode, (int)nsrc, recv_tree, r))
		return r->failed ? -1 : 0;
	/* not placed (reported): the sender still waits for a manifest */
	if (manifest_send(r->s, r->w, -1, ".") < 0 ||
	    (predeletes_come(r->s) && recv_predeletes(r, -1, ".") < 0))
		return -1;
	return skip_tree(r);
}

/* --files-from: a W_TREE_AT frame, placed by its path below DEST as a
 * local run places it (files_from.c), or passed over. */
static int recv_at(struct receiver *r, struct copy *c, struct sync_dest *d)
{
	struct sync *s = r->s;
	unsigned flags = wire_get_u8(&r->m);
	mode_t mode = (mode_t)wire_get_u32(&r->m);
	bool ok = wire_get_cstr(&r->m, &r->src) && valid_rel(r->src.s, r->src.len);
	uint32_t again = wire_get_u32(&r->m);
	if (!ok || r->m.bad || (!(flags & FF_ROOT) && !r->src.len) || !s->files_from)
		return bad(r, "a tree whose path does not parse");
	if (mode == 0) { /* --delete-missing-args: a name not there, no body */
		if (!s->delete_missing || (flags & FF_ROOT))
			return bad(r, "a tree without a root");
		s->n.files[K_DIR] += again;
		if (sync_dest_open(s, d)) {
			if (!r->ff_open) {
				ff_dest_init(&r->ff, s, d->dfd, d->dest, d->made);
				r->ff_open = true;
			}
			s->prefix = r->src.s;
			ff_place(&r->ff, c, NULL, r->src.s, false, ff_missing, s);
			s->prefix = "";
		}
		return 0;
	}
	s->n.files[K_DIR] += again;
	s->first_wins = true;
	tree_reset(r);
	r->root_mode = mode;
	/* as the sender set them for this tree, placed or not */
	s->prefix = r->src.s;
	s->cap_depth = flags & FF_ALONE ? 1 : flags & FF_ONE_LEVEL ? 2 : 0;
	s->name_abs = flags & FF_ABS;
	if (sync_dest_open(s, d)) {
		if (!r->ff_open) {
			ff_dest_init(&r->ff, s, d->dfd, d->dest, d->made);
			r->ff_open = true;
		}
		if (ff_place(&r->ff, c, r->src.s, r->src.s, flags & FF_ROOT, recv_tree, r) < 0)
			s->partial = true;
		if (r->failed || r->tree_done) {
			s->prefix = "";
			return r->failed ? -1 : 0;
		}
	}
	/* not placed: the sender still waits for a manifest */
	int ret = manifest_send(s, r->w, -1, ".") < 0 ||
	          (predeletes_come(s) && recv_predeletes(r, -1, ".") < 0) ? -1 : skip_tree(r);
	s->prefix = "";
	return ret;
}

/* --files-from: a directory's source time, set again at the end (below
 * DEST, opened a component at a time, following no link). */
static int recv_dir_time(struct receiver *r)
{
	struct timespec t[2] = { { .tv_nsec = UTIME_OMIT } };
	if (!wire_get_cstr(&r->m, &r->src) || !valid_rel(r->src.s, r->src.len))
		return bad(r, "a directory time whose path does not parse");
	t[1].tv_sec = (time_t)wire_get_u64(&r->m);
	t[1].tv_nsec = (long)wire_get_u32(&r->m);
	if (r->m.bad || t[1].tv_nsec >= 1000000000L)
		return bad(r, "a directory time that does not parse");
	const struct sync *s = r->s;
	bool wanted = s->times && !s->copy.omit_dir_times && !s->dry_run;
	/* set through its parent: a directory that may be gone through but
	 * not read is opened as a path, which futimens() does not take */
	const char *slash = r->src.len ? strrchr(r->src.s, '/') : NULL;
	size_t dirlen = slash ? (size_t)(slash - r->src.s) : 0;
	int pfd = wanted && r->ff_open && r->ff.dfd >= 0
	          ? destdir_walk(r->ff.dfd, r->src.s, dirlen) : -1;
	if (pfd >= 0) {
		utimensat(pfd, !r->src.len ? "." : slash ? slash + 1 : r->src.s, t,
		          AT_SYMLINK_NOFOLLOW);
		close(pfd);
	}
	return 0;
}

static void receiver_free(struct receiver *r)
{
	if (r->scratch >= 0) {
		drop_stand_in(r);
		close(r->scratch);
		rmdir(r->scratch_path);
	}
	keymap_free(&r->dirs);
	free(r->rdirs);
	free(r->name_index);
	late_deletes_free(&r->late);
	if (r->ff_open)
		ff_dest_end(&r->ff);
	sb_free(&r->zbuf);
	sb_free(&r->src);
	sb_free(&r->path);
	sb_free(&r->target);
	sb_free(&r->names);
	sb_free(&r->paths);
	sb_free(&r->standin);
	sb_free(&r->xattrs);
	sb_free(&r->owner);
	keymap_free(&r->ids);
}

int recv_trees(struct sync *s, struct wire *w, const char *dest, unsigned nsrc)
{
	struct receiver r = { .s = s, .w = w, .scratch = -1, .standin_fd = -1, .ntrees = nsrc };
	late_deletes_init(&r.late);
	struct copy_opts o = s->copy;
	o.decide = recv_decide;
	o.linked = recv_linked;
	o.done = s->remove_source ? recv_done : NULL;
	o.append_failed = recv_append_failed;
	o.read_data = recv_read;
	o.walk_error = NULL; /* the sender says its own */
	/* the hooks take the receiver: each passes the sync on */
	o.backup_dir = s->backup && s->backup_dir ? recv_backup_dir : NULL;
	o.backed_up = recv_backed_up;
	o.progress = o.progress ? recv_progress : NULL;
	o.arg = &r;
	s->remote_source = true;
	if (open_scratch(&r) < 0) /* then links and attributes cannot be made */
		report_error(s, errno, "[receiver] cannot make a scratch directory in %s",
		             r.scratch_path);
	struct copy *c = copy_new(&o, s->diag);
	if (!c) {
		report_error(s, ENOMEM, "copy engine");
		return -1;
	}
	sync_signals_copy(c);
	struct sync_dest d = { .dest = dest, .dfd = -2 };
	int ret = 0;
	while (ret == 0) {
		if (next_frame(&r) < 0) {
			ret = -1;
		} else if (r.m.type == W_END) {
			break;
		} else if (r.m.type == W_TREE_AT) {
			ret = recv_at(&r, c, &d);
		} else if (r.m.type == W_DIR_TIME && s->files_from) {
			ret = recv_dir_time(&r);
		} else if (r.m.type != W_TREE) {
			ret = bad(&r, "a frame out of place between trees");
		} else {
			ret = recv_one(&r, c, &d);
		}
	}
	sync_signals_copy(NULL);
	bool ended = sync_write_ended(s, c);
	copy_free(c); /* (its writer may still be renaming into DEST) */
	if (ret == 0 && !ended)
		sync_dest_top(s, &d);
	sync_dest_close(&d);
	receiver_free(&r);
	return ret;
}
