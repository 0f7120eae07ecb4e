/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * extract.c: -t and -x, through libarchive's reader and, for -x, its disk
 * writer with every safety it has: no "..", no absolute paths (unless -P),
 * never through a symbolic link. Names are first made safe as GNU tar makes
 * them (safename.c), so the messages are GNU tar's; libarchive's checks
 * stay on as a second line.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "extract.h"
#include "xfail.h"

/* libarchive's disk writer flags for the options. */
static int disk_options(const struct tar_opts *o)
{
	/* not ARCHIVE_EXTRACT_SECURE_SYMLINKS: it refuses the links that
	 * were there before the run too (xlinks.c) */
	int f = 0;
	if (!o->absolute)
		f |= ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS;
	if (!o->touch)
		f |= ARCHIVE_EXTRACT_TIME;
	if (o->same_perms)
		f |= ARCHIVE_EXTRACT_PERM;
	if (o->same_owner)
		f |= ARCHIVE_EXTRACT_OWNER;
	if (o->keep_old)
		f |= ARCHIVE_EXTRACT_NO_OVERWRITE;
	if (o->xattrs)
		f |= ARCHIVE_EXTRACT_XATTR;
	if (o->acls)
		f |= ARCHIVE_EXTRACT_ACL;
	return f;
}

/* Whether name, there already, stays as it is (-k, --skip-old-files,
 * --keep-newer-files), said in GNU tar's words. What is there is looked at
 * without a trailing slash: a symbolic link is not followed. */
static bool keeps_existing(struct tar *t, struct archive_entry *e, const char *name)
{
	const struct tar_opts *o = &t->opt;
	bool dir = archive_entry_filetype(e) == AE_IFDIR;
	struct stat st;
	if (!(o->keep_old || o->skip_old || o->keep_newer))
		return false;
	char *bare = names_without_slash(name);
	int r = lstat(bare ? bare : name, &st);
	if (r < 0) {
		free(bare);
		return false;
	}
	/* libarchive's NO_OVERWRITE skips in silence; GNU tar's -k says so. A
	 * directory member over a file or a link keeps it, in silence (and
	 * what comes below goes through the link, or fails, as in GNU tar) */
	if (o->keep_old && (!dir || !S_ISDIR(st.st_mode))) {
		if (!dir) /* "Cannot open", "Cannot hard link to...", as it is */
			xfail_said(t, e, name, EEXIST);
		free(bare);
		return true;
	}
	/* GNU tar skips an existing directory's member too (its attributes),
	 * -k in silence */
	if (o->keep_old) {
		free(bare);
		return true;
	}
	if (o->skip_old) {
		if (o->verbose)
			tar_warn(t, 0, "%s: skipping existing file", tq(t, 0, bare ? bare : name));
		free(bare);
		return true;
	}
	free(bare);
	/* --keep-newer-files: a directory there keeps its attributes, in
	 * silence, as GNU tar's (its extract_dir takes an existing one only
	 * under the default or --overwrite); an empty one is removed, and made
	 * again as the member says, as GNU's is */
	if (o->keep_newer && dir && S_ISDIR(st.st_mode)) {
		char *bare_dir = names_without_slash(name);
		bool emptied = rmdir(bare_dir ? bare_dir : name) == 0;
		free(bare_dir);
		return !emptied;
	}
	time_t sec = archive_entry_mtime(e);
	long nsec = archive_entry_mtime_nsec(e);
	/* a directory is never newer (GNU's file_newer_p): a member of another
	 * kind goes on, and fails there as GNU tar's does */
	if (!o->keep_newer || S_ISDIR(st.st_mode) || st.st_mtim.tv_sec < sec ||
	    (st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec < nsec))
		return false;
	bare = names_without_slash(name);
	tar_warn(t, 0, "Current %s is newer or same age", tquote(t, 0, bare ? bare : name));
	free(bare);
	return true;
}

/* Whether path's first len bytes name t->way_ok or a directory above it:
 * a way found clear for a member before (members come by directory). */
static bool way_known(const struct tar *t, const char *path, size_t len)
{
	const struct strbuf *ok = &t->way_ok;
	return ok->len >= len && memcmp(ok->s, path, len) == 0 &&
	       (ok->len == len || ok->s[len] == '/');
}

/* Whether a directory on name's way is a file, or a link to nothing: then
 * name is not extracted, and said as GNU tar says it, whatever the
 * options (libarchive would remove what is in the way to make the
 * directory: a file the archive does not name, lost in silence). The way
 * of the member before is not looked at again, unless this member may
 * replace a directory on it. */
static bool way_blocked(struct tar *t, struct archive_entry *e, const char *name)
{
	const struct tar_opts *o = &t->opt;
	/* this member may replace a directory on the way known clear */
	size_t nlen = names_bare_len(name);
	if (t->way_ok.len && way_known(t, name, nlen))
		sb_reset(&t->way_ok);
	const char *last = memrchr(name, '/', nlen);
	size_t dirlen = last ? (size_t)(last - name) : 0;
	if (!dirlen || way_known(t, name, dirlen))
		return false;
	char *path = strdup(name);
	bool blocked = false;
	struct stat st;
	for (char *slash = path ? strchr(path + 1, '/') : NULL; slash && !blocked;
	     slash = strchr(slash + 1, '/')) {
		if (!slash[1])
			break; /* name's own trailing slash */
		*slash = 0;
		int err = stat(path, &st) == 0 ? (S_ISDIR(st.st_mode) ? 0 : ENOTDIR) : errno;
		bool absent = err == ENOENT && lstat(path, &st) < 0;
		*slash = '/';
		if (absent)
			break; /* not there: made on the way */
		/* (deeper than PATH_MAX: the extraction's own way, unlooked at) */
		if (!err || (err != ENOTDIR && err != ENOENT))
			continue;
		blocked = true;
		/* through a link to nothing, GNU tar first fails to make the
		 * next directory on the way, if there is one */
		char *next = strchr(slash + 1, '/');
		if (err == ENOENT && next && next[1]) {
			*next = 0;
			tar_cannot(t, path, "mkdir", err);
			*next = '/';
		}
		char *bare = names_without_slash(name);
		const char *shown = bare ? bare : name;
		if (o->keep_newer && err == ENOTDIR) { /* GNU tar's words, status 0 */
			tar_warn(t, 0, "%s: Warning: Cannot stat: %s", tq(t, 0, shown), strerror(err));
			tar_warn(t, 0, "Current %s is newer or same age", tquote(t, 0, shown));
		} else {
			tar_cannot(t, shown, archive_entry_filetype(e) == AE_IFDIR ? "mkdir" : "open",
			           err);
		}
		free(bare);
	}
	if (path && !blocked) { /* (a failure to remember only costs looks) */
		sb_reset(&t->way_ok);
		if (sb_add(&t->way_ok, name, dirlen) < 0)
			sb_reset(&t->way_ok);
	}
	free(path);
	return blocked;
}

/* Whether name is the working directory itself ("." or "./", as "find . |
 * tar -T -" gives it), which -U leaves alone in silence, as GNU tar does. */
static bool names_cwd(const char *name)
{
	while (name[0] == '.' && (name[1] == '/' || name[1] == '\0'))
		for (name++; *name == '/'; name++)
			;
	return *name == '\0';
}

/* -U: remove what is at name before the member is extracted, as GNU tar
 * does, a directory only when empty (with --recursive-unlink, with all it
 * holds: xunlink.c). Returns whether the member is to be left out: what
 * is there could not be removed (reported), and GNU tar then leaves it as
 * it is, a directory's mode and times included. */
static bool unlink_first(struct tar *t, const char *name)
{
	struct stat st;
	if (!t->opt.unlink_first || names_cwd(name))
		return false;
	/* without a trailing slash: a link to a directory is removed, not
	 * followed (the member was written through it, outside the tree) */
	char *bare = names_without_slash(name);
	const char *at = bare ? bare : name;
	if (lstat(at, &st) < 0) {
		/* a file where a directory on the way should be: GNU's words */
		bool blocked = errno == ENOTDIR;
		if (blocked)
			tar_cannot(t, at, "unlink", errno);
		free(bare);
		return blocked;
	}
	bool was_dir = S_ISDIR(st.st_mode);
	int r = !was_dir ? unlink(at) : t->opt.recursive_unlink ? xunlink_tree(at) : rmdir(at);
	if (r == 0 || errno == ENOENT) {
		free(bare);
		return false;
	}
	int err = errno == EEXIST ? ENOTEMPTY : errno;
	tar_cannot(t, at, "unlink", err);
	free(bare);
	return true;
}

/* -p without --same-owner: the file will be the extracting user's, and
 * GNU tar keeps its set-user-id and set-group-id bits, which then give
 * nothing the user does not have; libarchive drops them unless the
 * archive's ids are the user's, so it is told they are. */
static void own_set_ids(const struct tar *t, struct archive_entry *e)
{
	if (t->opt.same_owner || !t->opt.same_perms)
		return;
	if (archive_entry_perm(e) & S_ISUID) {
		archive_entry_set_uid(e, geteuid());
		archive_entry_set_uname(e, NULL);
	}
	if (archive_entry_perm(e) & S_ISGID) {
		archive_entry_set_gid(e, getegid());
		archive_entry_set_gname(e, NULL);
	}
}

/* --xattrs: only the attributes GNU tar would extract are given to the
 * disk writer (by default user.*; --xattrs-include, --xattrs-exclude).
 * Returns 0 or -1 (fatal, reported). */
static int drop_xattrs(struct tar *t, struct archive_entry *e)
{
	const char *name;
	const void *value;
	size_t size;
	int n = archive_entry_xattr_reset(e), k = 0, keep = 0;
	if (n <= 0)
		return 0;
	struct { char *name; void *value; size_t size; } *v = calloc((size_t)n, sizeof(*v));
	if (!v)
		goto nomem;
	while (k < n && archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK) {
		k++;
		if (!xattr_wanted(&t->opt, name, false))
			continue;
		v[keep].name = strdup(name);
		v[keep].value = malloc(size ? size : 1);
		if (!v[keep].name || !v[keep].value) {
			free(v[keep].name);
			free(v[keep].value);
			goto fail;
		}
		memcpy(v[keep].value, value, size);
		v[keep++].size = size;
	}
	/* libarchive hands them out last added first: added back in reverse,
	 * they keep their order */
	archive_entry_xattr_clear(e);
	for (int i = keep - 1; i >= 0; i--)
		archive_entry_xattr_add_entry(e, v[i].name, v[i].value, v[i].size);
	for (int i = 0; i < keep; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
	return 0;
fail:
	for (int i = 0; i < keep; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
nomem:
	tar_fatal(t, ENOMEM, "memory exhausted");
	return -1;
}

/* Whether libarchive said the input is no tar archive at all. */
static bool not_tar(struct archive *a)
{
	const char *msg = archive_error_string(a);
	return archive_errno(a) == EILSEQ || (msg && strstr(msg, "Unrecognized archive format"));
}

/* -I PROG: the archive is read through "PROG -d", as GNU tar reads it. */
static void read_through_program(struct extract *x)
{
	struct strbuf cmd = STRBUF_INIT;
	if (sb_addstr(&cmd, x->t->opt.compress_program) == 0 && sb_addstr(&cmd, " -d") == 0)
		archive_read_support_filter_program(x->in, cmd.s);
	sb_free(&cmd);
}

/* A reader of fd: tar by bid, as tar archives are told from other input,
 * or with force_tar set, the tar format whatever the first header looks
 * like. Returns 0, 1 when the input failed the bid (not reported), or -1
 * (fatal, reported). */
static int new_reader(struct extract *x, int fd, bool force_tar)
{
	struct tar *t = x->t;
	x->in = archive_read_new();
	if (!x->in) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	if (t->opt.filter == FLT_PROGRAM)
		read_through_program(x);
	else
		archive_read_support_filter_all(x->in);
	if (force_tar)
		archive_read_set_format(x->in, ARCHIVE_FORMAT_TAR);
	else
		archive_read_support_format_tar(x->in);
	/* -i: zero blocks, such as those between archives put end to end,
	 * are passed over */
	if (t->opt.ignore_zeros)
		archive_read_set_options(x->in, "tar:read_concatenated_archives");
	int r = fd == STDIN_FILENO && label_wanted(t) ? label_open_stdin(x)
	        : gunzip_wanted(t, fd) ? gunzip_open(x->in, fd, t->opt.record_size, NULL, 0, &x->gz)
	        : archive_read_open_fd(x->in, fd, t->opt.record_size);
	if (r != ARCHIVE_OK) {
		if (not_tar(x->in))
			return 1;
		tar_fatal(t, 0, "%s", archive_error_string(x->in));
		return -1;
	}
	return 0;
}

/* The first header failed the bid: GNU tar then skips to the next header
 * that checks out, so a damaged first header loses one member, not the
 * archive. That needs the input again from its start, read as tar: a file
 * can give it, a pipe cannot. Returns whether the reader was reopened. */
static bool reopen_as_tar(struct extract *x)
{
	int fd = x->fd >= 0 ? x->fd : STDIN_FILENO;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || lseek(fd, 0, SEEK_SET) != 0)
		return false;
	archive_read_free(x->in);
	x->in = NULL;
	x->gz = NULL; /* (freed with it) */
	return new_reader(x, fd, true) == 0;
}

/* Open the archive for reading. Returns 0 or -1 (fatal, reported). */
static int open_input(struct extract *x)
{
	struct tar *t = x->t;
	const char *name = t->opt.archive;
	bool is_stdin = strcmp(name, "-") == 0;
	if (is_stdin && isatty(STDIN_FILENO)) {
		tar_fatal(t, 0, "Refusing to read archive contents from terminal "
		                "(missing -f option?)");
		return -1;
	}
	int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (!is_stdin)
		x->fd = fd;
	if (fd < 0) {
		tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, name));
		return -1;
	}
	int r = new_reader(x, fd, false);
	if (r <= 0)
		return r;
	tar_error(t, 0, "This does not look like a tar archive");
	x->reopened = true;
	return reopen_as_tar(x) ? 0 : -1;
}

/* Apply the -C directories in turn. Returns 0 or -1 (fatal, reported). */
static int change_dirs(struct tar *t)
{
	struct tar_names *ns = &t->opt.names;
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->v[i].chdir && chdir(ns->v[i].name) < 0) {
			tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, ns->v[i].name));
			return -1;
		}
	}
	return 0;
}

static int open_disk(struct extract *x)
{
	struct tar *t = x->t;
	if (t->opt.mode != MODE_EXTRACT || t->opt.to_stdout || t->opt.to_command)
		return 0;
	x->disk = archive_write_disk_new();
	if (!x->disk) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	archive_write_disk_set_options(x->disk, disk_options(&t->opt));
	if (!t->opt.numeric_owner)
		archive_write_disk_set_standard_lookup(x->disk);
	return 0;
}

/* Whether the archive's last read failed because the archive ended. */
bool extract_truncated(struct extract *x)
{
	const char *msg = archive_error_string(x->in);
	return msg && strstr(msg, "runcated");
}

/* A failed read of the archive: fatal, in GNU tar's words where it has them. */
void extract_read_failed(struct extract *x)
{
	const char *msg = archive_error_string(x->in);
	if (extract_truncated(x))
		tar_fatal(x->t, 0, "Unexpected EOF in archive");
	else
		tar_fatal(x->t, 0, "%s", msg ? msg : "read error");
}

/* Report a failure of the disk writer on name. */
static void disk_failed(struct extract *x, const char *name, int r)
{
	struct tar *t = x->t;
	int err = archive_errno(x->disk);
	const char *msg = archive_error_string(x->disk);
	if (r == ARCHIVE_WARN && xfail_attrs(t, x->disk, x->current, name))
		return;
	if (r == ARCHIVE_WARN) {
		/* libarchive warns when it could not restore an owner, a mode
		 * or a time ("Can't ..."): GNU tar counts those as errors, an
		 * owner in its own words */
		bool lost = msg && strncmp(msg, "Can't ", 6) == 0;
		char *bare = names_without_slash(name); /* a directory as GNU names it */
		const char *q = tq(t, 0, bare ? bare : name);
		if (msg && strncmp(msg, "Can't set user=", 15) == 0)
			tar_error(t, err > 0 ? err : EPERM, "%s: Cannot change ownership to uid %jd, gid %jd",
			          q, (intmax_t)archive_entry_uid(x->current),
			          (intmax_t)archive_entry_gid(x->current));
		else
			(lost ? tar_error : tar_warn)(t, 0, "%s: %s", q, msg ? msg : "warning");
		free(bare);
		return;
	}
	const char *link = archive_entry_hardlink(x->current);
	struct stat st;
	if (link && r != ARCHIVE_FATAL && lstat(link, &st) < 0)
		tar_error(t, errno, "%s: Cannot hard link to %s", tq(t, 0, name),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, link));
	else if (r != ARCHIVE_FATAL && xfail_create(t, x->disk, x->current, name))
		; /* reported in GNU's words, errno included */
	else if (err == EEXIST)
		tar_cannot(t, name, "open", err);
	else
		tar_error(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "Cannot open");
	if (r == ARCHIVE_FATAL)
		t->fatal = true;
}

/* Whether e is a hard link whose name already is its target: the same file
 * under both names (an archive made from "find . | tar -T -" holds "./f"
 * twice, the second a link to the first). Its member is then done, as in
 * GNU tar, and must not go to libarchive, which removes the name before
 * linking it to the target it just removed. Not even under -U, where GNU
 * tar removes the file first and then cannot link it: nothing to gain from
 * losing the file. */
static bool links_itself(struct archive_entry *e, const char *name)
{
	const char *target = archive_entry_hardlink(e);
	struct stat a, b;
	return target && lstat(target, &a) == 0 && lstat(name, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* A member's mode with an access ACL that has a mask: libarchive gave its
 * group bits the ACL's group:: entry, where the header (and the file the
 * archive was made from) has the mask's, as POSIX puts it there: the file
 * extracted without --acls gets those. (Not under --acls: libarchive keeps
 * group:: in the mode, and the mask set with the ACL gives the file its
 * group bits. Nor in a listing: sweep-tar's own archives, written by
 * libarchive, have group::'s bits in the header, and the two cannot be told
 * apart once read.) */
static void acl_mode(struct archive_entry *e)
{
	int type, perm, tag, id;
	const char *name;
	if (archive_entry_acl_reset(e, ARCHIVE_ENTRY_ACL_TYPE_ACCESS) <= 0)
		return;
	while (archive_entry_acl_next(e, ARCHIVE_ENTRY_ACL_TYPE_ACCESS, &type, &perm, &tag, &id,
	                              &name) == ARCHIVE_OK) {
		if (tag != ARCHIVE_ENTRY_ACL_MASK)
			continue;
		mode_t bits = (perm & ARCHIVE_ENTRY_ACL_READ ? 4 : 0) |
		              (perm & ARCHIVE_ENTRY_ACL_WRITE ? 2 : 0) |
		              (perm & ARCHIVE_ENTRY_ACL_EXECUTE ? 1 : 0);
		archive_entry_set_perm(e, (archive_entry_perm(e) & ~(mode_t)S_IRWXG) | bits << 3);
		return;
	}
}

static int make_member(struct extract *x, struct archive_entry *e, const char *name,
                       uint64_t size, bool *made);

/* Extract (or list) one member. Returns -1 when the archive cannot go on. */
static int one_member(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *name = xnames_member(x, e);
	if (!name)
		return 0;
	if (x->disk && !t->opt.acls)
		acl_mode(e);
	xcheck_ids(x, e);
	if (!xnames_targets(x, e))
		return -1;
	bool linkable = xnames_hardlink(x, e);
	/* GNU tar lists members by the names the archive gives them, or with
	 * --show-transformed-names as they are extracted. */
	if (t->opt.mode == MODE_LIST || t->opt.verbose) {
		label_list_global(x);
		if (t->verifying)
			fputs("Verify ", t->listing);
		listing_print(t, e, t->opt.xform.show ? name : archive_entry_pathname(e));
	}
	if (t->opt.mode == MODE_DIFF)
		return diff_member(x, e, name);
	if (t->opt.mode == MODE_LIST || !linkable)
		return 0;
	uint64_t size = archive_entry_size_is_set(e) ? (uint64_t)archive_entry_size(e) : 0;
	if (!x->disk) {
		bool hard = archive_entry_hardlink(e) != NULL;
		if (archive_entry_filetype(e) != AE_IFREG || (hard && !t->opt.to_command))
			return 0;
		if (!t->opt.to_command)
			return xdata_copy(x, name, size);
		/* GNU tar runs it for a hard link too, with nothing to read */
		if (xcommand_start(x, e, name) < 0)
			return 0;
		int r = hard ? 0 : xdata_copy(x, name, size);
		xcommand_end(x);
		return r;
	}
	/* (GNU tar renames before it looks at what is there: a file kept by
	 * -k is put aside, and the member takes its name) */
	if (t->opt.backup_wanted) {
		/* nothing renamed through a link the archive made (checked
		 * again below, in silence: as it was) */
		const char *target = archive_entry_hardlink(e);
		if (!xlinks_may_extract(x, name) || (target && !xlinks_may_extract(x, target)))
			return t->fatal ? -1 : 0;
		if (!tar_backup(t, name, false, &x->backup))
			return 0;
	}
	bool made = false;
	int r = make_member(x, e, name, size, &made);
	if (!made)
		tar_backup_undo(t, name, &x->backup);
	return r;
}

/* The rest of one_member(), on the disk: *made once the member's file is
 * there (what follows may still fail). */
static int make_member(struct extract *x, struct archive_entry *e, const char *name,
                       uint64_t size, bool *made)
{
	struct tar *t = x->t;
	/* before anything is looked at, kept or removed there: through a
	 * link the archive made, that would be outside the tree */
	if (!xlinks_may_extract(x, name))
		return t->fatal ? -1 : 0;
	if (archive_entry_hardlink(e) && !xlinks_may_extract(x, archive_entry_hardlink(e)))
		return t->fatal ? -1 : 0;
	if (links_itself(e, name) || keeps_existing(t, e, name) || unlink_first(t, name) ||
	    way_blocked(t, e, name))
		return 0;
	if (archive_entry_filetype(e) == AE_IFDIR && xlinks_before_dir(x, name))
		return t->fatal ? -1 : 0;
	if (!t->opt.touch)
		xdata_check_time(t, e, name);
	own_set_ids(t, e);
	if (t->opt.xattrs && drop_xattrs(t, e) < 0)
		return -1;
	int dumpdir = xincr_dir(x, e, name);
	if (dumpdir < 0)
		return -1;
	/* a directory's data (a dumpdir of -g's archives read without -G) is
	 * passed over, as GNU tar passes it over */
	if (dumpdir || archive_entry_filetype(e) == AE_IFDIR) {
		size = 0;
		archive_entry_set_size(e, 0);
	}
	if (xdirtimes_note(x, e, name) < 0)
		return -1;
	archive_entry_copy_pathname(e, name);
	x->current = e;
	int in_place = overwrite_file(x, e, name, size);
	*made = in_place > 0;
	if (in_place)
		return in_place < 0 || t->fatal ? -1 : 0;
	overwrite_dir_keep(x, e, name);
	/* Given a size, libarchive's disk writer extends a file it could not
	 * write whole to that size with zeros when it finishes the entry: the
	 * file would look whole. Without one it leaves the file as written,
	 * and xdata_extend() gives it its size once all is written. */
	bool data = size > 0 && archive_entry_filetype(e) == AE_IFREG && !archive_entry_hardlink(e);
	if (data)
		archive_entry_unset_size(e);
	int r = archive_write_header(x->disk, e);
	if (r != ARCHIVE_OK)
		disk_failed(x, name, r);
	*made = r >= ARCHIVE_WARN;
	if (r >= ARCHIVE_WARN && xlinks_made(x, e, name) < 0)
		return -1;

	if (r >= ARCHIVE_WARN && size > 0) {
		if (xdata_copy(x, name, size) < 0) {
			if (data && sb_addstr(&x->partial, name) < 0)
				tar_fatal(t, ENOMEM, "memory exhausted");
			return -1;
		}
		if (data)
			xdata_extend(x, name, size);
	}
	r = archive_write_finish_entry(x->disk);
	if (r != ARCHIVE_OK)
		disk_failed(x, name, r);
	if (r >= ARCHIVE_WARN && *made) /* (not for one that was never made) */
		xacl_match(x, e, name);
	return t->fatal ? -1 : 0;
}

/* Whether the reader's warning only says that a name is not text in the
 * locale: libarchive then keeps its bytes, which is what GNU tar does
 * silently. */
static bool conversion_note(struct archive *a)
{
	const char *msg = archive_error_string(a);
	return archive_errno(a) == EILSEQ && msg && strstr(msg, "be converted");
}

static void read_members(struct extract *x)
{
	struct archive_entry *e;
	int r;
	bool first = true;
	while ((r = archive_read_next_header(x->in, &e)) != ARCHIVE_EOF) {
		/* a record is counted once any of it was read, as GNU tar
		 * reads whole records */
		checkpoint_bytes(x->t, (uint64_t)archive_filter_bytes(x->in, 0), false, true);
		if (r == ARCHIVE_WARN) {
			if (!conversion_note(x->in))
				tar_warn(x->t, 0, "%s", archive_error_string(x->in));
		} else if (r == ARCHIVE_RETRY) {
			/* a damaged header: libarchive goes on from the next
			 * block; GNU tar says so once for each run of them */
			if (!x->skipping)
				tar_error(x->t, 0, "Skipping to next header");
			x->skipping = true;
			continue;
		} else if (r != ARCHIVE_OK) {
			if (!first || x->reopened || !not_tar(x->in)) {
				extract_read_failed(x);
				return;
			}
			tar_error(x->t, 0, "This does not look like a tar archive");
			first = false;
			x->reopened = true;
			if (!reopen_as_tar(x))
				return;
			x->skipping = false;
			continue;
		}
		first = false;
		x->skipping = false;
		if (one_member(x, e) < 0)
			return;
		if (archive_entry_filetype(e) != AE_IFDIR)
			x->t->files++;
		if (x->t->progress)
			progress_update(x->t->progress, x->t->files,
			                (uint64_t)archive_filter_bytes(x->in, -1), 0);
	}
	/* the end-of-archive blocks */
	checkpoint_bytes(x->t, (uint64_t)archive_filter_bytes(x->in, 0), false, true);
	/* and the rest of a gzip stream, for its checks: data that did not
	 * check out, or was cut short, fails the run as GNU tar's gzip does */
	const char *why = x->gz ? gunzip_end(x->gz) : NULL;
	if (why)
		tar_fatal(x->t, 0, "gzip: %s", why);
}

/* What GNU tar's --totals counts: the tar stream read, in whole records. */
static uint64_t records_read(struct extract *x)
{
	uint64_t n = (uint64_t)archive_filter_bytes(x->in, 0), r = x->t->opt.record_size;
	return (n + r - 1) / r * r;
}

int tar_extract(struct tar *t)
{
	struct extract x = { .t = t, .fd = -1, .out_fd = -1, .pipe_fd = STDOUT_FILENO };
	clock_gettime(CLOCK_REALTIME, &x.start);
	totals_arm(t);
	if ((t->opt.to_stdout || t->opt.mode == MODE_LIST) && !t->opt.index_file)
		t->listing = t->opt.to_stdout ? stderr : stdout;
	if (open_input(&x) < 0 || label_check(&x) < 0 || change_dirs(t) < 0 || open_disk(&x) < 0)
		goto out;
	if (t->opt.progress)
		t->progress = progress_start();
	read_members(&x);
	progress_end(t->progress, t->files, (uint64_t)archive_filter_bytes(x.in, -1));
	t->progress = NULL;
	if (x.disk && archive_write_close(x.disk) != ARCHIVE_OK)
		tar_error(t, 0, "%s", archive_error_string(x.disk));
	xdirtimes_apply(&x);
	xdata_mark_partial(&x);
	if (!t->fatal)
		members_report_missing(t);
	if (t->opt.totals && !t->opt.totals_signal && !t->fatal)
		totals_print("Total bytes read", records_read(&x), &t->totals_start);
out:
	if (x.disk)
		archive_write_free(x.disk);
	if (x.in)
		archive_read_free(x.in);
	if (x.fd >= 0)
		close(x.fd);
	sb_free(&x.name);
	sb_free(&x.link);
	sb_free(&x.xname);
	sb_free(&x.partial);
	sb_free(&x.backup);
	sb_free(&x.head);
	sb_free(&x.begin);
	free(x.stdin_buf);
	free(x.label);
	keymap_free(&x.links_made);
	return t->diag->status;
}
