/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.h: the libarchive writer of -c (writer.c).
 */
#ifndef SWEEP_TAR_WRITER_H
#define SWEEP_TAR_WRITER_H

#include <stdbool.h>
#include "output.h"
#include "strbuf.h"
#include "tar.h"

struct tar_writer {
	struct archive *a;        /* the tar format; never compresses */
	struct archive *squeeze;  /* raw format and the compressor, or NULL */
	struct tar_out *out;
	struct tar *t;
	uint64_t tar_bytes;       /* of the tar stream, for --checkpoint */
	bool holding;             /* a header's last block is held back */
	bool have_held;
	bool closed;              /* writer_close() ended the archive */
	bool gathering;           /* a posix header is gathered for paxhdr.c */
	struct strbuf gathered, shaped;
	char held[512];
};

/* Open w in the chosen format and compression, writing to o (already
 * open). Returns 0, or -1 after a fatal error (reported); either way
 * writer_free() it. */
int writer_open(struct tar_writer *w, struct tar *t, struct tar_out *o);
/* archive_write_header() of e in format f, its fields stored as GNU tar
 * stores them where libarchive would not. */
int writer_header(struct tar_writer *w, struct archive_entry *e, enum tar_format f);
/* Blocks of the tar stream written as they are, after the member before
 * them is ended (dumpdir.c: what libarchive cannot write). Returns 0 or
 * -1 (the tar writer's error, or the output's). */
int writer_raw(struct tar_writer *w, const void *buf, size_t len);
/* GNU tar's base-256 number in a field of len bytes: a first byte of
 * 0x80 (0xff when negative), then the value in two's complement. */
void writer_base256(char *field, size_t len, int64_t v);
/* The checksum of the header block h (512 bytes), as GNU tar writes it:
 * six octal digits, a NUL and a space. */
void writer_checksum(char *h);
/* End the archive and the compression. Returns 0, or -1 (the error is
 * the tar writer's or the compressor's). */
int writer_close(struct tar_writer *w);
void writer_free(struct tar_writer *w);

/* The format and compression the options come to. */
enum tar_format writer_format(const struct tar_opts *o);
enum tar_filter writer_filter(const struct tar_opts *o);

#endif
