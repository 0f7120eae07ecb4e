/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scan.c: the members of an archive file, with where each begins and ends,
 * for the operations that change an archive in place (-r, -u, -A,
 * --delete). libarchive's reader finds them (it knows every kind of
 * extended header); archive_read_header_position() says where each member's
 * headers begin, so a member runs from there to where the next begins, and
 * the last to the end-of-archive blocks, where -r writes.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "update.h"

enum { BLOCK = 512 };

/* Whether a tar header's checksum is right (as GNU tar tells a tar
 * archive from a compressed one). */
static bool tar_header(const unsigned char *h)
{
	unsigned sum = 0;
	long stored = 0;
	int digits = 0;
	for (int i = 0; i < BLOCK; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	for (int i = 148; i < 156; i++) {
		if (h[i] >= '0' && h[i] <= '7') {
			stored = stored * 8 + (h[i] - '0');
			digits++;
		} else if (digits && (h[i] == ' ' || h[i] == 0)) {
			break;
		}
	}
	return digits && (unsigned long)stored == sum;
}

bool scan_compressed(const unsigned char *buf, size_t len)
{
	static const struct { size_t len; const char *magic; } magics[] = {
		{ 2, "\037\235" }, { 2, "\037\213" }, { 3, "BZh" }, { 4, "LZIP" },
		{ 5, "\377LZMA" }, { 4, "\211LZO" }, { 6, "\3757zXZ\0" }, { 4, "\x28\xB5\x2F\xFD" },
	};
	if (len >= BLOCK && tar_header(buf))
		return false;
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len >= magics[i].len && memcmp(buf, magics[i].magic, magics[i].len) == 0)
			return true;
	return false;
}

int scan_open(struct tar *t, const char *name)
{
	int fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, name));
		return -1;
	}
	unsigned char first[BLOCK];
	ssize_t n = pread(fd, first, sizeof(first), 0);
	if (n > 0 && scan_compressed(first, (size_t)n)) {
		tar_fatal(t, 0, "Cannot update compressed archives");
		close(fd);
		return -1;
	}
	return fd;
}

static int add_member(struct scan *s, struct archive_entry *e, int64_t start, bool ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct scan_member *v = reallocarray(s->v, cap, sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	const char *name = archive_entry_pathname(e);
	char *copy = strdup(name ? name : "");
	if (!copy)
		return -1;
	s->v[s->n++] = (struct scan_member){
		.name = copy, .start = start, .end = start, .ns = ns,
		.mtime = { archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
	};
	return 0;
}

/* Whether the block at off of fd is all zeros. */
static bool zero_block(int fd, int64_t off)
{
	unsigned char b[BLOCK];
	if (pread(fd, b, BLOCK, off) != BLOCK)
		return false;
	for (int i = 0; i < BLOCK; i++)
		if (b[i])
			return false;
	return true;
}

/* Under -i the reader passes zero blocks without a word: they belong to no
 * member, and GNU tar keeps none of them. */
static void skip_zeros(int fd, struct scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		while (s->v[i].start + BLOCK <= s->v[i].end && zero_block(fd, s->v[i].start))
			s->v[i].start += BLOCK;
}

int scan_members(struct tar *t, int fd, struct scan *s, bool ignore_zeros)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		tar_fatal(t, errno, "%s: Cannot stat", tq(t, 0, t->opt.archive));
		return -1;
	}
	s->size = st.st_size;
	s->eof = 0;
	if (st.st_size == 0)
		return 0;
	struct archive *a = archive_read_new();
	if (!a) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	archive_read_support_format_tar(a);
	if (ignore_zeros)
		archive_read_set_options(a, "tar:read_concatenated_archives");
	int rc = -1;
	if (lseek(fd, 0, SEEK_SET) != 0 ||
	    archive_read_open_fd(a, fd, t->opt.record_size) != ARCHIVE_OK) {
		tar_fatal(t, 0, "%s", archive_error_string(a));
		goto out;
	}
	struct archive_entry *e;
	int r;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		int64_t at = archive_read_header_position(a);
		if (s->n)
			s->v[s->n - 1].end = at;
		bool ns = archive_format(a) == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE;
		if (add_member(s, e, at, ns) < 0) {
			tar_fatal(t, ENOMEM, "memory exhausted");
			goto out;
		}
	}
	if (r != ARCHIVE_EOF) {
		const char *msg = archive_error_string(a);
		if (msg && strstr(msg, "runcated"))
			tar_fatal(t, 0, "Unexpected EOF in archive");
		else if (archive_errno(a) == EILSEQ || (msg && strstr(msg, "Unrecognized")))
			tar_fatal(t, 0, "This does not look like a tar archive");
		else
			tar_fatal(t, 0, "%s", msg ? msg : "read error");
		goto out;
	}
	s->eof = archive_read_header_position(a);
	if (s->n)
		s->v[s->n - 1].end = s->eof;
	if (ignore_zeros)
		skip_zeros(fd, s);
	rc = 0;
out:
	archive_read_free(a);
	return rc;
}

void scan_free(struct scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	*s = (struct scan){ 0 };
}
