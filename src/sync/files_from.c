/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * files_from.c: --files-from=FILE, as rsync has it: the one SRC is a
 * directory, and each line of FILE a path below it (leading '/' and "./"
 * dropped) to transfer under the same path below DEST (rsync's implied
 * --relative). The directories on the way are made too, as rsync's
 * "implied directories", with their source's attributes but nothing of
 * what they hold; a listed directory is made without what it holds
 * unless -r was given (-a does not imply -r here), or, listed with a
 * trailing slash, with what it holds but not what its directories hold,
 * as rsync sends "dir/". A filter rule that
 * excludes a listed name leaves it out, with its implied directories;
 * the implied directories themselves are not filtered.
 *
 * A name with a ".." component is said and skipped (exit 23): the list
 * must not reach out of SRC, nor put anything outside DEST.
 *
 * Each name is one tree for the copy engine, whose root is the name in
 * its destination directory. The directories' times are set once more
 * at the end, since what was put in them afterwards moved them.
 *
 * The names are gone over once, for a local run and for a sender over a
 * remote shell alike (files_from_each, through struct ff_ops); a tree is
 * placed below DEST by its path the same way by a local run and by a
 * receiver (ff_place).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

/* Add the components of the first len bytes of p to names, cleaned:
 * without empty ones and ".", and ".." taking the one before it away (one
 * with none before it is dropped), as rsync's clean_fname() collapses
 * them, so that no name leaves the source directory ("sub/../a" is "a",
 * "../list" is "list") */
static int add_clean(struct strbuf *names, const char *p, size_t len)
{
	size_t start = names->len;
	for (const char *end = p + len; p < end;) {
		while (p < end && *p == '/')
			p++;
		size_t n = strcspn(p, "/");
		n = n < (size_t)(end - p) ? n : (size_t)(end - p);
		bool dot = n == 1 && p[0] == '.', dotdot = n == 2 && p[0] == '.' && p[1] == '.';
		if (dotdot) {
			while (names->len > start && names->s[names->len - 1] != '/')
				names->len--;
			if (names->len > start)
				names->len--; /* (the slash before it) */
			names->s[names->len] = '\0';
		} else if (n && !dot && ((names->len > start && sb_addc(names, '/') < 0) ||
		                         sb_add(names, p, n) < 0)) {
			return -1;
		}
		p += n;
	}
	return sb_addc(names, '\0');
}

/* The flags of a kept name. */
#define NAME_DOT 1   /* it starts with "./": the source directory itself
                        is sent too */
#define NAME_SLASH 2 /* it ends with '/' (or "/."): a directory's contents */
#define NAME_ABS FILES_FROM_ABS /* -R: an absolute name without "/./" */

/* Keep a listed name as rsync's --relative reads it: its flags (as '0' +
 * NAME_*), the source directory it is in (what comes before a "/./" in
 * it), then its path below that and DEST. */
static int keep_name(void *arg, const char *line)
{
	struct strbuf *names = arg;
	size_t start = names->len;
	while (*line == '/')
		line++;
	const char *mark = strstr(line, "/./");
	size_t n = strlen(line);
	unsigned flags = (strncmp(line, "./", 2) == 0 ? NAME_DOT : 0) |
	                 ((n && line[n - 1] == '/') || (n > 1 && strcmp(line + n - 2, "/.") == 0)
	                  ? NAME_SLASH : 0);
	size_t pre = mark ? (size_t)(mark - line) : 0;
	const char *rest = mark ? mark + 3 : line;
	if (sb_addc(names, (char)('0' + flags)) < 0 || add_clean(names, line, pre) < 0 ||
	    add_clean(names, rest, strlen(rest)) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (names->s[names->len - 2] == '\0')
		names->len = start; /* nothing left of it: the source itself */
	return 0;
}

int files_from_add(struct sync *s, const char *name)
{
	size_t start = s->from_names.len;
	if (keep_name(&s->from_names, name) < 0)
		return -1;
	if (s->from_names.len > start && *name == '/' && !strstr(name, "/./"))
		s->from_names.s[start] = (char)(s->from_names.s[start] + NAME_ABS);
	return 0;
}

int files_from_read(struct sync *s)
{
	if (listfile_read(s->files_from, s->from0, true, keep_name, &s->from_names) == 0)
		return 0;
	fflush(stdout);
	fprintf(stderr, "%s: failed to open files-from file %s: %s\n", s->diag->prog,
	        s->files_from, strerror(errno));
	return -1;
}

void ff_dest_init(struct ff_dest *d, struct sync *s, int dfd, const char *dest, bool made)
{
	*d = (struct ff_dest){ .s = s, .dfd = dfd, .dest = dest, .made = made,
	                       .shown = STRBUF_INIT, .held = STRBUF_INIT };
}

/* Done with a tree's destination directory pfd. Under -H the copy engine
 * links later names of a file to its first through the directory its
 * tree had, until the end: kept open then. */
static void release(struct ff_dest *d, int pfd)
{
	if (!d->s->hard_links || sb_add(&d->held, &pfd, sizeof(pfd)) < 0)
		close(pfd);
}

void ff_dest_end(struct ff_dest *d)
{
	for (size_t i = 0; i + sizeof(int) <= d->held.len; i += sizeof(int)) {
		int fd;
		memcpy(&fd, d->held.s + i, sizeof(fd));
		close(fd);
	}
	sb_free(&d->held);
	sb_free(&d->shown);
}

int ff_place(struct ff_dest *d, struct copy *c, const char *from, const char *path, bool root,
             sync_tree_fn run, void *arg)
{
	struct sync *s = d->s;
	s->tree_no++;
	if (root) {
		s->root_created = d->made;
		int r = run(arg, c, from, d->dfd, ".", d->dest);
		s->root_created = false;
		return r;
	}
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	sb_reset(&d->shown);
	if (sb_printf(&d->shown, "%s/%s", d->dest, path) < 0) {
		report_error(s, ENOMEM, "%s", path);
		return -1;
	}
	int pfd = d->dfd < 0 ? -1 : dirlen ? destdir_walk(d->dfd, path, dirlen) : dup(d->dfd);
	s->root_created = false;
	int r = 0;
	if (pfd >= 0 || s->dry_run)
		r = run(arg, c, from, pfd, slash ? slash + 1 : path, d->shown.s);
	else if (d->dfd >= 0) /* (its directory's failure, if any, was said) */
		report_error(s, errno, "[Receiver] change_dir \"%s/%.*s\" failed", d->dest,
		             (int)dirlen, path);
	if (pfd >= 0)
		release(d, pfd);
	return r;
}

struct run {
	struct sync *s;
	const struct ff_ops *ops;
	const char *src;
	bool root_sent;
	struct strbuf base;       /* the source directory of a name */
	struct strbuf from;
	struct keymap dir_times;  /* a directory sent (dev, ino): its time then */
	struct keymap implied;    /* the implied directories sent, by name */
};

/* Directory times fit a keymap's value as seconds and nanoseconds (those
 * before 1970 or past 2514 are looked at again instead). */
#define NSEC_BITS 30
static bool time_packs(const struct timespec *t)
{
	return t->tv_sec >= 0 && (uint64_t)t->tv_sec < (UINT64_C(1) << (64 - NSEC_BITS));
}

/* The time of the directory at path as it is sent, for touch_up() to give
 * its copy at the end: rsync's list has it as first read, and the run may
 * change it since (--remove-source-files removes what it holds). */
static void note_dir_time(struct run *r, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || !time_packs(&st.st_mtim) ||
	    keymap_get(&r->dir_times, (uint64_t)st.st_dev, (uint64_t)st.st_ino))
		return;
	uint64_t v = (uint64_t)st.st_mtim.tv_sec << NSEC_BITS | (uint64_t)st.st_mtim.tv_nsec;
	keymap_put(&r->dir_times, (uint64_t)st.st_dev, (uint64_t)st.st_ino, v); /* or read again */
}

static struct timespec dir_time_sent(const struct run *r, const struct stat *st)
{
	const uint64_t *v = keymap_get(&r->dir_times, (uint64_t)st->st_dev, (uint64_t)st->st_ino);
	if (!v)
		return st->st_mtim;
	return (struct timespec){ (time_t)(*v >> NSEC_BITS),
		                  (long)(*v & ((UINT64_C(1) << NSEC_BITS) - 1)) };
}

/* Transfer the first len bytes of name (below base), entries as deep as
 * cap and deeper left out (0: none). */
static void transfer(struct run *r, const char *name, size_t len, int cap)
{
	struct sync *s = r->s;
	char *path = strndup(name, len);
	sb_reset(&r->from);
	if (!path || sb_printf(&r->from, "%s/%s", r->base.s, path) < 0) {
		report_error(s, ENOMEM, "%s", name);
		free(path);
		return;
	}
	s->prefix = path;
	s->cap_depth = s->copy.depth_cap = cap;
	note_dir_time(r, r->from.s);
	if (r->ops->tree(r->ops->arg, r->from.s, path, cap, false) < 0)
		s->partial = true;
	s->prefix = "";
	free(path);
}

/* A name's source directory itself, as rsync sends it for "./NAME". */
static void transfer_root(struct run *r)
{
	struct sync *s = r->s;
	if (r->root_sent)
		return;
	r->root_sent = true;
	s->prefix = "";
	s->cap_depth = s->copy.depth_cap = 1;
	note_dir_time(r, r->base.s);
	if (r->ops->tree(r->ops->arg, r->base.s, "", 1, true) < 0)
		s->partial = true;
}

/* Whether the first len bytes of name are a directory of prev's. */
static bool made_before(const char *prev, const char *name, size_t len)
{
	return prev && strncmp(prev, name, len) == 0 && prev[len] == '/';
}

/* Whether the implied directory of name's first len bytes (below base)
 * was sent before, by a name that was not the last: rsync sends it again
 * (counted), but its list holds it once (no second look, no line). */
static bool sent_before(struct run *r, const char *name, size_t len)
{
	char *path = strndup(name, len);
	uint64_t a, b;
	bool seen = false;
	if (path) {
		keymap_str_key(r->base.s, path, &a, &b);
		seen = keymap_get(&r->implied, a, b) != NULL;
		if (!seen)
			keymap_put(&r->implied, a, b, 1); /* (without memory: sent again) */
	}
	free(path);
	return seen;
}

/* Whether prev is in the directory of name's first len bytes. */
static bool same_dir(const char *prev, const char *name, size_t len)
{
	const char *slash = prev ? strrchr(prev, '/') : NULL;
	return slash && (size_t)(slash - prev) == len && strncmp(prev, name, len) == 0;
}

/* A listed name (flags: NAME_*): its implied directories (those the name
 * before it did not have), then itself. */
static bool one_name(struct run *r, unsigned flags, const char *name, const char *prev)
{
	struct sync *s = r->s;
	struct stat st;
	bool missing = false;
	s->name_abs = flags & NAME_ABS;
	sb_reset(&r->from);
	if (sb_printf(&r->from, "%s/%s", r->base.s, name) < 0 || lstat(r->from.s, &st) < 0) {
		/* --delete-missing-args: in rsync's list, its directories too
		 * (the receiver's rules say whether its copy goes) */
		int err = errno;
		if (!(s->delete_missing && sync_missing_ok(s, name, err) && r->ops->missing)) {
			link_stat_failed(s, r->from.s, err);
			return false;
		}
		missing = true;
	} else if (filter_excluded(s, name, S_ISDIR(st.st_mode))) {
		return false;
	}
	if (flags & NAME_DOT)
		transfer_root(r);
	const char *last = strrchr(name, '/');
	for (const char *p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		if (!made_before(prev, name, (size_t)(p - name)) &&
		    !sent_before(r, name, (size_t)(p - name)))
			transfer(r, name, (size_t)(p - name), 1);
		else if (!same_dir(prev, name, (size_t)(last - name)))
			r->ops->dir_again(r->ops->arg); /* rsync sends it again */
	}
	if (missing) {
		s->prefix = name;
		r->ops->missing(r->ops->arg, name);
		s->prefix = "";
		return true;
	}
	int cap = !S_ISDIR(st.st_mode) ? 1 : s->recursive ? 0 : flags & NAME_SLASH ? 2 : 1;
	transfer(r, name, strlen(name), cap);
	return true;
}

/* The source's time again on every directory of name, and on name if it
 * is one (in base), and on DEST itself when it was sent. */
static bool touch_up(struct run *r, unsigned flags, const char *name, const char *prev)
{
	(void)prev;
	bool dot = flags & NAME_DOT;
	struct stat st;
	size_t len = strlen(name);
	for (size_t n = dot ? 0 : 1; n <= len; n++) {
		if (n && name[n] != '/' && name[n] != '\0')
			continue;
		char *path = strndup(name, n);
		sb_reset(&r->from);
		if (path && sb_printf(&r->from, "%s%s%s", r->base.s, n ? "/" : "", path) == 0 &&
		    lstat(r->from.s, &st) == 0 && S_ISDIR(st.st_mode)) {
			struct timespec t = dir_time_sent(r, &st);
			r->ops->dir_time(r->ops->arg, path, &t);
		}
		free(path);
	}
	return true;
}

bool sync_has_dotdot(const char *path)
{
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return true;
	return false;
}

/* Each listed name to fn, with its source directory in r->base; a name
 * that leaves SRC never (said when first is true: the first pass). fn
 * says whether the name was sent (its directories with it). */
static void each_name(struct run *r,
                      bool (*fn)(struct run *, unsigned, const char *, const char *), bool first)
{
	const char *p = r->s->from_names.s, *end = p + r->s->from_names.len, *prev = NULL;
	while (p && p < end) {
		unsigned flags = (unsigned)(*p++ - '0');
		const char *pre = p, *name = pre + strlen(pre) + 1;
		p = name + strlen(name) + 1;
		if (sync_has_dotdot(pre) || sync_has_dotdot(name)) {
			if (first)
				report_error(r->s, 0, "skipping \"%s%s%s\": a --files-from name may not "
				             "leave the source directory", pre, *pre ? "/" : "", name);
			continue;
		}
		sb_reset(&r->base);
		if ((*pre ? sb_printf(&r->base, "%s/%s", r->src, pre) : sb_addstr(&r->base, r->src)) < 0)
			report_error(r->s, ENOMEM, "%s", name);
		/* rsync compares a name's directories with the last name's sent
		 * that had any: "a/b", "f", "a/c" sends "a" once */
		else if (fn(r, flags, name, prev) && strchr(name, '/'))
			prev = name;
	}
}

void files_from_each(struct sync *s, const char *src, const struct ff_ops *ops)
{
	struct run r = { .s = s, .ops = ops, .src = src, .base = STRBUF_INIT, .from = STRBUF_INIT,
		         .dir_times = KEYMAP_INIT, .implied = KEYMAP_INIT };
	each_name(&r, one_name, true);
	if (s->times && !s->copy.omit_dir_times && !s->dry_run)
		each_name(&r, touch_up, false);
	sb_free(&r.base);
	sb_free(&r.from);
	keymap_free(&r.dir_times);
	keymap_free(&r.implied);
}

/* A local run's trees, and times, in DEST. */
struct local {
	struct ff_dest d;
	struct copy *c;
};

static int local_copy(void *arg, struct copy *c, const char *src, int dfd, const char *name,
                      const char *shown)
{
	if (copy_write_failed(c)) /* the run ends (sync_write_ended) */
		return 0;
	(void)arg;
	return copy_tree(c, src, dfd, name, shown);
}

static int local_tree(void *arg, const char *from, const char *path, int cap, bool root)
{
	(void)cap;
	struct local *l = arg;
	return ff_place(&l->d, l->c, from, path, root, local_copy, l->d.s);
}

int ff_missing(void *arg, struct copy *c, const char *src, int dfd, const char *name,
               const char *shown)
{
	(void)c, (void)src, (void)shown;
	struct sync *s = arg;
	delete_missing(s, dfd, name, s->prefix);
	return 0;
}

static void local_missing(void *arg, const char *path)
{
	struct local *l = arg;
	ff_place(&l->d, l->c, NULL, path, false, ff_missing, l->d.s);
}

static void local_dir_again(void *arg)
{
	struct local *l = arg;
	l->d.s->n.files[K_DIR]++; /* for --stats */
}

static void local_dir_time(void *arg, const char *path, const struct timespec *mtime)
{
	struct local *l = arg;
	struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, *mtime };
	if (l->d.dfd >= 0)
		utimensat(l->d.dfd, *path ? path : ".", times, AT_SYMLINK_NOFOLLOW);
}

void files_from_run(struct sync *s, struct copy *c, const char *src, int dfd,
                    const char *dest, bool made)
{
	struct local l = { .c = c };
	ff_dest_init(&l.d, s, dfd, dest, made);
	const struct ff_ops ops = { local_tree, local_dir_again, local_dir_time, local_missing, &l };
	files_from_each(s, src, &ops);
	ff_dest_end(&l.d);
}
