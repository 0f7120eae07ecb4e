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
#include "tar.h"

struct extract {
	struct tar *t;
	struct archive *in;
	struct archive *disk;   /* NULL for -t and -O */
	struct archive_entry *current;
	int fd;                 /* the archive's descriptor, -1 when not opened */
	struct strbuf name;     /* the member name after --strip-components */
	struct strbuf link;
};

/* name without its first n components; NULL when nothing is left. */
static const char *strip(const char *name, int n)
{
	for (; n > 0; n--) {
		const char *slash = strchr(name, '/');
		if (!slash)
			return NULL;
		name = slash + 1;
		while (*name == '/')
			name++;
	}
	return *name ? name : NULL;
}

static int disk_options(const struct tar_opts *o)
{
	int f = ARCHIVE_EXTRACT_SECURE_SYMLINKS;
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

/* Whether libarchive said the input is no tar archive at all. */
static bool not_tar(struct archive *a)
{
	const char *msg = archive_error_string(a);
	return archive_errno(a) == EILSEQ || (msg && strstr(msg, "Unrecognized archive format"));
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
	x->in = archive_read_new();
	if (!x->in) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	archive_read_support_filter_all(x->in);
	archive_read_support_format_tar(x->in);
	int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (!is_stdin)
		x->fd = fd;
	if (fd < 0) {
		tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, name));
		return -1;
	}
	if (archive_read_open_fd(x->in, fd, t->opt.record_size) != ARCHIVE_OK) {
		if (not_tar(x->in))
			tar_error(t, 0, "This does not look like a tar archive");
		else
			tar_fatal(t, 0, "%s", archive_error_string(x->in));
		return -1;
	}
	return 0;
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
	if (t->opt.mode != MODE_EXTRACT || t->opt.to_stdout)
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

/* Whether --exclude leaves name out; a directory's trailing '/' is not
 * part of what patterns see. */
static bool excluded(struct tar *t, const char *name)
{
	if (!t->opt.exclude.n)
		return false;
	size_t n = strlen(name);
	if (n < 2 || name[n - 1] != '/')
		return exclude_match(&t->opt.exclude, name);
	char *copy = strndup(name, n - 1);
	bool r = copy ? exclude_match(&t->opt.exclude, copy) : false;
	free(copy);
	return r;
}

/* The name a member is listed or extracted as, or NULL when it is left
 * out: not selected, excluded, stripped to nothing, or unsafe. */
static const char *member_name(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_pathname(e);
	bool dotdot;
	if (!raw)
		return NULL;
	const char *safe = safename(t, raw, false, &dotdot);
	if (dotdot && t->opt.mode == MODE_EXTRACT) {
		tar_error(t, 0, "%s: Member name contains '..'", tq(t, 0, raw));
		return NULL;
	}
	if (!members_select(t, safe) || excluded(t, safe))
		return NULL;
	const char *s = strip(safe, t->opt.strip);
	sb_reset(&x->name);
	if (!s || sb_addstr(&x->name, s) < 0)
		return NULL;
	return x->name.s;
}

/* Make a hard link's target safe and stripped like member names. Returns
 * false when the member is to be left out. */
static bool fix_hardlink(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *raw = archive_entry_hardlink(e);
	bool dotdot;
	if (!raw)
		return true;
	const char *safe = safename(t, raw, true, &dotdot);
	if (dotdot && t->opt.mode == MODE_EXTRACT) {
		tar_error(t, 0, "%s: Member name contains '..'", tq(t, 0, raw));
		return false;
	}
	const char *s = strip(safe, t->opt.strip);
	if (!s) {
		/* GNU tar tries the empty name, and says so. */
		tar_error(t, ENOENT, "%s: Cannot hard link to %s", tq(t, 0, x->name.s),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, ""));
		return false;
	}
	sb_reset(&x->link);
	if (sb_addstr(&x->link, s) < 0)
		return false;
	archive_entry_copy_hardlink(e, x->link.s);
	return true;
}

/* A failed read of the archive: fatal, in GNU tar's words where it has them. */
static void read_failed(struct extract *x)
{
	const char *msg = archive_error_string(x->in);
	if (msg && strstr(msg, "runcated"))
		tar_fatal(x->t, 0, "Unexpected EOF in archive");
	else
		tar_fatal(x->t, 0, "%s", msg ? msg : "read error");
}

/* Write n zero bytes to standard output (a hole under -O). */
static int zeros_out(uint64_t n)
{
	static const char z[65536];
	while (n > 0) {
		size_t k = n < sizeof(z) ? (size_t)n : sizeof(z);
		ssize_t w = write(STDOUT_FILENO, z, k);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		n -= (uint64_t)w;
	}
	return 0;
}

/* Write len bytes at p to standard output. */
static int write_out(const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(STDOUT_FILENO, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Copy the member's data to the disk writer, or to standard output when
 * there is none (-O). Returns 0, or -1 after a fatal read error. */
static int copy_data(struct extract *x, const char *name, uint64_t size)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	uint64_t pos = 0;
	bool failed = false;
	int r;
	while ((r = archive_read_data_block(x->in, &buf, &len, &off)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		if (failed)
			continue;
		if (x->disk) {
			failed = archive_write_data_block(x->disk, buf, len, off) < ARCHIVE_WARN;
		} else {
			failed = zeros_out((uint64_t)off - pos) < 0 || write_out(buf, len) < 0;
			pos = (uint64_t)off + len;
		}
		if (failed)
			tar_error(x->t, x->disk ? archive_errno(x->disk) : errno,
			          "%s: Cannot write", tq(x->t, 0, name));
	}
	if (r != ARCHIVE_EOF) {
		read_failed(x);
		return -1;
	}
	if (!x->disk && !failed && pos < size && zeros_out(size - pos) < 0)
		tar_error(x->t, errno, "%s: Cannot write", tq(x->t, 0, name));
	return 0;
}

/* Report a failure of the disk writer on name. */
static void disk_failed(struct extract *x, const char *name, int r)
{
	struct tar *t = x->t;
	int err = archive_errno(x->disk);
	const char *msg = archive_error_string(x->disk);
	if (r == ARCHIVE_WARN) {
		tar_warn(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "warning");
		return;
	}
	const char *link = archive_entry_hardlink(x->current);
	struct stat st;
	if (link && r != ARCHIVE_FATAL && lstat(link, &st) < 0)
		tar_error(t, errno, "%s: Cannot hard link to %s", tq(t, 0, name),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, link));
	else if (err == EEXIST)
		tar_cannot(t, name, "open", err);
	else
		tar_error(t, 0, "%s: %s", tq(t, 0, name), msg ? msg : "Cannot open");
	if (r == ARCHIVE_FATAL)
		t->fatal = true;
}

/* "2100-01-01 00:00:00" or "1960-01-01 00:00:00.5": GNU tar's full times. */
static void full_time(time_t sec, long nsec, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&sec, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)sec);
		return;
	}
	if (nsec) {
		size_t n = strlen(buf);
		snprintf(buf + n, size - n, ".%09ld", nsec);
		for (n = strlen(buf); buf[n - 1] == '0'; n--)
			buf[n - 1] = 0;
	}
}

/* GNU tar's notes on times it is about to set: before 1970, or in the
 * future. */
static void check_time(struct tar *t, struct archive_entry *e, const char *name)
{
	time_t sec = archive_entry_mtime(e);
	long nsec = archive_entry_mtime_nsec(e);
	char when[64];
	struct timespec now;
	if (sec < 0) {
		full_time(sec, nsec, when, sizeof(when));
		tar_note(t, WARN_TIMESTAMP, "%s: implausibly old time stamp %s", tq(t, 0, name), when);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	if (sec < now.tv_sec || (sec == now.tv_sec && nsec <= now.tv_nsec))
		return;
	intmax_t ds = (intmax_t)sec - now.tv_sec;
	long dn = nsec - now.tv_nsec;
	if (dn < 0) {
		ds--;
		dn += 1000000000L;
	}
	full_time(sec, nsec, when, sizeof(when));
	tar_note(t, WARN_TIMESTAMP, "%s: time stamp %s is %jd.%09ld s in the future", tq(t, 0, name), when,
	         ds, dn);
}

/* Extract (or list) one member. Returns -1 when the archive cannot go on. */
static int one_member(struct extract *x, struct archive_entry *e)
{
	struct tar *t = x->t;
	const char *name = member_name(x, e);
	if (!name)
		return 0;
	/* GNU tar lists members by the names the archive gives them. */
	if (t->opt.mode == MODE_LIST || t->opt.verbose)
		listing_print(t, e, archive_entry_pathname(e));
	if (t->opt.mode == MODE_LIST || !fix_hardlink(x, e))
		return 0;
	uint64_t size = archive_entry_size_is_set(e) ? (uint64_t)archive_entry_size(e) : 0;
	if (!x->disk)
		return archive_entry_filetype(e) == AE_IFREG && !archive_entry_hardlink(e)
		               ? copy_data(x, name, size) : 0;
	struct stat st;
	/* libarchive's NO_OVERWRITE skips in silence; GNU tar's -k says so. */
	if (t->opt.keep_old && archive_entry_filetype(e) != AE_IFDIR && lstat(name, &st) == 0) {
		tar_cannot(t, name, "open", EEXIST);
		return 0;
	}
	if (!t->opt.touch)
		check_time(t, e, name);
	archive_entry_copy_pathname(e, name);
	x->current = e;
	int r = archive_write_header(x->disk, e);
	if (r != ARCHIVE_OK)
		disk_failed(x, name, r);
	if (r >= ARCHIVE_WARN && size > 0 && copy_data(x, name, size) < 0)
		return -1;
	r = archive_write_finish_entry(x->disk);
	if (r != ARCHIVE_OK)
		disk_failed(x, name, r);
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
		if (r == ARCHIVE_WARN) {
			if (!conversion_note(x->in))
				tar_warn(x->t, 0, "%s", archive_error_string(x->in));
		} else if (r == ARCHIVE_RETRY) {
			continue;
		} else if (r != ARCHIVE_OK) {
			if (first && not_tar(x->in))
				tar_error(x->t, 0, "This does not look like a tar archive");
			else
				read_failed(x);
			return;
		}
		first = false;
		if (one_member(x, e) < 0)
			return;
		if (archive_entry_filetype(e) != AE_IFDIR)
			x->t->files++;
		if (x->t->progress)
			progress_update(x->t->progress, x->t->files,
			                (uint64_t)archive_filter_bytes(x->in, -1));
	}
}

/* What GNU tar's --totals counts: the tar stream read, in whole records. */
static uint64_t records_read(struct extract *x)
{
	uint64_t n = (uint64_t)archive_filter_bytes(x->in, 0), r = x->t->opt.record_size;
	return (n + r - 1) / r * r;
}

int tar_extract(struct tar *t)
{
	struct extract x = { .t = t, .fd = -1 };
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (t->opt.to_stdout || t->opt.mode == MODE_LIST)
		t->listing = t->opt.to_stdout ? stderr : stdout;
	if (open_input(&x) < 0 || change_dirs(t) < 0 || open_disk(&x) < 0)
		goto out;
	if (t->opt.progress)
		t->progress = progress_start();
	read_members(&x);
	progress_end(t->progress);
	t->progress = NULL;
	if (x.disk && archive_write_close(x.disk) != ARCHIVE_OK)
		tar_error(t, 0, "%s", archive_error_string(x.disk));
	if (!t->fatal)
		members_report_missing(t);
	if (t->opt.totals && !t->fatal)
		totals_print("Total bytes read", records_read(&x), &start);
out:
	if (x.disk)
		archive_write_free(x.disk);
	if (x.in)
		archive_read_free(x.in);
	if (x.fd >= 0)
		close(x.fd);
	sb_free(&x.name);
	sb_free(&x.link);
	return t->diag->status;
}
