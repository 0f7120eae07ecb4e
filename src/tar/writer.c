/*
 * writer.c: the libarchive writer for -c: format, compression, and the
 * output stream of output.c as its only client.
 *
 * libarchive's own blocking is turned off (bytes_per_block 0): output.c
 * gathers and pads, which is what lets file data go out without a copy.
 */
#include <archive.h>
#include <errno.h>
#include <string.h>
#include "output.h"
#include "tar.h"
#include "writer.h"

static la_ssize_t write_cb(struct archive *a, void *arg, const void *buf, size_t len)
{
	(void)a;
	struct tar_out *o = arg;
	if (out_write(o, buf, len) < 0)
		return -1;
	return (la_ssize_t)len;
}

/* The compressor -a picks from the archive's name, as GNU tar does. */
static enum tar_filter filter_by_suffix(const char *name)
{
	static const struct { const char *suffix; enum tar_filter filter; } table[] = {
		{ ".gz", FLT_GZIP }, { ".tgz", FLT_GZIP }, { ".taz", FLT_GZIP },
		{ ".bz2", FLT_BZIP2 }, { ".tbz", FLT_BZIP2 }, { ".tbz2", FLT_BZIP2 },
		{ ".tz2", FLT_BZIP2 }, { ".xz", FLT_XZ }, { ".txz", FLT_XZ },
		{ ".zst", FLT_ZSTD }, { ".tzst", FLT_ZSTD }, { ".lzma", FLT_LZMA },
		{ ".tlz", FLT_LZMA }, { ".Z", FLT_COMPRESS }, { ".taZ", FLT_COMPRESS },
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

static int set_filter(struct archive *a, enum tar_filter f)
{
	switch (f) {
	case FLT_NONE: return archive_write_add_filter_none(a);
	case FLT_GZIP: return archive_write_add_filter_gzip(a);
	case FLT_BZIP2: return archive_write_add_filter_bzip2(a);
	case FLT_XZ: return archive_write_add_filter_xz(a);
	case FLT_ZSTD: return archive_write_add_filter_zstd(a);
	case FLT_LZMA: return archive_write_add_filter_lzma(a);
	case FLT_COMPRESS: return archive_write_add_filter_compress(a);
	}
	return ARCHIVE_FATAL;
}

enum tar_format writer_format(const struct tar_opts *o)
{
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

struct archive *writer_open(struct tar *t, struct tar_out *o)
{
	struct archive *a = archive_write_new();
	if (!a) {
		tar_fatal(t, ENOMEM, "archive_write_new");
		return NULL;
	}
	enum tar_filter f = writer_filter(&t->opt);
	if (set_format(a, writer_format(&t->opt)) != ARCHIVE_OK ||
	    set_filter(a, f) < ARCHIVE_WARN ||
	    archive_write_set_bytes_per_block(a, 0) != ARCHIVE_OK ||
	    archive_write_open2(a, o, NULL, write_cb, NULL, NULL) != ARCHIVE_OK) {
		if (o->err)
			tar_fatal(t, o->err, "%s: Cannot write", tq(t, 0, o->name));
		else
			tar_fatal(t, 0, "%s", archive_error_string(a));
		archive_write_free(a);
		return NULL;
	}
	o->record = f == FLT_NONE ? t->opt.record_size : 0;
	return a;
}
