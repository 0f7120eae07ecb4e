/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filedata.c: a regular file's contents into the archive.
 *
 * The header promised st_size bytes, so exactly that many are written
 * whatever the file does meanwhile: a file that ends early is padded with
 * zeros ("File shrank by N bytes"), one that grew or whose ctime moved is
 * reported once read ("file changed as we read it"), both with status 1 as
 * in GNU tar. Reads go straight into the output's arena (output.c), so file
 * data is never copied on its way out.
 *
 * With -S in pax format, the holes found with SEEK_DATA/SEEK_HOLE are
 * described in the header; libarchive then expects the whole logical
 * contents but keeps only the data regions, so holes are fed as zeros that
 * cost neither a read nor a copy.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "create.h"

/* Whether st looks sparse: fewer blocks than its size needs. */
static bool looks_sparse(const struct stat *st)
{
	return st->st_size > 0 && (uint64_t)st->st_blocks * 512 < (uint64_t)st->st_size;
}

void filedata_sparse(struct create *cr, const struct sweep_entry *e)
{
	if (!cr->t->opt.sparse || cr->format != FMT_PAX || e->link_first ||
	    !looks_sparse(&e->st))
		return;
	off_t size = e->st.st_size, pos = 0;
	bool any = false;
	while (pos < size) {
		off_t data = lseek(e->fd, pos, SEEK_DATA);
		if (data < 0)
			break;  /* ENXIO: only a hole is left */
		off_t hole = lseek(e->fd, data, SEEK_HOLE);
		if (hole < 0 || hole > size)
			hole = size;
		archive_entry_sparse_add_entry(cr->entry, data, hole - data);
		any = true;
		pos = hole;
	}
	/* A file of holes only is one empty region at its end, as GNU tar has. */
	if (!any)
		archive_entry_sparse_add_entry(cr->entry, size, 0);
	lseek(e->fd, 0, SEEK_SET);
}

/* Write n bytes of zeros. Returns 0 or -1 (fatal, reported). */
static int write_zeros(struct create *cr, const char *name, uint64_t n)
{
	size_t chunk;
	const void *z = out_zeros(&chunk);
	while (n > 0) {
		size_t k = n < chunk ? (size_t)n : chunk;
		la_ssize_t w = archive_write_data(cr->w.a, z, k);
		if (w < 0)
			return create_archive_error(cr, name, ARCHIVE_FATAL);
		n -= k;
	}
	return 0;
}

/* GNU tar's words for a failed read, a warning under --ignore-failed-read. */
static void read_error(struct tar *t, const char *path, off_t at, size_t len, int err)
{
	if (t->opt.ignore_failed_read)
		tar_warn(t, err, "%s: Warning: Read error at byte %jd, while reading %zu bytes",
		         tq(t, 0, path), (intmax_t)at, len);
	else
		tar_error(t, err, "%s: Read error at byte %jd, while reading %zu bytes",
		          tq(t, 0, path), (intmax_t)at, len);
}

/* A read that fails is tried again in pieces this big, so that what can
 * be read before a bad sector is archived, not zeros in its place. */
#define SALVAGE_PIECE 4096

/* Copy up to len bytes from fd at offset off into the archive. Returns the
 * bytes copied (fewer at end of file or after a read error, reported, and
 * then *read_failed set), or -1 after a fatal write error. */
static int64_t copy_range(struct create *cr, const struct sweep_entry *e, off_t off,
                          uint64_t len, bool *read_failed)
{
	uint64_t done = 0;
	size_t cap = SIZE_MAX;
	while (done < len) {
		size_t avail;
		char *buf = out_buffer(&cr->out, len - done, &avail);
		if (!buf)
			return create_archive_error(cr, e->path, ARCHIVE_FATAL);
		if (avail > cap)
			avail = cap;
		ssize_t n = pread(e->fd, buf, avail, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && cap > SALVAGE_PIECE && (errno == EIO || errno == ENODATA)) {
			cap = SALVAGE_PIECE;
			continue;
		}
		if (n < 0) {
			read_error(cr->t, e->path, off + (off_t)done, avail, errno);
			*read_failed = true;
			break;
		}
		if (n == 0)
			break;
		if (archive_write_data(cr->w.a, buf, (size_t)n) < 0)
			return create_archive_error(cr, e->path, ARCHIVE_FATAL);
		out_consume(&cr->out, buf, (size_t)n);
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* Copy the regions of a sparse entry, zeros for the holes between them.
 * Returns the logical bytes done, or -1 (fatal). */
static int64_t copy_sparse(struct create *cr, const struct sweep_entry *e, bool *read_failed)
{
	struct archive_entry *ae = cr->entry;
	la_int64_t off, len;
	uint64_t pos = 0;
	archive_entry_sparse_reset(ae);
	while (archive_entry_sparse_next(ae, &off, &len) == ARCHIVE_OK) {
		if (write_zeros(cr, e->path, (uint64_t)off - pos) < 0)
			return -1;
		int64_t n = copy_range(cr, e, (off_t)off, (uint64_t)len, read_failed);
		if (n < 0)
			return -1;
		pos = (uint64_t)off + (uint64_t)n;
		if (n < len)
			return (int64_t)pos;
	}
	if (write_zeros(cr, e->path, (uint64_t)e->st.st_size - pos) < 0)
		return -1;
	return e->st.st_size;
}

/* e's status now: from its descriptor, or, an empty file the walk did not
 * open (SWEEP_EMPTY_UNOPENED), by its name, as GNU tar looks at one. */
static int status_now(struct create *cr, const struct sweep_entry *e, struct stat *st)
{
	if (e->fd >= 0)
		return fstat(e->fd, st);
	return fstatat(e->dirfd, e->name, st, cr->t->opt.dereference ? 0 : AT_SYMLINK_NOFOLLOW);
}

/* Report what happened to the file while it was read. Returns whether it
 * went into the archive as it was. */
static bool check_changed(struct create *cr, const struct sweep_entry *e, uint64_t done)
{
	struct tar *t = cr->t;
	uint64_t size = (uint64_t)e->st.st_size;
	struct stat now;
	if (done < size) {
		uint64_t left = size - done;
		const char *q = tq(t, 0, e->path);
		/* --ignore-failed-read keeps the note but not the status. */
		int differs = t->opt.ignore_failed_read ? 0 : TAR_DIFFERS;
		if (left == 1)
			tar_note(t, WARN_FILE_SHRANK, "%s: File shrank by %ju byte; padding with zeros",
			         q, (uintmax_t)left);
		else
			tar_note(t, WARN_FILE_SHRANK, "%s: File shrank by %ju bytes; padding with zeros",
			         q, (uintmax_t)left);
		diag_fail(t->diag, differs);
		return false;
	}
	if (status_now(cr, e, &now) < 0) {
		if (e->fd < 0 && errno == ENOENT)
			tar_removed(t, e->path);
		else
			tar_cannot_read(t, e->path, "stat", errno);
		return false;
	}
	if (now.st_ctim.tv_sec != e->st.st_ctim.tv_sec ||
	    now.st_ctim.tv_nsec != e->st.st_ctim.tv_nsec || now.st_size > e->st.st_size) {
		tar_differs(t, WARN_FILE_CHANGED, "%s: file changed as we read it", tq(t, 0, e->path));
		return false;
	}
	return true;
}

int filedata_write(struct create *cr, const struct sweep_entry *e)
{
	uint64_t size = (uint64_t)e->st.st_size;
	bool read_failed = false;
	int64_t done = archive_entry_sparse_count(cr->entry) > 0
	                       ? copy_sparse(cr, e, &read_failed)
	                       : copy_range(cr, e, 0, size, &read_failed);
	if (done < 0)
		return -1;
	if ((uint64_t)done < size && write_zeros(cr, e->path, size - (uint64_t)done) < 0)
		return -1;
	/* after a read error GNU tar pads in silence: the error said it */
	bool same = !read_failed && check_changed(cr, e, (uint64_t)done);
	filedata_keep_atime(cr, e);
	return same;
}

/* --atime-preserve: the file's access time put back, if reading it moved
 * it (libsweep opens files with O_NOATIME where the kernel lets it). */
void filedata_keep_atime(struct create *cr, const struct sweep_entry *e)
{
	struct stat now;
	bool dir = e->kind == SWEEP_DIR_POST;
	/* =system: files are opened with O_NOATIME; directories, read by
	 * libsweep, have theirs put back */
	enum atime_preserve how = cr->t->opt.atime_preserve;
	if (how == ATIME_KEEP_NONE || (how == ATIME_SYSTEM && !dir) || (!dir && e->fd < 0))
		return; /* (an empty file not opened: not read either) */
	int r = dir ? fstatat(e->dirfd, e->name, &now, AT_SYMLINK_NOFOLLOW) : fstat(e->fd, &now);
	if (r < 0 || (now.st_atim.tv_sec == e->st.st_atim.tv_sec &&
	              now.st_atim.tv_nsec == e->st.st_atim.tv_nsec))
		return;
	struct timespec ts[2] = { e->st.st_atim, { 0, UTIME_OMIT } };
	r = dir ? utimensat(e->dirfd, e->name, ts, AT_SYMLINK_NOFOLLOW) : futimens(e->fd, ts);
	if (r < 0)
		tar_cannot(cr->t, e->path, "utime", errno);
}
