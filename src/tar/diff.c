/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * diff.c: -d (--diff, --compare) and -W (--verify): each member compared
 * with the file of its name, as GNU tar compares them, each difference said
 * on the listing's stream ("NAME: Mod time differs") and the status 1. A
 * file that is not there is a warning ("Warning: Cannot stat"), a
 * difference all the same; one that cannot be looked at, an error (2).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"

#define MODE_ALL 07777

/* "NAME: what" on the listing's stream (none for NULL), and the status 1. */
static void differs(struct extract *x, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void differs(struct extract *x, const char *name, const char *fmt, ...)
{
	struct tar *t = x->t;
	if (fmt) {
		va_list ap;
		fflush(stdout);
		fprintf(t->listing, "%s: ", tq(t, 0, name));
		va_start(ap, fmt);
		vfprintf(t->listing, fmt, ap);
		va_end(ap);
		fputc('\n', t->listing);
	}
	diag_fail(t->diag, TAR_DIFFERS);
}

/* Whether a file not there (err) went by --remove-files: under -W, GNU
 * tar says nothing of it. */
static bool removed_by_us(const struct tar *t, int err)
{
	return err == ENOENT && t->verifying && t->opt.remove_files;
}

/* stat or, without -h, lstat name: a missing file is a warning, any other
 * failure an error; both a difference. Returns whether st was filled. */
static bool stat_file(struct extract *x, const char *name, struct stat *st)
{
	struct tar *t = x->t;
	int r = t->opt.dereference ? stat(name, st) : lstat(name, st);
	if (r == 0)
		return true;
	if (removed_by_us(t, errno))
		return false;
	if (errno == ENOENT)
		tar_warn(t, errno, "%s: Warning: Cannot stat", tq(t, 0, name));
	else
		tar_cannot(t, name, "stat", errno);
	differs(x, name, NULL);
	return false;
}

/* The member's owner as GNU tar reads it: the name's id here, unless
 * --numeric-owner or the name is unknown. */
static uid_t member_uid(const struct tar *t, struct archive_entry *e)
{
	const char *name = archive_entry_uname(e);
	struct passwd *pw = !t->opt.numeric_owner && name && *name ? getpwnam(name) : NULL;
	return pw ? pw->pw_uid : (uid_t)archive_entry_uid(e);
}

static gid_t member_gid(const struct tar *t, struct archive_entry *e)
{
	const char *name = archive_entry_gname(e);
	struct group *gr = !t->opt.numeric_owner && name && *name ? getgrnam(name) : NULL;
	return gr ? gr->gr_gid : (gid_t)archive_entry_gid(e);
}

/* Whether the file's time differs from the member's, to the nanosecond
 * only when the archive's format keeps them. */
static bool mtime_differs(struct extract *x, struct archive_entry *e, const struct stat *st)
{
	bool ns = archive_format(x->in) == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE;
	if (st->st_mtim.tv_sec != archive_entry_mtime(e))
		return true;
	return ns && st->st_mtim.tv_nsec != archive_entry_mtime_nsec(e);
}

static bool mode_differs(struct archive_entry *e, const struct stat *st)
{
	return (archive_entry_mode(e) & MODE_ALL) != (st->st_mode & MODE_ALL);
}

/* Whether the len bytes at buf are zeros. */
static bool all_zeros(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i])
			return false;
	return true;
}

/* Read len bytes of fd at off into buf; a short read says "Could only
 * read". Returns false after a difference or an error (reported). */
static bool read_file(struct extract *x, const char *name, int fd, char *buf, size_t len,
                      int64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, off + (int64_t)got);
		/* a FIFO in the file's place: read as GNU tar reads it */
		if (n < 0 && errno == ESPIPE)
			n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tar_error(x->t, errno, "%s: Read error at byte %jd, while reading %zu bytes",
			          tq(x->t, 0, name), (intmax_t)(off + (int64_t)got), len - got);
			differs(x, name, NULL);
			return false;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got < len) {
		differs(x, name, len == 1 ? "Could only read %zu of %zu byte"
		                          : "Could only read %zu of %zu bytes", got, len);
		return false;
	}
	return true;
}

/* Compare the member's data with fd's, holes with zeros. Returns 0, or
 * -1 after a fatal read error of the archive. */
static int compare_data(struct extract *x, const char *name, int fd, uint64_t size)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;
	uint64_t pos = 0;
	bool same = true;
	static char mine[65536];
	while (same && (r = archive_read_data_block(x->in, &buf, &len, &off)) == ARCHIVE_OK) {
		/* a hole before the block: the file's bytes must be zeros */
		while (same && pos < (uint64_t)off) {
			size_t k = (uint64_t)off - pos < sizeof(mine) ? (size_t)((uint64_t)off - pos) : sizeof(mine);
			if (!read_file(x, name, fd, mine, k, (int64_t)pos))
				return 0;
			same = all_zeros(mine, k);
			pos += k;
		}
		for (size_t done = 0; same && done < len;) {
			size_t k = len - done < sizeof(mine) ? len - done : sizeof(mine);
			if (!read_file(x, name, fd, mine, k, off + (int64_t)done))
				return 0;
			same = memcmp(mine, (const char *)buf + done, k) == 0;
			done += k;
		}
		pos = (uint64_t)off + len;
	}
	if (same && r != ARCHIVE_EOF) {
		extract_read_failed(x);
		return -1;
	}
	while (same && pos < size) {
		size_t k = size - pos < sizeof(mine) ? (size_t)(size - pos) : sizeof(mine);
		if (!read_file(x, name, fd, mine, k, (int64_t)pos))
			return 0;
		same = all_zeros(mine, k);
		pos += k;
	}
	if (!same)
		differs(x, name, "Contents differ");
	return 0;
}

static int diff_file(struct extract *x, struct archive_entry *e, const char *name)
{
	struct tar *t = x->t;
	struct stat st;
	if (!stat_file(x, name, &st))
		return 0;
	if (!S_ISREG(st.st_mode)) {
		differs(x, name, "File type differs");
		return 0;
	}
	if (mode_differs(e, &st))
		differs(x, name, "Mode differs");
	if (st.st_uid != member_uid(t, e))
		differs(x, name, "Uid differs");
	if (st.st_gid != member_gid(t, e))
		differs(x, name, "Gid differs");
	if (mtime_differs(x, e, &st))
		differs(x, name, "Mod time differs");
	uint64_t size = (uint64_t)archive_entry_size(e);
	if ((uint64_t)st.st_size != size) {
		differs(x, name, "Size differs");
		return 0;
	}
	/* as GNU tar: a FIFO put in the file's place since the stat must
	 * not hold the run up, nor a terminal become ours */
	int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW * !t->opt.dereference;
	if (t->opt.atime_preserve == ATIME_SYSTEM)
		flags |= O_NOATIME;
	int fd = open(name, flags);
	if (fd < 0 && errno == EPERM && (flags & O_NOATIME))
		fd = open(name, flags & ~O_NOATIME);
	if (fd < 0) {
		tar_cannot(t, name, "open", errno);
		differs(x, name, NULL);
		return 0;
	}
	int r = compare_data(x, name, fd, size);
	if (t->opt.atime_preserve == ATIME_REPLACE) {
		struct timespec ts[2] = { st.st_atim, { 0, UTIME_OMIT } };
		if (futimens(fd, ts) < 0)
			tar_cannot(t, name, "utime", errno);
	}
	close(fd);
	return r;
}

static void diff_dir(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st;
	if (!stat_file(x, name, &st))
		return;
	if (!S_ISDIR(st.st_mode))
		differs(x, name, "File type differs");
	else if (mode_differs(e, &st))
		differs(x, name, "Mode differs");
}

static void diff_link(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st, target;
	const char *link = archive_entry_hardlink(e);
	if (stat_file(x, name, &st) && stat_file(x, link, &target) &&
	    (st.st_dev != target.st_dev || st.st_ino != target.st_ino))
		differs(x, name, "Not linked to %s", tq(x->t, 1, link));
}

static void diff_symlink(struct extract *x, struct archive_entry *e, const char *name)
{
	struct tar *t = x->t;
	const char *want = archive_entry_symlink(e);
	size_t len = strlen(want);
	char *buf = malloc(len + 2);
	if (!buf) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return;
	}
	ssize_t n = readlink(name, buf, len + 1);
	if (n < 0 && removed_by_us(t, errno)) {
		free(buf);
		return;
	}
	if (n < 0) {
		if (errno == ENOENT)
			tar_warn(t, errno, "%s: Warning: Cannot readlink", tq(t, 0, name));
		else
			tar_cannot(t, name, "readlink", errno);
		differs(x, name, NULL);
	} else if ((size_t)n != len || memcmp(buf, want, len) != 0) {
		differs(x, name, "Symlink differs");
	}
	free(buf);
}

static void diff_special(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st;
	mode_t type = archive_entry_filetype(e);
	if (!stat_file(x, name, &st))
		return;
	if ((st.st_mode & S_IFMT) != type) {
		differs(x, name, "File type differs");
		return;
	}
	if ((type == AE_IFCHR || type == AE_IFBLK) && st.st_rdev != archive_entry_rdev(e)) {
		differs(x, name, "Device number differs");
		return;
	}
	if (mode_differs(e, &st))
		differs(x, name, "Mode differs");
}

int diff_member(struct extract *x, struct archive_entry *e, const char *name)
{
	if (archive_entry_hardlink(e)) {
		diff_link(x, e, name);
		return 0;
	}
	switch (archive_entry_filetype(e)) {
	case AE_IFDIR: {
		/* GNU tar names a directory without its trailing '/' */
		struct tar *t = x->t;
		size_t n = names_bare_len(name);
		if (sb_reset(&x->xname), sb_add(&x->xname, name, n) < 0) {
			tar_fatal(t, ENOMEM, "memory exhausted");
			return -1;
		}
		diff_dir(x, e, x->xname.s);
		return 0;
	}
	case AE_IFLNK: diff_symlink(x, e, name); return 0;
	case AE_IFCHR:
	case AE_IFBLK:
	case AE_IFIFO: diff_special(x, e, name); return 0;
	}
	return diff_file(x, e, name);
}

int tar_verify(struct tar *t)
{
	/* every member, as written: the names chose what went in */
	struct tar_names *ns = &t->opt.names;
	size_t k = 0;
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->v[i].chdir)
			ns->v[k++] = ns->v[i];
		else
			free(ns->v[i].name);
	}
	ns->n = k;
	t->opt.mode = MODE_DIFF;
	t->verifying = true;
	t->opt.totals = false;
	if (t->prefixes.len) {
		tar_warn(t, 0, "Archive contains file names with leading prefixes removed.");
		tar_warn(t, 0, "Verification may fail to locate original files.");
	}
	return tar_extract(t);
}
