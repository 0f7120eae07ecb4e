/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * create.c: -c. One libsweep walk over every name (each relative to its -C
 * directory); every entry it hands out becomes one archive member, in the
 * walk's order: symlinks and other files without data as they are met,
 * regular files in physical order, hard links after their first name, and
 * each directory after everything below it (see put_entry()).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "create.h"
#include "walkenv.h"
#include "incremental.h"
#include "writer.h"

/* Excluded names, the archive itself and, under -N, files not changed
 * since its date are left out before they are read (a directory's whole
 * subtree with it). */
static enum sweep_verdict walk_filter(const struct sweep_entry *e, void *arg)
{
	struct create *cr = arg;
	/* -h: a link still a link once followed leads nowhere; GNU tar stores
	 * nothing for it ("File removed before we read it", a named one
	 * "Cannot stat") */
	if (cr->t->opt.dereference && S_ISLNK(e->st.st_mode)) {
		if (e->depth == 0)
			tar_cannot_read(cr->t, e->path, "stat", ENOENT);
		else
			tar_removed(cr->t, e->path);
		return SWEEP_PRUNE;
	}
	if (cr->t->opt.exclude.n && scope_excluded(cr, e, e->path))
		return SWEEP_PRUNE;
	if (cr->archive_is_file && e->st.st_dev == cr->archive_st.st_dev &&
	    e->st.st_ino == cr->archive_st.st_ino) {
		tar_warn(cr->t, 0, "%s: file is the archive; not dumped", tq(cr->t, 0, e->path));
		return SWEEP_PRUNE;
	}
	if (tags_filter(cr, e) == SWEEP_PRUNE || incr_filter(cr, e) == SWEEP_PRUNE)
		return SWEEP_PRUNE;
	/* -N: left out before its data is queued, let alone read */
	if (newer_skips(&cr->t->opt, &e->st)) {
		if (cr->t->opt.verbose)
			tar_warn(cr->t, 0, "%s: file is unchanged; not dumped", tq(cr->t, 0, e->path));
		return SWEEP_PRUNE;
	}
	return SWEEP_KEEP;
}

int create_archive_error(struct create *cr, const char *name, int r)
{
	struct tar *t = cr->t;
	if (cr->out.err) {
		tar_fatal(t, cr->out.err, "%s: Cannot write", tq(t, 0, cr->out.name));
		return -1;
	}
	const char *msg = archive_error_string(cr->w.a);
	if (r == ARCHIVE_FATAL) {
		tar_fatal(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "archive error");
		return -1;
	}
	if (r == ARCHIVE_WARN)
		tar_warn(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "warning");
	else
		tar_error(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "not dumped");
	return 0;
}

/* Add every name as a root, each relative to the -C directory before it.
 * Returns 0; or the errno of a -C directory that cannot be opened, with
 * *bad naming it and the roots before it added. */
static int add_roots(struct create *cr, struct sweep *sw, const char **bad)
{
	struct tar_names *ns = &cr->t->opt.names;
	int dirfd = AT_FDCWD;
	cr->dirfds = calloc(ns->n, sizeof(*cr->dirfds));
	if (!cr->dirfds && ns->n)
		return ENOMEM;
	for (size_t i = 0; i < ns->n; i++) {
		*bad = ns->v[i].name;
		if (!ns->v[i].chdir) {
			/* GNU tar's warning, given as it makes the name
			 * safe; the walk then fails to stat "" */
			if (!ns->v[i].name[0])
				tar_warn(cr->t, 0, "Substituting `.' for empty member name");
			/* GNU tar notes a leading '/' or "../" as it takes the
			 * name, before it finds whether it is there */
			safename(cr->t, ns->v[i].name, false, NULL);
			/* as GNU tar, without its trailing slashes: "f/" is the
			 * file f, "l/" the link l itself, "d//" d */
			char *bare = names_without_slash(ns->v[i].name);
			int rootfd = dirfd;
			if (!bare || scope_root(cr, i, &rootfd) < 0 || sweep_add_root(sw, rootfd, bare) < 0) {
				int err = bare ? errno : ENOMEM;
				free(bare);
				return err;
			}
			free(bare);
			continue;
		}
		int fd = openat(dirfd, ns->v[i].name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		cr->dirfds[cr->ndirfds++] = dirfd = fd;
	}
	return 0;
}

static struct sweep *open_walk(struct create *cr)
{
	const struct tar_opts *o = &cr->t->opt;
	struct sweep_options so = {
		.order = o->order,
		.follow = o->dereference ? SWEEP_FOLLOW_ALL : SWEEP_FOLLOW_NONE,
		/* Directories are stored after their contents (see put_entry()). */
		/* all names in one sweep (below): a -T list of files is read
		 * in disk order as a whole, not one name at a time */
		/* an empty file is not opened, as GNU tar opens none
		 * (filedata.c looks at it by name) */
		.flags = SWEEP_POSTORDER | SWEEP_EMPTY_UNOPENED | walkenv_flags() |
		         (o->one_fs ? SWEEP_XDEV : 0),
		.max_entries = o->mem_entries,
		.max_bytes = o->mem_bytes,
		.filter = walk_filter,
		.filter_arg = cr,
	};
	/* names that give the same members (-C a x -C b x) go one after
	 * another, as GNU tar's, so that the later one's are extracted last
	 * and win */
	if (!names_overlap(cr->t))
		so.flags |= SWEEP_ROOTS_TOGETHER;
	struct sweep *sw = sweep_open(NULL, &so);
	if (!sw)
		tar_fatal(cr->t, errno, "cannot start the walk");
	return sw;
}

static void report_walk_error(struct create *cr, const struct sweep_entry *e)
{
	struct tar *t = cr->t;
	switch (e->op) {
	case SWEEP_OP_STAT:
	case SWEEP_OP_OPEN:
		/* A name that went away between reading its directory and
		 * reading it is a change, not a failure, for GNU tar. */
		if (e->error == ENOENT && !(e->flags & SWEEP_E_ROOT)) {
			tar_removed(t, e->path);
			return;
		}
		tar_cannot_read(t, e->path, e->op == SWEEP_OP_STAT ? "stat" : "open", e->error);
		return;
	case SWEEP_OP_LOOP:
		tar_error(t, 0, "%s: File system loop detected", tq(t, 0, e->path));
		return;
	case SWEEP_OP_NOMEM: /* as GNU tar's xalloc_die() */
		tar_fatal(t, ENOMEM, "memory exhausted");
		return;
	default:
		tar_cannot_read(t, e->path, "open", e->error);
		return;
	}
}

/* The member name of e, made safe and then edited by --transform, with a
 * '/' after a directory; the name -v shows, which GNU tar keeps as given
 * unless --show-transformed-names; and, in cr->plain, the safe name
 * before --transform, which hard links to e start from. */
static const char *member_name(struct create *cr, const struct sweep_entry *e)
{
	const char *safe = safename(cr->t, e->path, false, NULL);
	bool dir = e->kind == SWEEP_DIR || e->kind == SWEEP_DIR_POST;
	sb_reset(&cr->plain);
	sb_reset(&cr->shown);
	if (sb_addstr(&cr->plain, safe) < 0 ||
	    !xform_apply(cr->t, XFORM_NAME, cr->plain.s, &cr->name))
		return NULL;
	if (sb_addstr(&cr->shown, cr->t->opt.xform.show ? cr->name.s : e->path) < 0)
		return NULL;
	if (dir && cr->name.len && cr->name.s[cr->name.len - 1] != '/' && sb_addc(&cr->name, '/') < 0)
		return NULL;
	if (dir && cr->shown.len && cr->shown.s[cr->shown.len - 1] != '/' && sb_addc(&cr->shown, '/') < 0)
		return NULL;
	return cr->name.s;
}

/* Write the header of e as member (a hard link to link when not NULL), then
 * its data; --remove-files then removes it, if stored whole. Returns 1 when the header was written, 0 when not (reported, or
 * held: held.c), -1 when the archive cannot go on. */
static int put_member(struct create *cr, const struct sweep_entry *e, const char *member,
                      const char *link)
{
	struct tar *t = cr->t;
	if (!limits_name_ok(cr, e->path, member, e->kind == SWEEP_DIR_POST) ||
	    header_fill(cr, e, member, link) < 0 || !limits_entry_ok(cr, e)) {
		if (!link)
			links_unstored(cr, e);
		return 0;
	}
	if (e->kind == SWEEP_DATA && !link)
		filedata_sparse(cr, e);
	if (t->opt.xattrs || t->opt.acls)
		xattr_fill(cr, e);
	if (held_wanted(cr, e, link))
		return held_keep(cr, e);
	/* under -g, a directory's member was written as the walk met it */
	int w = cr->inc && e->kind == SWEEP_DIR_POST ? 1
	        : create_write_header(cr, cr->entry, e->path, cr->shown.s);
	if (w <= 0)
		return w;
	int whole = 1;
	if (e->kind == SWEEP_DATA && !e->link_first && !link)
		whole = filedata_write(cr, e);
	if (whole < 0)
		return -1;
	/* a directory is removed by put_entry(), after its held links */
	if (whole && e->kind != SWEEP_DIR_POST)
		remove_entry(cr, e);
	return 1;
}

int create_write_header(struct create *cr, struct archive_entry *ae, const char *path,
                        const char *shown)
{
	int r = writer_header(&cr->w, ae, cr->format);
	/* A name that is not text in the locale is stored in pax as the bytes
	 * it is (hdrcharset=BINARY) and read back as such: nothing to say, as
	 * GNU tar says nothing. */
	if (r == ARCHIVE_WARN && archive_errno(cr->w.a) == EILSEQ)
		r = ARCHIVE_OK;
	if (r != ARCHIVE_OK && create_archive_error(cr, path, r) < 0)
		return -1;
	if (r < ARCHIVE_WARN)
		return 0;
	if (cr->t->opt.verbose && shown)
		listing_print(cr->t, ae, shown);
	return 1;
}

/* A directory as the walk meets it, before its contents: only notes now
 * (and under -g its member), and when the format cannot name it, neither it nor its contents are
 * stored (as in GNU tar; it is then left out in silence when the walk is
 * done with it). Returns 0, or -1 when memory ran out. */
static int dir_first(struct create *cr, const struct sweep_entry *e)
{
	struct tar *t = cr->t;
	const char *member = member_name(cr, e);
	if (!member) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	bool fits = limits_name_ok(cr, cr->shown.s, member, false);
	/* -g: GNU tar's incremental members come before what they hold */
	struct tar_scope sc;
	scope_of(cr, e, &sc);
	if (scope_enter_dir(cr, e) < 0 || remove_note_dir(cr, e) < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	if (fits && cr->inc && header_fill(cr, e, member, NULL) == 0 &&
	    incr_put_dir(cr, e, member) < 0)
		return -1;
	/* (under -g a named directory's files are dumped: incr_filter) */
	if (!fits || (sc.no_recursion && !(cr->inc && e->depth == 0)))
		sweep_prune(cr->sw);
	else if ((e->flags & SWEEP_E_XDEV) && t->opt.verbose)
		tar_warn(t, 0, "%s/: file is on a different filesystem; not dumped",
		         tq(t, 0, e->path));
	else if (tags_dir(cr, e) < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	return 0;
}

/* A directory the walk is done with: GNU tar notes when it changed while
 * its contents were read (a name was added or removed). */
static void dir_changed(struct create *cr, const struct sweep_entry *e)
{
	struct stat now;
	int flags = cr->t->opt.dereference ? 0 : AT_SYMLINK_NOFOLLOW;
	if (fstatat(e->dirfd, e->name, &now, flags) == 0 &&
	    (now.st_ctim.tv_sec != e->st.st_ctim.tv_sec ||
	     now.st_ctim.tv_nsec != e->st.st_ctim.tv_nsec))
		tar_differs(cr->t, WARN_FILE_CHANGED, "%s: file changed as we read it",
		            tq(cr->t, 0, e->path));
}

/* Store one entry of the walk. Returns -1 only when the archive cannot go on.
 *
 * A directory is stored when the walk is done with it (SWEEP_DIR_POST), after
 * everything below it: in disk order its files come long after it, and GNU
 * tar sets a directory's time as soon as a member outside it is extracted,
 * so a directory stored first would end with the time its last file was
 * extracted. Stored last, it is extracted onto the finished directory. */
static int put_entry(struct create *cr, const struct sweep_entry *e)
{
	struct tar *t = cr->t;
	if (e->kind == SWEEP_ERROR) {
		report_walk_error(cr, e);
		if (t->fatal)
			return -1;
		links_failed(cr, e);
		/* GNU tar stores no directory it could not read */
		if (e->op == SWEEP_OP_READDIR && keymap_put(&cr->unread_dirs, e->dir_id, 0, 1) < 0) {
			tar_fatal(t, ENOMEM, "memory exhausted");
			return -1;
		}
		return 0;
	}
	if (e->kind == SWEEP_DIR_POST && keymap_get(&cr->unread_dirs, e->dir_id, 0)) {
		keymap_del(&cr->unread_dirs, e->dir_id, 0);
		return held_release(cr, e->dir_id, e);
	}
	if (e->kind == SWEEP_DIR)
		return dir_first(cr, e);
	if (S_ISSOCK(e->st.st_mode)) {
		tar_note(t, WARN_FILE_IGNORED, "%s: socket ignored", tq(t, 0, e->path));
		return 0;
	}
	const char *member = member_name(cr, e);
	if (!member) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	struct sweep_entry copy;
	const char *link;
	const struct sweep_entry *use = links_resolve(cr, e, cr->plain.s, &copy, &link);
	if (!use)
		return 0;
	int r = put_member(cr, use, member, link);
	if (use == &copy && copy.fd >= 0)
		close(copy.fd);
	if (r < 0)
		return -1;
	if (r > 0)
		checklinks_note(cr, e);
	if (e->kind != SWEEP_DIR_POST)
		return 0;
	/* removing its contents changed it: GNU tar does not check then */
	if (!t->opt.remove_files)
		dir_changed(cr, e);
	filedata_keep_atime(cr, e);
	/* the directory once more after its held links, if it was stored */
	if (r == 0)
		return held_release(cr, e->dir_id, e);
	if (held_after_dir(cr, e) < 0)
		return -1;
	remove_entry(cr, e);
	return 0;
}

/* Walk every root into the archive, until a fatal error if one comes. */
static void walk(struct create *cr, struct sweep *sw)
{
	const struct sweep_entry *e;
	struct tar *t = cr->t;
	while ((e = sweep_next(sw)) != NULL) {
		if (put_entry(cr, e) < 0)
			return;
		if (e->kind == SWEEP_DATA || e->kind == SWEEP_FILE)
			t->files++;
		if (t->progress)
			progress_update(t->progress, t->files, cr->out.bytes, 0);
	}
	/* those whose directory was not stored, left on the disk with it */
	held_release(cr, 0, NULL);
}

/* Open the archive's output and its writer. Returns 0 or -1 (reported). */
static int open_archive(struct create *cr)
{
	struct tar *t = cr->t;
	const char *name = t->opt.archive;
	struct strbuf backup = STRBUF_INIT;
	/* -c writes the archive over what was there: under --backup that is
	 * put aside first (a failure said, and the archive written all the
	 * same, as GNU tar does) */
	if (t->append_fd < 0 && t->opt.mode == MODE_CREATE && t->opt.backup_wanted)
		tar_backup(t, name, true, &backup);
	int r = t->append_fd >= 0 ? out_open_fd(&cr->out, t->append_fd, name, (uint64_t)t->append_at)
	                          : out_open(&cr->out, name, 0);
	t->append_fd = -1; /* the stream's now */
	if (r < 0) {
		int err = errno;
		tar_backup_undo(t, name, &backup);
		sb_free(&backup);
		tar_fatal(t, err, "%s: Cannot open", tq(t, 0, name));
		return -1;
	}
	sb_free(&backup);
	if (cr->out.is_stdout && isatty(STDOUT_FILENO)) {
		tar_fatal(t, 0, "Refusing to write archive contents to terminal "
		                "(missing -f option?)");
		return -1;
	}
	if (fstat(cr->out.fd, &cr->archive_st) == 0 && S_ISREG(cr->archive_st.st_mode))
		cr->archive_is_file = true;
	if (cr->out.is_stdout && !t->opt.index_file)
		t->listing = stderr;
	cr->format = writer_format(&t->opt);
	if (writer_open(&cr->w, t, &cr->out) < 0)
		return -1;
	cr->entry = archive_entry_new();
	if (!cr->entry)
		tar_fatal(t, ENOMEM, "memory exhausted");
	return cr->entry ? 0 : -1;
}

/* End the archive (end-of-archive blocks, padding) and close its output. */
static void close_archive(struct create *cr)
{
	if (!cr->w.a)
		return;
	if (!cr->t->fatal) {
		if (writer_close(&cr->w) < 0)
			create_archive_error(cr, cr->out.name, ARCHIVE_FATAL);
		else if (out_close(&cr->out) < 0)
			tar_fatal(cr->t, cr->out.err, "%s: Cannot write", tq(cr->t, 0, cr->out.name));
	}
	writer_free(&cr->w);
}

static size_t operands(const struct tar *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->opt.names.n; i++)
		n += !t->opt.names.v[i].chdir;
	return n;
}

int tar_create(struct tar *t)
{
	struct create cr = { .t = t, .track_all = t->opt.dereference || operands(t) > 1 };
	totals_arm(t);
	if (incr_start(&cr) < 0 || open_archive(&cr) < 0 || label_write(&cr) < 0)
		goto out;
	struct sweep *sw = cr.sw = open_walk(&cr);
	if (!sw)
		goto out;
	if (t->opt.progress)
		t->progress = progress_start();
	/* A -C that fails ends the run after the names before it, as in GNU
	 * tar, where it comes in its turn. */
	const char *bad = NULL;
	scope_start(&cr);
	int chdir_err = add_roots(&cr, sw, &bad);
	walk(&cr, sw);
	sweep_close(sw);
	progress_end(t->progress, t->files, cr.out.bytes);
	t->progress = NULL;
	close_archive(&cr);
	remove_deferred(&cr, true); /* once the archive holds them (none after a fatal error) */
	incr_finish(&cr);
	if (chdir_err)
		tar_fatal(t, chdir_err, "%s: Cannot open", tq(t, 0, bad));
	if (t->opt.totals && !t->opt.totals_signal && !t->fatal)
		totals_print("Total bytes written", out_total(&cr.out), &t->totals_start);
	if (!t->fatal) /* last, as in GNU tar */
		checklinks_report(&cr);
out:
	remove_deferred(&cr, false); /* (what an early end left: forgotten, not done) */
	writer_free(&cr.w);
	archive_entry_free(cr.entry);
	out_free(&cr.out);
	for (size_t i = 0; i < cr.ndirfds; i++)
		close(cr.dirfds[i]);
	free(cr.dirfds);
	sb_free(&cr.name);
	sb_free(&cr.plain);
	sb_free(&cr.shown);
	sb_free(&cr.link);
	sb_free(&cr.xattr);
	keymap_free(&cr.links);
	checklinks_free(&cr);
	keymap_free(&cr.unread_dirs);
	keymap_free(&cr.tagged);
	sb_free(&cr.link_names);
	held_free(&cr);
	incr_free(&cr);
	scope_free(&cr);
	return t->diag->status;
}
