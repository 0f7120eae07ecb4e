/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xdata.c: what -x writes besides headers: member contents, to the disk
 * writer in blocks (holes stay holes) or to standard output (-O, holes as
 * zeros); and GNU tar's notes on the times it is about to set.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "extract.h"
#include "output.h"

/* Write n zero bytes to standard output (a hole under -O). */
static int zeros_out(int fd, uint64_t n)
{
	static const char z[65536];
	while (n > 0) {
		size_t k = n < sizeof(z) ? (size_t)n : sizeof(z);
		if (fd_write_all(fd, z, k, NULL) < 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* Report a failed write of the block of len bytes at off of name's data:
 * as GNU tar, "Wrote only N of LEN bytes" when part of it was written
 * (the file's size says how much), else with errno's text, or where the
 * disk writer failed without one (a hard link that carries data to a
 * target that takes none), with the disk writer's words. */
static void write_failed(struct extract *x, const char *name, size_t len, uint64_t off)
{
	const char *why = x->disk ? archive_error_string(x->disk) : NULL;
	struct stat st;
	int err = errno;
	x->write_failed = true;
	/* --to-command: a command that reads no more is no error to GNU tar */
	if (!x->disk && x->pipe_fd != STDOUT_FILENO && err == EPIPE)
		return;
	if (x->disk && lstat(name, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > off && (uint64_t)st.st_size < off + len)
		tar_error(x->t, 0, "%s: Wrote only %ju of %zu bytes", tq(x->t, 0, name),
		          (uintmax_t)((uint64_t)st.st_size - off), len);
	else if (err || !why)
		tar_error(x->t, err, "%s: Cannot write", tq(x->t, 0, name));
	else
		tar_error(x->t, 0, "%s: Cannot write: %s", tq(x->t, 0, name), why);
}

/* Write one block of member data to the file written in place, the disk
 * writer or, under -O, to standard output after the hole before it. Returns 0 or -1 (errno set). */
static int write_block(struct extract *x, const void *buf, size_t len, uint64_t off)
{
	if (x->out_fd >= 0)
		return fd_write_all(x->out_fd, buf, len, &(int64_t){ (int64_t)off });
	if (!x->disk)
		return zeros_out(x->pipe_fd, off - x->written) < 0 ||
		       fd_write_all(x->pipe_fd, buf, len, NULL) < 0 ? -1 : 0;
	/* libarchive says ARCHIVE_WARN, not FAILED, when write(2) fails: any
	 * status but OK is a block not written */
	if (archive_write_data_block(x->disk, buf, len, (la_int64_t)off) == ARCHIVE_OK)
		return 0;
	errno = archive_errno(x->disk);
	return -1;
}

/* Copy the member's data to the disk writer, or to standard output when
 * there is none (-O). x->written is where the data written whole ends and
 * x->write_failed whether a write failed (reported; the rest of the
 * member's data is read and dropped, as GNU tar does). Returns 0, or -1
 * after a fatal read error. */
int xdata_copy(struct extract *x, const char *name, uint64_t size)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;
	x->written = 0;
	x->write_failed = false;
	while ((r = archive_read_data_block(x->in, &buf, &len, &off)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		checkpoint_bytes(x->t, (uint64_t)archive_filter_bytes(x->in, 0), false, true);
		if (x->write_failed || len == 0)
			continue;
		if (write_block(x, buf, len, (uint64_t)off) < 0) {
			write_failed(x, name, len, (uint64_t)off);
			continue;
		}
		x->written = (uint64_t)off + len;
	}
	if (r != ARCHIVE_EOF) {
		/* GNU tar says it twice when the end comes inside a member's
		 * data under -x: once for the short read, once as it gives up */
		if (extract_truncated(x))
			tar_error(x->t, 0, "Unexpected EOF in archive");
		extract_read_failed(x);
		return -1;
	}
	if (!x->disk && !x->write_failed && x->written < size) {
		if (zeros_out(x->pipe_fd, size - x->written) < 0)
			write_failed(x, name, 0, 0);
	}
	return 0;
}

/* The disk writer is given no size for regular files (extract.c), so that
 * a file it could not write whole is left short instead of being extended
 * with zeros to look whole; a file whose data ends in a hole gets its size
 * here, once all its data is written: by ftruncate, as GNU tar does, or
 * where the file cannot be opened again (no write permission), from a last
 * zero byte written through the disk writer. */
int xdata_extend(struct extract *x, const char *name, uint64_t size)
{
	static const char zero;
	if (x->write_failed || x->written >= size)
		return 0;
	int fd = open(name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		struct stat st;
		bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		          ftruncate(fd, (off_t)size) == 0;
		int err = errno;
		close(fd);
		if (ok)
			return 0;
		errno = err;
	} else if (write_block(x, &zero, 1, size - 1) == 0) {
		return 0;
	}
	write_failed(x, name, 0, 0);
	return -1;
}

/* Called after the disk writer is closed (closing finishes the entry and
 * gives it the archive's mode and times). */
void xdata_mark_partial(struct extract *x)
{
	struct stat st;
	const char *name = x->partial.s;
	if (!x->partial.len || lstat(name, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	/* neither follows a link, should one have taken the file's place */
	if (fchmodat(AT_FDCWD, name, S_IRUSR | S_IWUSR, AT_SYMLINK_NOFOLLOW) < 0)
		tar_cannot(x->t, name, "change mode", errno);
	if (utimensat(AT_FDCWD, name, NULL, AT_SYMLINK_NOFOLLOW) < 0)
		tar_cannot(x->t, name, "utime", errno);
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
void xdata_check_time(struct tar *t, struct archive_entry *e, const char *name)
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
