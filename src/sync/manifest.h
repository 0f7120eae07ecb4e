/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest.h: the receiver's tree as the sender decides against it. The
 * receiver walks the destination in its disk order (metadata only) and
 * sends each entry's path below the tree's root with the status the quick
 * check looks at; the sender keeps them in a table by path, so that
 * deciding what to send costs no round trip per file. Under -c the
 * receiver's walk reads its files too (in block order) and sends their
 * sums (checksum.c).
 */
#ifndef SWEEP_SYNC_MANIFEST_H
#define SWEEP_SYNC_MANIFEST_H

#include <sys/stat.h>
#include "keymap.h"
#include "sync.h"
#include "wire.h"

struct manifest_entry {
	mode_t mode;
	off_t size;
	time_t mtime;
	long mtime_nsec;
	bool has_sum;                   /* -c: a regular file's sum */
	unsigned char sum[SYNC_SUM_LEN];
};

struct manifest {
	struct keymap index;            /* hash of the path -> entry + 1 */
	struct manifest_entry *v;
	size_t n, cap;
};

/* Receiver: walk name in dfd (-1: there is nothing yet) and send what it
 * holds, then W_MANIFEST_END. Returns 0 or -1 (the connection failed). */
int manifest_send(struct sync *s, struct wire *w, int dfd, const char *name);

/* Sender: read the manifest up to W_MANIFEST_END. Returns 0 or -1
 * (reported). */
int manifest_recv(struct manifest *m, struct wire *w);

/* The entry at rel (below the root; "" for the root), as a status with
 * what the quick check looks at, in *st; NULL when there is none. */
const struct stat *manifest_find(const struct manifest *m, const char *rel, struct stat *st);
/* -c: the sum of the regular file at rel, or NULL. */
const unsigned char *manifest_sum(const struct manifest *m, const char *rel);

void manifest_free(struct manifest *m);

#endif
