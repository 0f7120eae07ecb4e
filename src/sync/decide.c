/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * decide.c: rsync's quick check, as the copy engine's decide hook: for
 * every entry the walk meets, whether it is left out (a filter rule, a
 * kind the options do not transfer, --existing, --ignore-existing, -u),
 * new or changed (made again), or unchanged (left alone, but for the
 * attributes that differ). A regular file is unchanged when its size and
 * modification time (to the second, as rsync compares them) are the
 * destination's; with --size-only its size alone; with -c its size and
 * bytes. What is decided is counted for --stats and shown by -v and -i
 * here, before the engine does it, as rsync shows it before it transfers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"
#include "sweep.h"

enum sync_kind sync_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return K_REG;
	if (S_ISDIR(mode))
		return K_DIR;
	if (S_ISLNK(mode))
		return K_LINK;
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return K_DEV;
	return K_SPECIAL;
}

const char *sync_relname(struct sync *s, const char *rel)
{
	sb_reset(&s->name);
	if (!*s->prefix)
		sb_addstr(&s->name, *rel ? rel : ".");
	else if (!*rel)
		sb_addstr(&s->name, s->prefix);
	else
		sb_printf(&s->name, "%s/%s", s->prefix, rel);
	return sb_str(&s->name);
}

/* Whether the files open at a and b hold the same bytes. */
static int same_bytes(int a, int b)
{
	char x[65536], y[65536];
	for (;;) {
		ssize_t n = read(a, x, sizeof(x));
		if (n < 0)
			return -1;
		ssize_t got = 0;
		while (got < n) {
			ssize_t m = read(b, y + got, (size_t)(n - got));
			if (m <= 0)
				return m < 0 ? -1 : 0;
			got += m;
		}
		if (n == 0)
			return read(b, y, 1) == 0;
		if (memcmp(x, y, (size_t)n) != 0)
			return 0;
	}
}

/* -c: whether the source and destination files differ in their bytes. */
bool sync_bytes_differ(struct sync *s, const struct sweep_entry *e, int pfd, const char *name)
{
	/* over a remote shell each end has one file: the sender compared sums
	 * (against the manifest's) and sent the bytes only when they differ */
	if (s->remote_source)
		return s->stream_data;
	if (s->sender_side)
		return s->sum_differs;
	int a = sync_open_read(e->dirfd, e->name, O_RDONLY | O_CLOEXEC | O_NOCTTY, &e->st);
	int b = sync_open_read(pfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, NULL);
	int r = a >= 0 && b >= 0 ? same_bytes(a, b) : -1;
	if (r < 0)
		report_error(s, errno, "checksum of \"%s\" failed", e->path);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	return r != 1;
}

/* A symbolic link's target, into sb; false when it cannot be read. */
bool sync_read_link(struct strbuf *sb, int dirfd, const char *name, off_t size)
{
	size_t n = size > 0 ? (size_t)size + 1 : 256;
	sb_reset(sb);
	if (sb_reserve(sb, n) < 0)
		return false;
	ssize_t r = readlinkat(dirfd, name, sb->s, n);
	if (r < 0 || (size_t)r >= n)
		return false;
	sb->s[r] = 0;
	sb->len = (size_t)r;
	return true;
}

int sync_cmp_mtime(const struct sync *s, const struct timespec *a, const struct timespec *b)
{
	return copy_cmp_mtime(a, b, s->copy.mtime_window);
}

/* -u: whether the copy's time a is newer than the source's b, by more than
 * the window; in whole seconds whatever the window (rsync's -u under -@-1
 * sends a copy newer by a fraction of a second) */
static bool sync_newer(const struct sync *s, const struct timespec *a, const struct timespec *b)
{
	int w = s->copy.mtime_window;
	return copy_cmp_mtime(a, b, w < 0 ? 0 : w) > 0;
}

/* Whether this process may give a file the group gid: its own, or one of
 * its supplementary groups. */
bool sync_in_group(gid_t gid)
{
	if (getegid() == gid)
		return true;
	gid_t v[256];
	int n = getgroups(256, v);
	for (int i = 0; i < n; i++)
		if (v[i] == gid)
			return true;
	return false;
}

/* rsync's attribute letters (positions 4-7: time, perms, owner, group) of
 * what differs between dst and the source st, into code. */
bool sync_attr_letters(const struct sync *s, const struct stat *st, const struct stat *dst,
                         char *code)
{
	bool any = false;
	bool link = S_ISLNK(st->st_mode);
	if (s->times && !(s->copy.omit_dir_times && S_ISDIR(st->st_mode)) &&
	    sync_cmp_mtime(s, &dst->st_mtim, &st->st_mtim) != 0)
		code[4] = 't', any = true;
	if (s->perms && !link && (dst->st_mode & 07777) != (st->st_mode & 07777))
		code[5] = 'p', any = true;
	/* (-o is root's: a user's run changes no owner, and says none) */
	if (s->owner && !s->copy.no_uid && dst->st_uid != st->st_uid)
		code[6] = 'o', any = true;
	/* (and a user's run sets only a group the user is in, and says no
	 * other, as rsync's) */
	if (s->group && dst->st_gid != st->st_gid && (s->root || sync_in_group(st->st_gid)))
		code[7] = 'g', any = true;
	return any;
}

/* -A / -X: rsync's letters 'a' and 'x' (positions 9, 10) where the copy's
 * ACLs or other attributes differ from the source's (the copy engine then
 * gives it the source's own set). A regular file or a directory only (a
 * fifo's or a device's attributes are not compared). On the receiving end
 * of a remote shell, e is the stand-in that holds the attributes the
 * sender sent (recv.c). (name may be a path below pfd.) */
bool sync_xattr_letters(const struct sync *s, const struct sweep_entry *e, int pfd,
                        const char *name, char *code)
{
	if (!(s->acls || s->xattrs) || s->sender_side ||
	    !(S_ISREG(e->st.st_mode) || S_ISDIR(e->st.st_mode)))
		return false;
	int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	int a = openat(e->dirfd, e->name, flags), b = openat(pfd, name, flags);
	unsigned d = a >= 0 && b >= 0 ? copy_xattrs_differ(&s->copy, a, b) : 0;
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	if (d & COPY_XATTR_ACL)
		code[9] = 'a';
	if (d & COPY_XATTR_OTHER)
		code[10] = 'x';
	return d != 0;
}

/* Whether a line of an up-to-date entry may be shown or logged: else its
 * attributes' letters are not looked for (the copy engine sets what
 * differs all the same). */
static bool letters_wanted(const struct sync *s)
{
	return report_itemized(s) || s->info[INFO_NAME] >= 1 || s->out_format || s->log_path || s->log;
}

/* --safe-links: whether the link at below (its path below the tree's
 * top; rel as shown) points out of the tree, as rsync judges it: an
 * absolute or empty target, one whose ".." climb above the top, counted
 * from the link's directory, or with a ".." after another component (one
 * that ends in "/.." too). Said under -v as
 * rsync says it. */
static bool unsafe_link(struct sync *s, const struct sweep_entry *e, const char *below,
                        const char *rel)
{
	if (!sync_read_link(&s->name2, e->dirfd, e->name, e->st.st_size))
		return false;
	const char *t = s->name2.s;
	long depth = 0;
	for (const char *p = below; (p = strchr(p, '/')) != NULL; p++)
		depth++;
	/* rsync's reading: the last component counts only as "..", which
	 * after a '/' makes the link unsafe wherever it lands */
	const char *last = strrchr(t, '/');
	bool unsafe = *t == '/' || !*t || (last && strcmp(last + 1, "..") == 0);
	const char *end = last ? last : t;
	bool named = false; /* a component before that is not ".." */
	for (const char *p = t; !unsafe && p < end; p += *p == '/') {
		size_t n = strcspn(p, "/");
		/* ".." after anything else (rsync 3.4's mend of CVE-2024-12088:
		 * "d/../..", where d is itself a link, climbs out unseen) */
		if (n == 2 && p[0] == '.' && p[1] == '.')
			unsafe = named || --depth < 0;
		else if (n)
			named = true, depth += !(n == 1 && *p == '.');
		p += n;
	}
	if (!last && strcmp(t, "..") == 0)
		unsafe = --depth < 0;
	/* (NAME's, as rsync's receiver says it: SYMSAFE is its sender's) */
	if (unsafe && s->info[INFO_NAME] >= 1 && !s->sender_side) {
		printf("ignoring unsafe symlink \"");
		report_name(s, stdout, rel);
		printf("\" -> \"");
		report_name(s, stdout, t);
		printf("\"\n");
	}
	return unsafe;
}

/* Whether the options transfer this kind at all (else said, and left). */
static bool kind_wanted(struct sync *s, const struct sweep_entry *e, const char *rel)
{
	mode_t m = e->st.st_mode;
	/* --files-from: a listed directory is made, without -r empty (with
	 * its entries, "dir/": its directories too, empty) */
	if (S_ISDIR(m) && !s->recursive && !(s->files_from && e->depth < s->cap_depth)) {
		/* rsync names the one it was given ("." for SRC/) */
		if (e->depth == 0 && !s->quiet && !s->sender_side) {
			printf("skipping directory ");
			report_name(s, stdout, *rel ? rel : ".");
			printf("\n");
		}
		return false;
	}
	/* devices are made by root only: rsync's receiver skips them else
	 * (a sender sends them for a receiver to judge) */
	bool devices = s->devices && (s->sender_side || s->root);
	bool ok = S_ISLNK(m) ? s->links : S_ISCHR(m) || S_ISBLK(m) ? devices
	          : S_ISFIFO(m) || S_ISSOCK(m) ? s->specials : true;
	if (ok)
		return true;
	if (s->info[INFO_NONREG] >= 1 && !s->sender_side) {
		printf("skipping non-regular file \"");
		report_name(s, stdout, rel);
		printf("\"\n");
	}
	return false;
}

/* A regular file of a local run that its data phase will not open: no -i
 * line for it, as rsync's sender skips it before it says anything (the
 * failure is said when it is read). */
static bool unreadable(const struct sync *s, const struct sweep_entry *e)
{
	/* (a system call a file: only where a line or --stats would count it) */
	bool counted = s->stats || (!s->quiet && (s->itemize || s->info[INFO_NAME] >= 1 ||
	                                          s->out_format));
	return counted && !s->root && !s->remote_source && !s->sender_side && !s->dry_run &&
	       faccessat(e->dirfd, e->name, R_OK, AT_EACCESS) < 0 && errno == EACCES;
}

/* A new entry (or one of another kind than its destination). */
static enum copy_verdict decide_new(struct sync *s, const struct sweep_entry *e, const char *rel,
                                    bool exists, int pfd, const char *name)
{
	static const char *const codes[K_NKINDS] = {
		">f+++++++++", "cd+++++++++", "cL+++++++++", "cD+++++++++", "cS+++++++++",
	};
	enum sync_kind k = sync_kind(e->st.st_mode);
	const char *target = NULL;
	if (!exists && s->existing)
		return COPY_LEAVE;
	if (k == K_LINK && sync_read_link(&s->name2, e->dirfd, e->name, e->st.st_size))
		target = s->name2.s;
	if (k == K_REG && unreadable(s, e))
		return COPY_MAKE;
	s->n.created[k]++;
	if (k == K_REG) {
		s->n.transferred++;
		s->n.transferred_size += (uint64_t)e->st.st_size;
	}
	(void)pfd;
	(void)name;
	report_item(s, codes[k], rel, k == K_DIR, target);
	return COPY_MAKE;
}

/* -ii, or -i with NAME2 (-vv): an entry found as it should be, said too,
 * as rsync says it (its kind's letter, and blanks for the rest); NAME2
 * without -i: "NAME is uptodate", but for a directory */
static void report_unchanged(struct sync *s, char kind, const char *rel, bool dir,
                             const char *target)
{
	char code[12] = ".          ";
	code[1] = kind;
	bool name2 = s->info[INFO_NAME] >= 2 && !s->sender_side;
	if (s->itemize_all || (name2 && report_itemized(s)))
		report_item(s, code, rel, dir, target);
	else if (name2 && !dir) {
		report_name(s, stdout, rel);
		puts(" is uptodate");
	}
}

/* --inplace: a copy of several names (hard links in DEST) as it was
 * before the run wrote into it under one of them, which rsync, deciding
 * every file before it writes any, compares the others with; else dst. */
static const struct stat *as_found(const struct sync *s, const struct stat *dst)
{
	uint64_t *v = s->inplace && dst->st_nlink > 1 ?
	              keymap_get(&s->inplace_found, dst->st_dev, dst->st_ino) : NULL;
	return v ? &s->inplace_stats[*v] : dst;
}

static void remember_found(struct sync *s, const struct stat *dst)
{
	if (!s->inplace || dst->st_nlink < 2 || keymap_get(&s->inplace_found, dst->st_dev, dst->st_ino))
		return;
	if (s->ninplace_stats == s->capinplace_stats) {
		size_t cap = s->capinplace_stats ? 2 * s->capinplace_stats : 16;
		struct stat *v = reallocarray(s->inplace_stats, cap, sizeof(*v));
		if (!v)
			return; /* (without memory: as before) */
		s->inplace_stats = v;
		s->capinplace_stats = cap;
	}
	s->inplace_stats[s->ninplace_stats] = *dst;
	if (keymap_put(&s->inplace_found, dst->st_dev, dst->st_ino, s->ninplace_stats) == 0)
		s->ninplace_stats++;
}

static enum copy_verdict decide_regular(struct sync *s, const struct sweep_entry *e,
                                        const char *rel, int pfd, const char *name,
                                        const struct stat *dst)
{
	const struct stat *st = &e->st;
	dst = as_found(s, dst);
	if (s->ignore_existing)
		return COPY_LEAVE;
	if (s->update && sync_newer(s, &dst->st_mtim, &st->st_mtim))
		return COPY_LEAVE;
	char code[12] = ">f.........";
	bool size = dst->st_size != st->st_size;
	bool time = sync_cmp_mtime(s, &dst->st_mtim, &st->st_mtim) != 0;
	/* (-I: the time is never the same; -c and --size-only still judge) */
	bool changed = size || (!s->size_only && !s->checksum && (time || s->ignore_times));
	if (s->checksum && (size || sync_bytes_differ(s, e, pfd, name))) {
		changed = true;
		code[2] = 'c';
	}
	if (size)
		code[3] = 's';
	bool attrs = sync_attr_letters(s, st, dst, code);
	if (changed && !s->times) /* the time it is written, whatever it was */
		code[4] = 'T';
	if (changed && unreadable(s, e))
		return COPY_MAKE;
	/* --append: a changed copy not shorter is left as it is, whatever it
	 * holds (an unchanged one gets its attributes, as any) */
	if (changed && s->append && dst->st_size >= st->st_size)
		return COPY_LEAVE;
	if (changed)
		remember_found(s, dst);
	if (changed) {
		s->n.transferred++;
		s->n.transferred_size += (uint64_t)st->st_size;
		if (s->append) /* (its bytes are the copy's already) */
			s->n.not_sent += (uint64_t)dst->st_size;
		/* (the old copy's ACLs and attributes, as rsync's letters) */
		if (letters_wanted(s))
			(void)sync_xattr_letters(s, e, pfd, name, code);
		report_item(s, code, rel, false, NULL);
		return COPY_MAKE;
	}
	code[0] = '.';
	if (letters_wanted(s) && sync_xattr_letters(s, e, pfd, name, code))
		attrs = true;
	/* a file's ACL carries its permission bits (the group's its mask):
	 * rsync sets them with it, and says 'a' alone; not a set-id or
	 * sticky bit, which no ACL holds */
	if (code[9] == 'a' && !((dst->st_mode ^ st->st_mode) & 07000))
		code[5] = '.';
	if (attrs)
		report_item(s, code, rel, false, NULL);
	else
		report_unchanged(s, 'f', rel, false, NULL);
	return COPY_KEEP;
}

/* An entry whose destination exists, of the same kind. */
static enum copy_verdict decide_existing(struct sync *s, const struct sweep_entry *e,
                                         const char *rel, int pfd, const char *name,
                                         const struct stat *dst)
{
	static const char kinds[K_NKINDS] = { 'f', 'd', 'L', 'D', 'S' };
	enum sync_kind k = sync_kind(e->st.st_mode);
	if (k == K_REG)
		return decide_regular(s, e, rel, pfd, name, dst);
	/* (--files-from has no pass of its own: its deletions come here) */
	bool during = s->delete_when == DEL_DURING || s->files_from;
	/* -x: a mount point is sent as a directory, its contents are not:
	 * what its copy holds is not compared with them (the walk marks it
	 * only after this look) */
	if (k == K_DIR && s->delete && during && sync_contents_sent(s, e) && !s->sender_side &&
	    !(s->one_fs && e->st.st_dev != s->src_dev))
		delete_extraneous(s, e->dirfd, e->name, pfd, name, rel);
	if (k != K_DIR && s->ignore_existing)
		return COPY_LEAVE;
	char code[12] = "...........";
	code[1] = kinds[k];
	const char *target = NULL;
	bool changed = false;
	if (k == K_LINK) {
		struct strbuf old = STRBUF_INIT;
		bool a = sync_read_link(&s->name2, e->dirfd, e->name, e->st.st_size);
		bool b = sync_read_link(&old, pfd, name, dst->st_size);
		changed = !a || !b || strcmp(s->name2.s, old.s) != 0;
		target = a ? s->name2.s : NULL;
		sb_free(&old);
		if (changed)
			code[0] = 'c', code[2] = 'c';
	} else if (k == K_DEV) {
		/* (rsync's 'c': the value, here the device number, changed) */
		changed = dst->st_rdev != e->st.st_rdev;
		if (changed)
			code[0] = 'c', code[2] = 'c';
	}
	bool attrs = sync_attr_letters(s, &e->st, dst, code);
	if (k == K_DIR && letters_wanted(s) && sync_xattr_letters(s, e, pfd, name, code))
		attrs = true;
	if (k == K_DIR && s->root_created && e->depth == 0) {
		memcpy(code, "cd+++++++++", 11); /* made by operands.c, for rsync */
		attrs = true;
		s->n.created[K_DIR]++;
	}
	if (changed || attrs)
		report_item(s, code, rel, k == K_DIR, target);
	else
		report_unchanged(s, kinds[k], rel, k == K_DIR, target);
	return changed ? COPY_MAKE : COPY_KEEP;
}

/* -L: a link that leads nowhere, said as rsync says it (and not sent).
 * Over a remote shell the sender said it: the receiver leaves it alone. */
static enum copy_verdict no_referent(struct sync *s, const struct sweep_entry *e)
{
	s->io_error = true; /* as rsync: what it leads to may be DEST's, no deletion */
	if (s->remote_source)
		return COPY_LEAVE;
	char *cwd = e->path[0] == '/' ? NULL : getcwd(NULL, 0);
	fflush(stdout);
	fprintf(stderr, "symlink has no referent: \"%s%s", cwd ? cwd : "", cwd ? "/" : "");
	report_name(s, stderr, e->path);
	fprintf(stderr, "\"\n");
	free(cwd);
	s->partial = true;
	return COPY_LEAVE;
}

static enum copy_verdict decide_entry(struct sync *s, const struct sweep_entry *e,
                                      const char *rel_below, int pfd, const char *name,
                                      const struct stat *dst)
{
	const char *rel = sync_relname(s, rel_below);
	bool dir = S_ISDIR(e->st.st_mode);
	if (s->timeout)
		sync_alive(s);
	if (e->depth == 0)
		s->src_dev = e->st.st_dev;
	if (e->depth == 0 && dir && !*s->prefix && !s->files_from) {
		/* the first SRC/ is rsync's "."; a later one's is dropped from
		 * its list: nothing said, DEST's own given back at the end */
		if (s->dest_top_set && !s->sender_side)
			return COPY_KEEP;
		s->dest_top = e->st;
		s->dest_top_set = true;
		s->dest_top_made = s->root_created;
	}
	if (sync_mount_point(s, &e->st, e->depth))
		return COPY_LEAVE; /* -xx: not even an empty directory */
	bool root_contents = e->depth == 0 && !*s->prefix;
	if (s->cap_depth && e->depth >= s->cap_depth)
		return COPY_LEAVE;
	/* --files-from filters a listed name itself, never its implied
	 * directories (files_from.c) */
	bool filtered = !root_contents && !(s->files_from && e->depth == 0);
	if (filtered && sender_hides(s, rel, &e->st, e->depth))
		return COPY_LEAVE;
	/* -L: a link still a link leads nowhere, whether links are sent or
	 * not (rsync says so before it looks at -l) */
	if (s->copy_links && S_ISLNK(e->st.st_mode))
		return no_referent(s, e);
	/* a kind not sent is in rsync's list all the same, so counted (its
	 * receiver skips it); a directory without -r is not */
	bool wanted = kind_wanted(s, e, rel);
	if (!wanted && S_ISDIR(e->st.st_mode))
		return COPY_LEAVE;
	enum sync_kind k = sync_kind(e->st.st_mode);
	s->n.files[k]++;
	if (k == K_REG || k == K_LINK)
		s->n.total_size += (uint64_t)e->st.st_size;
	if (!wanted)
		return COPY_LEAVE;
	if (k == K_REG && limits_size_skips(s, &e->st, rel))
		return COPY_LEAVE;
	/* (in rsync's list, so counted, but not made) */
	if (k == K_LINK && s->safe_links && !s->copy_links && unsafe_link(s, e, rel_below, rel))
		return COPY_LEAVE;
	bool is_new = !dst || sync_kind(dst->st_mode) != k ||
	              (k == K_DIR && s->root_created && e->depth == 0);
	/* --ignore-existing: whatever is there stays, of any kind, but a
	 * directory over a directory, whose contents are looked at (rsync
	 * then fails on the contents of a directory that is not one: 23;
	 * here its subtree is left with it; a sender sends the directory
	 * all the same, and the receiver leaves it by this same rule) */
	if (s->ignore_existing && dst && !(k == K_DIR && S_ISDIR(dst->st_mode)))
		return COPY_LEAVE;
	if (s->nlink_dest && !(s->existing && !dst)) {
		/* below DEST: the name it has there (DEST's own, for one file) */
		const char *below = e->depth == 0 && k != K_DIR && !s->files_from ? name : rel;
		enum copy_verdict v;
		if (is_new && linkdest_new(s, e, rel, below, pfd, name, dst, &v))
			return v;
		/* (-u: a newer copy is left before DIR is looked at, as in rsync) */
		if (!is_new && k == K_REG && !s->ignore_existing &&
		    !(s->update && sync_newer(s, &dst->st_mtim, &e->st.st_mtim)) &&
		    linkdest_existing(s, e, below, pfd, name, dst, &v))
			return v;
	}
	if (is_new && dst && sync_kind(dst->st_mode) == k)
		return decide_existing(s, e, rel, pfd, name, dst);
	/* a directory where something else goes: out of the way first */
	if (is_new && dst && S_ISDIR(dst->st_mode) && k != K_DIR && pfd >= 0 &&
	    !delete_make_way(s, pfd, name, dst, rel, e->st.st_mode))
		return COPY_LEAVE;
	if (is_new)
		return decide_new(s, e, rel, dst != NULL, pfd, name);
	return decide_existing(s, e, rel, pfd, name, dst);
}

/* The entry whose lines are being said (--out-format's %l, %f...). */
static void item_begin(struct sync *s, const struct sweep_entry *e)
{
	s->item_st = &e->st;
	s->item_source = e->path;
}

static void item_end(struct sync *s)
{
	s->item_st = NULL;
	s->item_source = NULL;
}

void sync_append_failed(void *arg, const struct sweep_entry *e, const char *rel_below)
{
	struct sync *s = arg;
	const char *rel = sync_relname(s, rel_below);
	if (s->info[INFO_NAME] >= 1 || s->itemize) { /* rsync's: said with the names only */
		fflush(stdout);
		fputs("WARNING: ", stderr);
		report_name(s, stderr, rel);
		fputs(" failed verification -- update retained (will try again).\n", stderr);
	}
	/* rsync's second look, another transfer: the size is the source's
	 * now, the time not (its figures of matched data, rsync's delta
	 * transfer's, are not kept: a redo here is all literal) */
	s->n.transferred++;
	s->n.transferred_size += (uint64_t)e->st.st_size;
	item_begin(s, e);
	report_item(s, s->times ? ">f..t......" : ">f.........", rel, false, NULL);
	item_end(s);
}

#define NAME_DIR (UINT64_C(1) << 63) /* first_names: a directory's */

/* Several SRCs (or --files-from's names): whether this name below DEST
 * came in an earlier one, as rsync's list keeps one entry a name: then
 * it is left out, in silence. Directories merge, and one wins over a
 * file, before or after it (a file's copy made before is replaced, and
 * its source is not removed: sync_name_now_dir()); of two files the
 * first wins (a later one written over it would lose the first's data,
 * and under --remove-source-files its source with it). */
static bool named_before(struct sync *s, const struct sweep_entry *e, const char *rel_below)
{
	if (!s->first_wins)
		return false;
	bool dir = S_ISDIR(e->st.st_mode);
	uint64_t a, b;
	keymap_str_key(sync_relname(s, rel_below), "", &a, &b);
	uint64_t *v = keymap_get(&s->first_names, a, b);
	if (!v) {
		keymap_put(&s->first_names, a, b, s->tree_no | (dir ? NAME_DIR : 0));
		return false; /* (without memory: as before) */
	}
	bool was_dir = *v & NAME_DIR;
	if ((*v & ~NAME_DIR) == s->tree_no || (dir && was_dir))
		return false; /* its own tree's again (a sender decides twice) */
	if (dir)
		*v = s->tree_no | NAME_DIR;
	return !dir;
}

bool sync_name_now_dir(struct sync *s, const char *shown)
{
	uint64_t a, b;
	keymap_str_key(shown, "", &a, &b);
	const uint64_t *v = s->first_wins ? keymap_get(&s->first_names, a, b) : NULL;
	return v && (*v & NAME_DIR);
}

/* Whether the rules leave e out (decide_entry() says so then): such a name
 * takes no place in rsync's list, so another SRC's of that name is sent. */
static bool rules_leave_out(struct sync *s, const struct sweep_entry *e, const char *rel_below)
{
	if (!s->first_wins || !s->nrules || (e->depth == 0 && (!*s->prefix || s->files_from)))
		return false;
	return filter_excluded(s, sync_relname(s, rel_below), S_ISDIR(e->st.st_mode));
}

enum copy_verdict sync_decide(void *arg, const struct sweep_entry *e, const char *rel_below,
                              int pfd, const char *name, const struct stat *dst)
{
	struct sync *s = arg;
	if (!rules_leave_out(s, e, rel_below) && named_before(s, e, rel_below)) {
		/* (counted: rsync's figures are its list's before it keeps one) */
		enum sync_kind k = sync_kind(e->st.st_mode);
		s->n.files[k]++;
		if (k == K_REG || k == K_LINK)
			s->n.total_size += (uint64_t)e->st.st_size;
		return COPY_LEAVE;
	}
	item_begin(s, e);
	enum copy_verdict v = decide_entry(s, e, rel_below, pfd, name, dst);
	item_end(s);
	return v;
}

static bool linked(struct sync *s, const struct sweep_entry *e, const char *rel_below,
                   int pfd, const char *name, const struct stat *dst, bool same,
                   const char *first_below, const char *elsewhere);

bool sync_linked(void *arg, const struct sweep_entry *e, const char *rel_below, int pfd,
                 const char *name, const struct stat *dst, bool same,
                 const char *first_below, const char *elsewhere)
{
	struct sync *s = arg;
	if (named_before(s, e, rel_below))
		return false;
	item_begin(s, e);
	bool r = linked(s, e, rel_below, pfd, name, dst, same, first_below, elsewhere);
	item_end(s);
	return r;
}

static bool linked(struct sync *s, const struct sweep_entry *e, const char *rel_below,
                   int pfd, const char *name, const struct stat *dst, bool same,
                   const char *first_below, const char *elsewhere)
{
	/* a name linked now shows its first, "name => first", as rsync shows
	 * it (one another SRC brought too) */
	const char *first = NULL;
	if (first_below || elsewhere) {
		sb_reset(&s->name2);
		sb_addstr(&s->name2, first_below ? sync_relname(s, first_below) : elsewhere);
		first = sb_str(&s->name2);
	}
	const char *rel = sync_relname(s, rel_below);
	if ((s->cap_depth && e->depth >= s->cap_depth) || filter_excluded(s, rel, false))
		return false;
	s->n.files[K_REG]++;
	s->n.total_size += (uint64_t)e->st.st_size;
	/* what would leave the name alone if it had no other: the copy it
	 * has stays (else linked over, its data lost); -u leaves only a newer
	 * file: another kind is replaced, as rsync replaces it */
	bool is_new = !dst || !S_ISREG(dst->st_mode);
	if (!same && (limits_size_skips(s, &e->st, rel) || (dst && s->ignore_existing) ||
	              (!dst && s->existing) ||
	              (!is_new && s->update && sync_newer(s, &dst->st_mtim, &e->st.st_mtim))))
		return false;
	/* a directory where the name goes: out of the way first, as for a
	 * name of its own (it was said to be overwritten, cp's words) */
	if (!same && dst && S_ISDIR(dst->st_mode) && pfd >= 0 &&
	    !delete_make_way(s, pfd, name, dst, rel, e->st.st_mode))
		return false;
	if (is_new && !(!dst && s->nlink_dest && linkdest_follower(s, e, rel)))
		s->n.created[K_REG]++;
	/* (one there before, another file, is linked over: rsync's blanks) */
	if (!same)
		report_item(s, is_new ? "hf+++++++++" : "hf         ", rel, false, first);
	return true;
}

void sync_vanished(struct sync *s, const char *path, bool dir)
{
	fflush(stdout);
	fprintf(stderr, "%s has vanished: \"", dir ? "directory" : "file");
	report_name(s, stderr, sync_abspath(s, path)); /* (rsync names it whole) */
	fprintf(stderr, "\"\n");
	s->vanished = true;
}

void sync_walk_error(void *arg, const struct sweep_entry *e)
{
	struct sync *s = arg;
	/* gone between its directory's reading and its own look, opening or
	 * reading: vanished (24), as rsync's sender says */
	if (e->error == ENOENT && (e->op == SWEEP_OP_STAT || e->op == SWEEP_OP_OPEN ||
	                           e->op == SWEEP_OP_READDIR)) {
		sync_vanished(s, e->path, e->op == SWEEP_OP_READDIR);
		return;
	}
	if (e->op == SWEEP_OP_OPEN)
		s->io_error_data = true;
	else
		s->io_error = true;
	const char *path = sync_abspath(s, e->path);
	switch (e->op) {
	case SWEEP_OP_READDIR:
		report_error(s, e->error, "[sender] opendir \"%s\" failed", path);
		break;
	case SWEEP_OP_OPEN:
		report_error(s, e->error, "[sender] send_files failed to open \"%s\"", path);
		break;
	case SWEEP_OP_LOOP:
		report_error(s, ELOOP, "[sender] \"%s\"", path);
		break;
	default:
		report_error(s, e->error, "[sender] readlink_stat(\"%s\") failed", path);
		break;
	}
}
