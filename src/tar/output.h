/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.h: the archive's byte stream (output.c): writes gathered into large
 * writev() calls, file data written from where it was read.
 */
#ifndef SWEEP_TAR_OUTPUT_H
#define SWEEP_TAR_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct tar_out {
	int fd;
	const char *name;   /* as given to -f, for messages */
	bool is_stdout;
	int err;            /* errno of the first failed write, or 0 */
	uint64_t bytes;     /* bytes handed to the stream */
	uint64_t base;      /* where the records it pads to are counted from (-r, -u, -A) */
	uint64_t written;   /* bytes the system took */
	size_t record;      /* pad the end to a multiple of this; 0: do not */
	size_t flush;       /* write once this much is gathered */
	char *arena;        /* file data, read in place */
	size_t arena_used;
	char *stage;        /* copies of everything else */
	size_t stage_len;
	struct iovec *iov;  /* what the next flush writes, in order */
	int niov;
};

/* Open name ("-": standard output) for writing. Returns 0, or -1 with
 * errno set. */
int out_open(struct tar_out *o, const char *name, size_t record);

/* The same for fd, open for writing and placed where the stream goes on
 * an archive (-r, -u, -A), its records counted from base; fd is closed
 * with the stream. Returns 0, or
 * -1 with errno set. */
int out_open_fd(struct tar_out *o, int fd, const char *name, uint64_t base);

/* Add len bytes at p to the stream. Returns 0, or -1 after a write error
 * (in o->err). */
int out_write(struct tar_out *o, const void *p, size_t len);

/* Room for up to want bytes of file data (*avail says how many): read into
 * it, pass what was read to archive_write_data(), then out_consume() it.
 * NULL after a write error. */
void *out_buffer(struct tar_out *o, size_t want, size_t *avail);
void out_consume(struct tar_out *o, const void *p, size_t n);

/* A buffer of *len zero bytes that the stream takes without copying. */
const void *out_zeros(size_t *len);

int out_flush(struct tar_out *o);

/* The bytes --totals counts: those of the stream, and under -r and -u
 * those of the record it began in, which is written again. */
uint64_t out_total(const struct tar_out *o);

/* Pad to the record size, write everything, close. Returns 0 or -1 (o->err). */
int out_close(struct tar_out *o);
void out_free(struct tar_out *o);

/* Write all len bytes of buf to fd: at *at (advanced), or where fd is when
 * at is NULL or *at < 0. Returns 0, or -1 with errno set (0 bytes written
 * is -1 with errno unchanged). */
int fd_write_all(int fd, const void *buf, size_t len, int64_t *at);

#endif
