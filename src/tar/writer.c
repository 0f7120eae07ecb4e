/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.c: the libarchive writer for -c: format, compression, and the
 * output stream of output.c as its only client.
 *
 * libarchive's own blocking is turned off (bytes_per_block 0): output.c
 * gathers and pads, which is what lets file data go out without a copy.
 *
 * The tar writer itself never compresses: its bytes pass through here
 * first, so that a header can be mended before anything downstream sees
 * it, and only then go to a second libarchive writer, of the raw format,
 * that holds the compressor. The mending: libarchive's gnu writer has no
 * base-256 for the time (before 1970 it stores 0, after 2242 the largest
 * octal value); GNU tar's has, so such a header is held back and given
 * GNU's base-256 field. With --pax-option, each posix header is gathered
 * whole and reshaped by paxhdr.c before it goes on.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "paxopt.h"
#include "tar.h"
#include "writer.h"

/* The ustar header's mtime and checksum fields. */
enum { MTIME_AT = 136, MTIME_LEN = 12, CHKSUM_AT = 148, CHKSUM_LEN = 8, BLOCK = 512 };

/* Pass len bytes at buf on: to the compressor, or to the output. */
static int forward(struct tar_writer *w, const void *buf, size_t len)
{
	w->tar_bytes += len;
	checkpoint_bytes(w->t, w->tar_bytes, true, false);
	if (w->squeeze)
		return archive_write_data(w->squeeze, buf, len) < 0 ? -1 : 0;
	return out_write(w->out, buf, len);
}

static la_ssize_t tar_cb(struct archive *a, void *arg, const void *buf, size_t len)
{
	(void)a;
	struct tar_writer *w = arg;
	if (w->gathering)
		return sb_add(&w->gathered, buf, len) < 0 ? -1 : (la_ssize_t)len;
	if (w->holding) {
		/* the header block is the last block of a header's output */
		if (w->have_held && forward(w, w->held, BLOCK) < 0)
			return -1;
		w->have_held = len == BLOCK;
		if (w->have_held) {
			memcpy(w->held, buf, BLOCK);
			return (la_ssize_t)len;
		}
	}
	return forward(w, buf, len) < 0 ? -1 : (la_ssize_t)len;
}

static la_ssize_t out_cb(struct archive *a, void *arg, const void *buf, size_t len)
{
	(void)a;
	return out_write(arg, buf, len) < 0 ? -1 : (la_ssize_t)len;
}

/* The compressor -a picks from the archive's name, as GNU tar does. */
static enum tar_filter filter_by_suffix(const char *name)
{
	static const struct { const char *suffix; enum tar_filter filter; } table[] = {
		{ ".gz", FLT_GZIP }, { ".tgz", FLT_GZIP }, { ".taz", FLT_GZIP },
		{ ".bz2", FLT_BZIP2 }, { ".tbz", FLT_BZIP2 }, { ".tbz2", FLT_BZIP2 },
		{ ".tz2", FLT_BZIP2 }, { ".xz", FLT_XZ }, { ".txz", FLT_XZ },
		{ ".zst", FLT_ZSTD }, { ".tzst", FLT_ZSTD }, { ".lzma", FLT_LZMA },
		{ ".tlz", FLT_LZMA }, { ".lz", FLT_LZIP }, { ".lzo", FLT_LZOP },
		{ ".Z", FLT_COMPRESS }, { ".taZ", FLT_COMPRESS },
	};
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t n = strlen(table[i].suffix);
		if (len > n && strcmp(name + len - n, table[i].suffix) == 0)
			return table[i].filter;
	}
	return FLT_NONE;
}

enum tar_filter writer_filter(const struct tar_opts *o)
{
	if (o->auto_compress && o->filter == FLT_NONE)
		return filter_by_suffix(o->archive);
	return o->filter;
}

static int set_filter(struct archive *a, enum tar_filter f, const char *program)
{
	switch (f) {
	case FLT_PROGRAM: return archive_write_add_filter_program(a, program);
	case FLT_NONE: return archive_write_add_filter_none(a);
	case FLT_GZIP: return archive_write_add_filter_gzip(a);
	case FLT_BZIP2: return archive_write_add_filter_bzip2(a);
	case FLT_XZ: return archive_write_add_filter_xz(a);
	case FLT_ZSTD: return archive_write_add_filter_zstd(a);
	case FLT_LZMA: return archive_write_add_filter_lzma(a);
	case FLT_LZIP: return archive_write_add_filter_lzip(a);
	case FLT_LZOP: return archive_write_add_filter_lzop(a); /* the lzop program */
	case FLT_COMPRESS: return archive_write_add_filter_compress(a);
	}
	return ARCHIVE_FATAL;
}

enum tar_format writer_format(const struct tar_opts *o)
{
	/* libarchive's gnu writer has no sparse members: pax has (options.c
	 * says so when --format=gnu was asked for) */
	if (o->format == FMT_GNU && o->sparse)
		return FMT_PAX;
	if (o->format != FMT_DEFAULT)
		return o->format;
	/* GNU tar stores extended attributes in POSIX format whatever its
	 * default; libarchive's GNU writer has no sparse entries, pax has. */
	return o->xattrs || o->acls || o->sparse ? FMT_PAX : FMT_GNU;
}

static int set_format(struct archive *a, enum tar_format f)
{
	switch (f) {
	case FMT_DEFAULT:
	case FMT_GNU: return archive_write_set_format_gnutar(a);
	case FMT_PAX:
		/* Attributes as SCHILY.xattr only: GNU tar warns about every
		 * LIBARCHIVE.xattr record, and libarchive reads both. */
		if (archive_write_set_format_pax(a) != ARCHIVE_OK)
			return ARCHIVE_FATAL;
		return archive_write_set_format_option(a, "pax", "xattrheader", "SCHILY");
	case FMT_USTAR: return archive_write_set_format_ustar(a);
	case FMT_V7: return archive_write_set_format_v7tar(a);
	}
	return ARCHIVE_FATAL;
}

/* The raw-format writer that compresses the tar writer's output with f. */
static struct archive *open_squeeze(struct tar *t, struct tar_out *o, enum tar_filter f)
{
	struct archive *z = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	if (!z || !e)
		goto fail;
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_pathname(e, "tar");
	if (archive_write_set_format_raw(z) != ARCHIVE_OK || set_filter(z, f, t->opt.compress_program) < ARCHIVE_WARN ||
	    archive_write_set_bytes_per_block(z, 0) != ARCHIVE_OK ||
	    archive_write_open2(z, o, NULL, out_cb, NULL, NULL) != ARCHIVE_OK ||
	    archive_write_header(z, e) != ARCHIVE_OK)
		goto fail;
	archive_entry_free(e);
	return z;
fail:
	if (o->err)
		tar_fatal(t, o->err, "%s: Cannot write", tq(t, 0, o->name));
	else
		tar_fatal(t, z ? archive_errno(z) : ENOMEM, "%s",
		          z ? archive_error_string(z) : "archive_write_new");
	archive_entry_free(e);
	if (z)
		archive_write_free(z);
	return NULL;
}

int writer_open(struct tar_writer *w, struct tar *t, struct tar_out *o)
{
	*w = (struct tar_writer){ .out = o, .t = t };
	enum tar_filter f = writer_filter(&t->opt);
	if (f != FLT_NONE && !(w->squeeze = open_squeeze(t, o, f)))
		return -1;
	struct archive *a = w->a = archive_write_new();
	if (!a) {
		tar_fatal(t, ENOMEM, "archive_write_new");
		return -1;
	}
	if (set_format(a, writer_format(&t->opt)) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(a, 0) != ARCHIVE_OK ||
	    archive_write_open2(a, w, NULL, tar_cb, NULL, NULL) != ARCHIVE_OK) {
		if (o->err)
			tar_fatal(t, o->err, "%s: Cannot write", tq(t, 0, o->name));
		else
			tar_fatal(t, 0, "%s", archive_error_string(a));
		return -1;
	}
	o->record = f == FLT_NONE ? t->opt.record_size : 0;
	return 0;
}

void writer_base256(char *field, size_t len, int64_t v)
{
	uint64_t u = (uint64_t)v;
	for (size_t k = 0; k + 1 < len; k++) /* k: bytes from the end */
		field[len - 1 - k] = (char)(k < 8 ? (u >> (8 * k)) & 0xff : v < 0 ? 0xff : 0);
	field[0] = (char)(v < 0 ? 0xff : 0x80);
}

void writer_checksum(char *h)
{
	memset(h + CHKSUM_AT, ' ', CHKSUM_LEN);
	unsigned sum = 0;
	for (size_t i = 0; i < BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + CHKSUM_AT, CHKSUM_LEN - 1, "%06o", sum);
}

/* Give the held header block e's time in base-256 and its checksum anew. */
static void mend_time(char *h, int64_t mtime)
{
	writer_base256(h + MTIME_AT, MTIME_LEN, mtime);
	writer_checksum(h);
}

/* Whether the gnu writer stores t right: octal in 11 digits. */
static bool octal_time(int64_t t)
{
	return t >= 0 && t < (int64_t)1 << 33;
}

/* archive_write_header() of e, its output gathered and shaped by
 * --pax-option (paxhdr.c) on its way. */
static int shaped_header(struct tar_writer *w, struct archive_entry *e)
{
	/* the member before is padded first, so that all that is gathered
	 * is the header */
	if (archive_write_finish_entry(w->a) != ARCHIVE_OK)
		return ARCHIVE_FATAL;
	sb_reset(&w->gathered);
	sb_reset(&w->shaped);
	w->gathering = true;
	int r = archive_write_header(w->a, e);
	w->gathering = false;
	if (r < ARCHIVE_WARN)
		return r;
	if (paxhdr_member(w->t, w->gathered.s, w->gathered.len, &w->shaped) < 0) {
		archive_set_error(w->a, ENOMEM, "memory exhausted");
		return ARCHIVE_FATAL;
	}
	return forward(w, w->shaped.s, w->shaped.len) < 0 ? ARCHIVE_FATAL : r;
}

int writer_header(struct tar_writer *w, struct archive_entry *e, enum tar_format f)
{
	if (f == FMT_PAX && w->t->opt.pax)
		return shaped_header(w, e);
	int64_t mtime = archive_entry_mtime(e);
	if (f != FMT_GNU || octal_time(mtime))
		return archive_write_header(w->a, e);
	w->holding = true;
	w->have_held = false;
	int r = archive_write_header(w->a, e);
	w->holding = false;
	if (w->have_held) {
		mend_time(w->held, mtime);
		if (forward(w, w->held, BLOCK) < 0)
			r = ARCHIVE_FATAL;
	}
	w->have_held = false;
	return r;
}

int writer_raw(struct tar_writer *w, const void *buf, size_t len)
{
	/* the member before is padded first */
	if (archive_write_finish_entry(w->a) != ARCHIVE_OK)
		return -1;
	return forward(w, buf, len);
}

int writer_close(struct tar_writer *w)
{
	if (archive_write_close(w->a) != ARCHIVE_OK)
		return -1;
	if (w->squeeze && archive_write_close(w->squeeze) != ARCHIVE_OK) {
		/* (the compressor's failure said where the caller looks) */
		const char *msg = archive_error_string(w->squeeze);
		archive_set_error(w->a, archive_errno(w->squeeze), "%s", msg ? msg : "archive error");
		return -1;
	}
	/* the last record, padded, is one more for GNU tar */
	checkpoint_bytes(w->t, w->tar_bytes, true, true);
	w->closed = true;
	return 0;
}

/* Free a's writer; one not closed is marked failed first, or freeing it
 * would end the archive (end blocks, a compressor's trailer) as if it were
 * whole. */
static void free_writer(struct archive *a, bool closed)
{
	if (!a)
		return;
	if (!closed)
		archive_write_fail(a);
	archive_write_free(a);
}

void writer_free(struct tar_writer *w)
{
	free_writer(w->a, w->closed);
	free_writer(w->squeeze, w->closed);
	sb_free(&w->gathered);
	sb_free(&w->shaped);
	w->a = w->squeeze = NULL;
}
