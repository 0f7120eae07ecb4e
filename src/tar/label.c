/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * label.c: -V (--label), GNU tar's volume label. On create it is the
 * archive's first block, as GNU tar writes it: a 'V' header holding only
 * the label, its time and checksum; in the posix format a global extended
 * header ("/tmp/GlobalHead.1") with a GNU.volume.label record (and the
 * keyword=value records of --pax-option, paxhdr.c). On reading,
 * libarchive passes over both, so the first blocks are read here once
 * more (from the archive file, or from standard input's first bytes, kept
 * as they go to the reader: a pipe cannot be read twice): -t and -v
 * list the label first (a posix one before the first member that has an
 * extended header, as GNU tar does), and -V PATTERN ends the run unless
 * the label matches, in GNU tar's words.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "create.h"
#include "extract.h"
#include "paxopt.h"
#include "update.h"

enum { BLOCK = 512, NAME_LEN = 100, SIZE_AT = 124, MTIME_AT = 136, TYPE_AT = 156 };

/* The posix label and the keyword=value records of --pax-option: a
 * global header. Returns 0 or -1. */
static int write_global(struct create *cr, const char *label, time_t now)
{
	struct strbuf h = STRBUF_INIT;
	int r = paxhdr_global(cr->t, label, now, &h);
	if (r == 0 && h.len)
		r = writer_raw(&cr->w, h.s, h.len);
	sb_free(&h);
	return r;
}

int label_write(struct create *cr)
{
	struct tar *t = cr->t;
	const char *label = t->opt.label;
	const struct pax_opts *po = t->opt.pax;
	bool global = cr->format == FMT_PAX && po && po->global.n;
	if ((!label && !global) || t->opt.mode != MODE_CREATE)
		return 0;
	time_t now = time(NULL);
	int r;
	if (cr->format == FMT_PAX) {
		r = write_global(cr, label, now);
	} else {
		char h[BLOCK] = { 0 };
		memcpy(h, label, strlen(label));
		snprintf(h + MTIME_AT, 12, "%011jo", (uintmax_t)now);
		h[TYPE_AT] = 'V';
		writer_checksum(h);
		r = writer_raw(&cr->w, h, sizeof(h));
		/* GNU tar lists it with no time of its own */
		if (r == 0 && t->opt.verbose)
			listing_label(t, label, 0);
	}
	if (r < 0)
		return create_archive_error(cr, t->opt.archive, ARCHIVE_FATAL);
	return 0;
}

/* The GNU.volume.label record of the extended header data at p. */
static char *global_label(const char *p, size_t len)
{
	static const char key[] = " GNU.volume.label=";
	for (size_t at = 0; at < len;) {
		char *end;
		unsigned long n = strtoul(p + at, &end, 10);
		if (n == 0 || at + n > len)
			return NULL;
		const char *sp = strchr(end, ' ');
		if (sp && strncmp(sp, key, sizeof(key) - 1) == 0) {
			const char *v = sp + sizeof(key) - 1;
			return strndup(v, (size_t)(p + at + n - 1 - v));
		}
		at += n;
	}
	return NULL;
}

/* What is read of standard input before the reader sees any: enough for
 * the label blocks, even compressed. */
enum { HEAD_MAX = 64 * 1024 };
/* What find_label() keeps of the archive's start, decompressed: where
 * the posix label's turn to be listed is looked for. */
enum { START_MAX = 64 * 1024 };

bool label_wanted(const struct tar *t)
{
	return t->opt.label || t->opt.mode == MODE_LIST || t->opt.verbose;
}

/* Standard input's first bytes, up to HEAD_MAX, into x->head (kept for
 * the look for a label). 0, or -1 with errno when none could be read. */
static int take_head(struct extract *x)
{
	ssize_t n = 0;
	sb_reset(&x->head);
	if (sb_reserve(&x->head, HEAD_MAX) < 0) {
		errno = ENOMEM;
		return -1;
	}
	while (x->head.len < HEAD_MAX) {
		n = read(STDIN_FILENO, x->head.s + x->head.len, HEAD_MAX - x->head.len);
		if (n > 0)
			x->head.len += (size_t)n;
		else if (n == 0 || errno != EINTR)
			break;
	}
	/* an error after some bytes comes again at the next read */
	return n < 0 && !x->head.len ? -1 : 0;
}

static la_ssize_t stdin_read(struct archive *a, void *arg, const void **buf)
{
	struct extract *x = arg;
	size_t size = x->t->opt.record_size;
	ssize_t n = 0;
	if (!x->head_given) {
		x->head_given = true;
		*buf = x->head.s;
		return (la_ssize_t)x->head.len;
	}
	if (!x->stdin_buf && !(x->stdin_buf = malloc(size))) {
		archive_set_error(a, ENOMEM, "memory exhausted");
		return -1;
	}
	while ((n = read(STDIN_FILENO, x->stdin_buf, size)) < 0 && errno == EINTR)
		;
	if (n < 0) {
		archive_set_error(a, errno, "Error reading stdin");
		return -1;
	}
	*buf = x->stdin_buf;
	return n;
}

int label_open_stdin(struct extract *x)
{
	x->head_given = false;
	if (take_head(x) < 0) {
		archive_set_error(x->in, errno, "Error reading stdin");
		return ARCHIVE_FATAL;
	}
	/* gzip is inflated here, as from a file, for its checks at the end */
	if (gunzip_head(x->t, x->head.s, x->head.len))
		return gunzip_open(x->in, STDIN_FILENO, x->t->opt.record_size, x->head.s, x->head.len,
		                   &x->gz);
	return archive_read_open(x->in, x, NULL, stdin_read, NULL);
}

/* Read the archive's first blocks, decompressed as the reader does, from
 * the archive file or from head (len bytes) when it is not NULL. Returns
 * the bytes read (up to size). */
static size_t read_start(struct tar *t, const char *head, size_t len, char *buf, size_t size)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	size_t got = 0;
	if (!a)
		return 0;
	if (t->opt.filter == FLT_PROGRAM) {
		struct strbuf cmd = STRBUF_INIT;
		if (sb_addstr(&cmd, t->opt.compress_program) == 0 && sb_addstr(&cmd, " -d") == 0)
			archive_read_support_filter_program(a, cmd.s);
		sb_free(&cmd);
	} else {
		archive_read_support_filter_all(a);
	}
	archive_read_support_format_raw(a);
	int r = head ? archive_read_open_memory(a, head, len)
	        : archive_read_open_filename(a, t->opt.archive, BLOCK);
	if (r == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK) {
		while (got < size) {
			la_ssize_t n = archive_read_data(a, buf + got, size - got);
			if (n <= 0)
				break;
			got += (size_t)n;
		}
	}
	archive_read_free(a);
	return got;
}

/* The label in the archive's first bytes buf (got of them) and its time,
 * or NULL when it has none; *global says it is in a global extended
 * header. */
static char *parse_label(const struct tar *t, const char *buf, size_t got, time_t *mtime,
                         bool *global)
{
	if (got < BLOCK)
		return NULL;
	*mtime = (time_t)strtoll(buf + MTIME_AT, NULL, 8);
	if (buf[TYPE_AT] == 'V')
		return strndup(buf, NAME_LEN);
	if (buf[TYPE_AT] == 'g') {
		/* GNU tar lists this label with its header's time, but with
		 * none when -V gave a pattern */
		if (t->opt.label)
			*mtime = 0;
		*global = true;
		size_t size = (size_t)strtoull(buf + SIZE_AT, NULL, 8);
		if (size > got - BLOCK)
			size = got - BLOCK;
		return global_label(buf + BLOCK, size);
	}
	return NULL;
}

/* The label of the archive and its time, as parse_label() says, from its
 * first bytes (kept in x->begin for block_at()). */
static char *find_label(struct extract *x, time_t *mtime, bool *global)
{
	struct tar *t = x->t;
	struct stat st;
	struct strbuf *sb = &x->begin;
	if (sb_reserve(sb, START_MAX) < 0)
		return NULL;
	if (strcmp(t->opt.archive, "-") == 0)
		sb->len = x->head.len ? read_start(t, x->head.s, x->head.len, sb->s, START_MAX) : 0;
	else if (stat(t->opt.archive, &st) < 0 || S_ISDIR(st.st_mode))
		return NULL;
	else
		sb->len = read_start(t, NULL, 0, sb->s, START_MAX);
	return parse_label(t, sb->s, sb->len, mtime, global);
}

/* -V PATTERN: whether label (NULL: none) matches, in GNU tar's words when
 * not. Returns 0, or -1 (fatal, reported). */
static int match_label(struct tar *t, const char *label)
{
	if (!label) {
		tar_fatal(t, 0, "Archive not labeled to match %s",
		          diag_quote_style(t->diag, 0, QUOTE_LOCALE, t->opt.label));
		return -1;
	}
	if (fnmatch(t->opt.label, label, 0) != 0) {
		tar_fatal(t, 0, "Volume %s does not match %s",
		          diag_quote_style(t->diag, 0, QUOTE_LOCALE, label),
		          diag_quote_style(t->diag, 1, QUOTE_LOCALE, t->opt.label));
		return -1;
	}
	return 0;
}

int label_check(struct extract *x)
{
	struct tar *t = x->t;
	bool list = t->opt.mode == MODE_LIST || t->opt.verbose;
	if (!label_wanted(t))
		return 0;
	time_t mtime = 0;
	bool global = false;
	char *label = find_label(x, &mtime, &global);
	int rc = 0;
	if (t->opt.label && match_label(t, label) < 0) {
		rc = -1;
	} else if (label && list && global) {
		/* GNU tar lists it before the first member of the pax format */
		x->label = label;
		x->label_mtime = mtime;
		label = NULL;
	} else if (label && list) {
		if (t->verifying)
			fputs("Verify ", t->listing);
		listing_label(t, label, mtime);
	}
	free(label);
	return rc;
}

/* -V for -r, -u, -A and --delete: the label of the archive open at fd
 * checked before anything is written. Returns 0, or -1 (fatal, reported). */
int label_check_fd(struct tar *t, int fd)
{
	if (!t->opt.label)
		return 0;
	char buf[4 * BLOCK];
	ssize_t got = pread(fd, buf, sizeof(buf), 0);
	time_t mtime;
	bool global = false;
	char *label = parse_label(t, buf, got > 0 ? (size_t)got : 0, &mtime, &global);
	int rc = match_label(t, label);
	free(label);
	return rc;
}

/* The block at offset at of the archive, decompressed, into h: from its
 * first bytes read by find_label(), or from the archive file. Returns
 * whether it could be read. */
static bool block_at(struct extract *x, unsigned char *h, int64_t at)
{
	if (at >= 0 && (uint64_t)at + BLOCK <= x->begin.len) {
		memcpy(h, x->begin.s + at, BLOCK);
		return true;
	}
	return x->fd >= 0 && x->t->opt.filter == FLT_NONE && pread(x->fd, h, BLOCK, at) == BLOCK;
}

/* Whether the member just read has an extended header of its own: what
 * makes it one of the pax format to GNU tar. Read from the archive where
 * it can be (libarchive says pax for any member after a global header),
 * else as libarchive says. */
static bool own_extended_header(struct extract *x)
{
	bool pax = archive_format(x->in) == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE;
	unsigned char h[BLOCK];
	int64_t at = archive_read_header_position(x->in);
	for (int hops = 0; hops < 16; hops++) {
		if (!block_at(x, h, at) || scan_compressed(h, BLOCK))
			return pax;
		if (h[TYPE_AT] != 'g')
			return h[TYPE_AT] == 'x';
		int64_t size = strtoll((const char *)h + SIZE_AT, NULL, 8);
		at += BLOCK + (size + BLOCK - 1) / BLOCK * BLOCK;
	}
	return pax;
}

void label_list_global(struct extract *x)
{
	if (!x->label || !own_extended_header(x))
		return;
	if (x->t->verifying)
		fputs("Verify ", x->t->listing);
	listing_label(x->t, x->label, x->label_mtime);
	free(x->label);
	x->label = NULL;
}
