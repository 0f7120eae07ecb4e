/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * update.h: the operations on an archive file in place: -r, -u and -A
 * (update.c), --delete (delete.c), and the scan of the archive's members
 * that they start from (scan.c).
 */
#ifndef SWEEP_TAR_UPDATE_H
#define SWEEP_TAR_UPDATE_H

#include <stdint.h>
#include <time.h>
#include "tar.h"

/* What GNU tar makes of a header that libarchive passes over. */
enum scan_kind {
	SCAN_FILE,             /* a member (libarchive's entry) */
	SCAN_LABEL,            /* a 'V' volume label: a member to GNU tar too */
	SCAN_GLOBAL,           /* a pax 'g' global header: --delete drops it */
};

/* One member as the archive holds it. */
struct scan_member {
	char *name;            /* its name as stored (long names and pax paths read) */
	int64_t start, end;    /* its bytes: extended headers, header, data */
	struct timespec mtime;
	enum scan_kind kind;
	enum tar_format format; /* as GNU tar tells it from the member's own headers */
	bool extended;         /* its headers begin with an extended one (L, K, x) */
};

struct scan {
	struct scan_member *v;
	size_t n, cap;
	int64_t eof;           /* where the end-of-archive blocks begin */
	int64_t size;          /* the file's size */
	bool not_tar;          /* no tar header in it: GNU tar writes after it all */
};

/* Open the archive for an operation in place (O_RDWR | O_CREAT, as GNU
 * tar), refusing a compressed one in GNU's words. Returns the descriptor,
 * or -1 (fatal, reported). */
int scan_open(struct tar *t, const char *name);
/* Read the members of the archive at fd into s (from its start; -i: past
 * zero blocks). Returns 0, or -1 (fatal, reported). */
int scan_members(struct tar *t, int fd, struct scan *s, bool ignore_zeros);
void scan_free(struct scan *s);
/* Whether the compressed magic of a GNU-known compressor starts buf (len
 * bytes), and it is not a tar header. */
bool scan_compressed(const unsigned char *buf, size_t len);

/* label.c: -V PATTERN against the label of the archive at fd, for the
 * operations in place. Returns 0, or -1 (fatal, reported). */
int label_check_fd(struct tar *t, int fd);

/* update.c: -r, -u, -A. Returns the exit status. */
int tar_update(struct tar *t);

/* delete.c: --delete. Returns the exit status. */
int tar_delete(struct tar *t);

#endif
