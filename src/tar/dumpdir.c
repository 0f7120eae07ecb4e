/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dumpdir.c: GNU tar's 'D' members (a directory and its dumpdir, for -g),
 * written as raw blocks between libarchive's members: libarchive's gnu
 * writer has no such type. The header is GNU's: "ustar  " magic, numbers in
 * octal or base-256, the access and change times GNU tar adds to
 * incremental headers, and a "././@LongLink" member before it when the
 * name is longer than its field.
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <string.h>
#include "incremental.h"

enum {
	BLOCK = 512, NAME_LEN = 100, MODE_AT = 100, UID_AT = 108, GID_AT = 116, SIZE_AT = 124,
	MTIME_AT = 136, CHKSUM_AT = 148, TYPE_AT = 156, MAGIC_AT = 257, UNAME_AT = 265,
	GNAME_AT = 297, ATIME_AT = 345, CTIME_AT = 357, NAMES_LEN = 32,
};

/* v in the field at f of len bytes: octal (len - 1 digits and a NUL)
 * when it fits, else base-256 as GNU tar writes it. */
static void number(char *f, size_t len, int64_t v)
{
	unsigned bits = 3 * (unsigned)(len - 1);
	if (v >= 0 && (bits >= 63 || v < (int64_t)1 << bits))
		snprintf(f, len, "%0*jo", (int)(len - 1), (uintmax_t)v);
	else
		writer_base256(f, len, v);
}

/* A header block of type type for name (cut to its field), size bytes. */
static void header(char *h, char type, const char *name, uint64_t size)
{
	memset(h, 0, BLOCK);
	size_t n = strlen(name);
	memcpy(h, name, n < NAME_LEN ? n : NAME_LEN);
	number(h + SIZE_AT, 12, (int64_t)size);
	h[TYPE_AT] = type;
	memcpy(h + MAGIC_AT, "ustar  ", 8);
}

/* len bytes at p, then zeros to the end of the block. */
static int data(struct create *cr, const char *p, size_t len)
{
	static const char zeros[BLOCK];
	if (len && writer_raw(&cr->w, p, len) < 0)
		return -1;
	return len % BLOCK ? writer_raw(&cr->w, zeros, BLOCK - len % BLOCK) : 0;
}

/* GNU's long name member before a header whose name does not fit. */
static int long_name(struct create *cr, const char *name)
{
	char h[BLOCK];
	size_t n = strlen(name) + 1;
	header(h, 'L', "././@LongLink", n);
	number(h + MODE_AT, 8, 0);
	number(h + UID_AT, 8, 0);
	number(h + GID_AT, 8, 0);
	number(h + MTIME_AT, 12, 0);
	writer_checksum(h);
	return writer_raw(&cr->w, h, BLOCK) < 0 ? -1 : data(cr, name, n);
}

static void copy_name(char *field, const char *name)
{
	if (name)
		memcpy(field, name, strnlen(name, NAMES_LEN - 1));
}

int dumpdir_write(struct create *cr, const struct sweep_entry *e, const char *member)
{
	struct archive_entry *ae = cr->entry;
	const struct strbuf *dd = &cr->inc->dumpdir;
	char h[BLOCK];
	if (strlen(member) > NAME_LEN && long_name(cr, member) < 0)
		goto fail;
	header(h, 'D', member, dd->len);
	number(h + MODE_AT, 8, archive_entry_perm(ae));
	number(h + UID_AT, 8, archive_entry_uid(ae));
	number(h + GID_AT, 8, archive_entry_gid(ae));
	number(h + MTIME_AT, 12, archive_entry_mtime(ae));
	copy_name(h + UNAME_AT, archive_entry_uname(ae));
	copy_name(h + GNAME_AT, archive_entry_gname(ae));
	number(h + ATIME_AT, 12, e->st.st_atim.tv_sec);
	number(h + CTIME_AT, 12, e->st.st_ctim.tv_sec);
	writer_checksum(h);
	if (writer_raw(&cr->w, h, BLOCK) < 0 || data(cr, dd->s, dd->len) < 0)
		goto fail;
	if (cr->t->opt.verbose) {
		archive_entry_set_size(ae, (la_int64_t)dd->len);
		listing_print(cr->t, ae, cr->shown.s);
	}
	return 1;
fail:
	return create_archive_error(cr, e->path, ARCHIVE_FATAL);
}
