/*
 * writer.h: the libarchive writer of -c (writer.c).
 */
#ifndef SWEEP_TAR_WRITER_H
#define SWEEP_TAR_WRITER_H

#include "output.h"
#include "tar.h"

/* A writer in the chosen format and compression, writing to o (already
 * open). NULL after a fatal error (reported). */
struct archive *writer_open(struct tar *t, struct tar_out *o);

/* The format and compression the options come to. */
enum tar_format writer_format(const struct tar_opts *o);
enum tar_filter writer_filter(const struct tar_opts *o);

#endif
