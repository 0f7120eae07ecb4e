/*
 * xdata.c: what -x writes besides headers: member contents, to the disk
 * writer in blocks (holes stay holes) or to standard output (-O, holes as
 * zeros); and GNU tar's notes on the times it is about to set.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "extract.h"

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
int xdata_copy(struct extract *x, const char *name, uint64_t size)
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
		extract_read_failed(x);
		return -1;
	}
	if (!x->disk && !failed && pos < size && zeros_out(size - pos) < 0)
		tar_error(x->t, errno, "%s: Cannot write", tq(x->t, 0, name));
	return 0;
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
