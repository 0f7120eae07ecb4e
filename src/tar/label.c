/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * label.c: -V (--label), GNU tar's volume label. On create it is the
 * archive's first block, as GNU tar writes it: a 'V' header holding only
 * the label, its time and checksum; in the posix format a global extended
 * header ("/tmp/GlobalHead.1") with a GNU.volume.label record. On reading,
 * libarchive passes over both, so the first blocks are read here once
 * more (an archive file only: a pipe cannot be read twice): -t and -v
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
#include "update.h"

enum { BLOCK = 512, NAME_LEN = 100, MODE_AT = 100, UID_AT = 108, GID_AT = 116, SIZE_AT = 124,
       MTIME_AT = 136, CHKSUM_AT = 148, TYPE_AT = 156, MAGIC_AT = 257 };

static void checksum(char *h)
{
	unsigned sum = 0;
	memset(h + CHKSUM_AT, ' ', 8);
	for (int i = 0; i < BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + CHKSUM_AT, 8, "%06o", sum);
}

/* The posix label: a global header, its record. Returns 0 or -1. */
static int write_global(struct create *cr, const char *label, time_t now)
{
	char rec[256], h[2 * BLOCK] = { 0 };
	size_t len = strlen(label) + strlen(" GNU.volume.label=\n");
	size_t total = len + 1;
	for (size_t d = 10; total >= d; d *= 10)
		total++;
	snprintf(rec, sizeof(rec), "%zu GNU.volume.label=%s\n", total, label);
	const char *tmp = getenv("TMPDIR");
	snprintf(h, NAME_LEN, "%s/GlobalHead.1", tmp && *tmp ? tmp : "/tmp");
	snprintf(h + MODE_AT, 8, "%07o", 0644);
	snprintf(h + UID_AT, 8, "%07o", 0);
	snprintf(h + GID_AT, 8, "%07o", 0);
	snprintf(h + SIZE_AT, 12, "%011zo", strlen(rec));
	snprintf(h + MTIME_AT, 12, "%011jo", (uintmax_t)now);
	h[TYPE_AT] = 'g';
	memcpy(h + MAGIC_AT, "ustar\0" "00", 8);
	checksum(h);
	memcpy(h + BLOCK, rec, strlen(rec));
	return writer_raw(&cr->w, h, sizeof(h));
}

int label_write(struct create *cr)
{
	struct tar *t = cr->t;
	const char *label = t->opt.label;
	if (!label || t->opt.mode != MODE_CREATE)
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
		checksum(h);
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

/* Read the archive's first blocks, decompressed as the reader does.
 * Returns the bytes read (up to size). */
static size_t read_start(struct tar *t, char *buf, size_t size)
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
	if (archive_read_open_filename(a, t->opt.archive, BLOCK) == ARCHIVE_OK &&
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
static char *parse_label(const char *buf, size_t got, time_t *mtime, bool *global)
{
	if (got < BLOCK)
		return NULL;
	*mtime = (time_t)strtoll(buf + MTIME_AT, NULL, 8);
	if (buf[TYPE_AT] == 'V')
		return strndup(buf, NAME_LEN);
	if (buf[TYPE_AT] == 'g') {
		/* GNU tar lists this label with no time */
		*mtime = 0;
		*global = true;
		size_t size = (size_t)strtoull(buf + SIZE_AT, NULL, 8);
		if (size > got - BLOCK)
			size = got - BLOCK;
		return global_label(buf + BLOCK, size);
	}
	return NULL;
}

/* The label of the archive file, as parse_label() says. */
static char *find_label(struct tar *t, time_t *mtime, bool *global)
{
	struct stat st;
	static char buf[4 * BLOCK];
	if (strcmp(t->opt.archive, "-") == 0 || stat(t->opt.archive, &st) < 0 || S_ISDIR(st.st_mode))
		return NULL;
	size_t got = read_start(t, buf, sizeof(buf));
	return parse_label(buf, got, mtime, global);
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
	if (!t->opt.label && !list)
		return 0;
	time_t mtime = 0;
	bool global = false;
	char *label = find_label(t, &mtime, &global);
	int rc = 0;
	if (t->opt.label && match_label(t, label) < 0) {
		rc = -1;
	} else if (label && list && global) {
		/* GNU tar lists it before the first member of the pax format */
		x->label = label;
		label = NULL;
	} else if (label && list) {
		if (t->verifying)
			fputs("Verify ", t->listing);
		listing_label(t, label, mtime);
	}
	free(label);
	return rc;
}

int label_check_fd(struct tar *t, int fd)
{
	if (!t->opt.label)
		return 0;
	char buf[4 * BLOCK];
	ssize_t got = pread(fd, buf, sizeof(buf), 0);
	time_t mtime;
	bool global = false;
	char *label = parse_label(buf, got > 0 ? (size_t)got : 0, &mtime, &global);
	int rc = match_label(t, label);
	free(label);
	return rc;
}

/* Whether the member just read has an extended header of its own: what
 * makes it one of the pax format to GNU tar. Read from the archive file
 * where it can be (libarchive says pax for any member after a global
 * header), else as libarchive says. */
static bool own_extended_header(struct extract *x)
{
	bool pax = archive_format(x->in) == ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE;
	unsigned char h[BLOCK];
	int64_t at = archive_read_header_position(x->in);
	if (x->fd < 0 || x->t->opt.filter != FLT_NONE)
		return pax;
	for (int hops = 0; hops < 16; hops++) {
		if (pread(x->fd, h, BLOCK, at) != BLOCK || scan_compressed(h, BLOCK))
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
	listing_label(x->t, x->label, 0);
	free(x->label);
	x->label = NULL;
}
