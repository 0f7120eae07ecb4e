/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scan.c: the members of an archive file, with where each begins and ends,
 * for the operations that change an archive in place (-r, -u, -A,
 * --delete). libarchive's reader finds them (it knows every kind of
 * extended header); archive_read_header_position() says where each member's
 * headers begin, so a member runs from there to where the next begins, and
 * the last to the end-of-archive blocks, where -r writes. The headers it
 * passes over without a word (a volume label, a pax global header) count
 * there as part of the member after them: they are read again here, to be
 * what GNU tar makes of them, members of their own.
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

enum { BLOCK = 512, NAME_LEN = 100, SIZE_AT = 124, MTIME_AT = 136, TYPE_AT = 156, MAGIC_AT = 257 };

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

static int add_member(struct scan *s, char *name, int64_t start, enum scan_kind kind)
{
	if (!name)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct scan_member *v = reallocarray(s->v, cap, sizeof(*v));
		if (!v) {
			free(name);
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct scan_member){ .name = name, .start = start, .end = start, .kind = kind };
	return 0;
}

/* The size field of header h, rounded up to whole blocks. */
static int64_t data_blocks(const unsigned char *h)
{
	char field[13] = { 0 };
	memcpy(field, h + SIZE_AT, 12);
	long long size = strtoll(field, NULL, 8);
	return size > 0 ? (size + BLOCK - 1) / BLOCK * BLOCK : 0;
}

static bool all_zero(const unsigned char *h)
{
	for (int i = 0; i < BLOCK; i++)
		if (h[i])
			return false;
	return true;
}

static bool extended_type(unsigned char type)
{
	return type == 'L' || type == 'K' || type == 'x' || type == 'X';
}

/* The format GNU tar reads in a member's header h (decode_header): ustar
 * is posix when the member has an extended header of its own. */
static enum tar_format header_format(const unsigned char *h, bool pax)
{
	if (memcmp(h + MAGIC_AT, "ustar\0", 6) == 0)
		return pax ? FMT_PAX : FMT_USTAR;
	if (memcmp(h + MAGIC_AT, "ustar  \0", 8) == 0)
		return FMT_GNU;
	return FMT_V7;
}

/* Read the block at off of fd into h. Returns 1, 0 at the file's end, or
 * -1 (fatal, reported). */
static int read_block(struct tar *t, int fd, int64_t off, unsigned char *h)
{
	ssize_t n = pread(fd, h, BLOCK, off);
	if (n == BLOCK)
		return 1;
	if (n >= 0)
		return 0;
	tar_fatal(t, errno, "%s: Read error", tq(t, 0, t->opt.archive));
	return -1;
}

/* The headers libarchive passes over from *at: a volume label and a global
 * header are members of their own to GNU tar; zero blocks (-i, between
 * members) belong to none. Returns 1 with the next header in h and *at
 * where it is, 0 at a zero block (unless skip_zeros) or the file's end, or
 * -1 (fatal, reported). */
static int add_passed(struct tar *t, int fd, struct scan *s, int64_t *at, unsigned char *h,
                      bool skip_zeros)
{
	for (;; *at += BLOCK + data_blocks(h)) {
		int r = read_block(t, fd, *at, h);
		if (r <= 0)
			return r;
		if (all_zero(h)) {
			if (!skip_zeros)
				return 0;
			continue;
		}
		if (h[TYPE_AT] != 'V' && h[TYPE_AT] != 'g')
			return 1;
		bool label = h[TYPE_AT] == 'V';
		if (add_member(s, strndup((const char *)h, label ? NAME_LEN : 0), *at,
		               label ? SCAN_LABEL : SCAN_GLOBAL) < 0) {
			tar_fatal(t, ENOMEM, "memory exhausted");
			return -1;
		}
		struct scan_member *m = &s->v[s->n - 1];
		m->end = *at + BLOCK + data_blocks(h);
		m->format = header_format(h, false);
		m->mtime.tv_sec = (time_t)strtoll((const char *)h + MTIME_AT, NULL, 8);
	}
}

/* Entry e, whose headers libarchive read from at: what it passed over
 * first, then the entry, with the format of its own headers. Returns 0, or
 * -1 (fatal, reported). */
static int add_headers(struct tar *t, int fd, struct scan *s, struct archive_entry *e, int64_t at)
{
	unsigned char h[BLOCK];
	int r = add_passed(t, fd, s, &at, h, true);
	int64_t start = at;
	bool extended = r > 0 && extended_type(h[TYPE_AT]), pax = false;
	while (r > 0 && extended_type(h[TYPE_AT])) {
		pax = pax || h[TYPE_AT] == 'x' || h[TYPE_AT] == 'X';
		at += BLOCK + data_blocks(h);
		r = read_block(t, fd, at, h);
	}
	if (r == 0)
		tar_fatal(t, 0, "Unexpected EOF in archive");
	if (r <= 0)
		return -1;
	const char *name = archive_entry_pathname(e);
	if (add_member(s, strdup(name ? name : ""), start, SCAN_FILE) < 0) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return -1;
	}
	struct scan_member *m = &s->v[s->n - 1];
	m->format = header_format(h, pax);
	m->extended = extended;
	m->mtime = (struct timespec){ archive_entry_mtime(e), archive_entry_mtime_nsec(e) };
	return 0;
}

/* The reader of a has failed, in GNU tar's words. A file with no tar
 * header at all is no error to GNU tar, that skips it looking for one
 * (with a word when it holds a block) and writes after it: *s says so.
 * Returns 0 then, else -1 (fatal, reported). */
static int read_failed(struct tar *t, struct archive *a, struct scan *s)
{
	const char *msg = archive_error_string(a);
	bool unknown = archive_errno(a) == EILSEQ || (msg && strstr(msg, "Unrecognized"));
	if (unknown && s->n == 0) {
		if (s->size >= BLOCK) {
			tar_warn(t, 0, "This does not look like a tar archive");
			tar_error(t, 0, "Skipping to next header");
		}
		s->eof = s->size;
		s->not_tar = true;
		return 0;
	}
	if (msg && strstr(msg, "runcated"))
		tar_fatal(t, 0, "Unexpected EOF in archive");
	else if (unknown)
		tar_fatal(t, 0, "This does not look like a tar archive");
	else
		tar_fatal(t, 0, "%s", msg ? msg : "read error");
	return -1;
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
	if (lseek(fd, 0, SEEK_SET) != 0) {
		tar_fatal(t, errno, "%s: Cannot seek", tq(t, 0, t->opt.archive));
		goto out;
	}
	if (archive_read_open_fd(a, fd, t->opt.record_size) != ARCHIVE_OK) {
		rc = read_failed(t, a, s);
		goto out;
	}
	struct archive_entry *e;
	int r;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		int64_t at = archive_read_header_position(a);
		if (s->n)
			s->v[s->n - 1].end = at;
		if (add_headers(t, fd, s, e, at) < 0)
			goto out;
	}
	if (r != ARCHIVE_EOF) {
		rc = read_failed(t, a, s);
		goto out;
	}
	/* a label or global header may be all there is after the last entry */
	int64_t at = archive_read_header_position(a);
	if (s->n)
		s->v[s->n - 1].end = at;
	unsigned char h[BLOCK];
	if (add_passed(t, fd, s, &at, h, false) < 0)
		goto out;
	s->eof = at;
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
