/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattrs.h: extended attributes and ACLs (-X, -A) over a remote shell.
 * The sender puts a file's attributes into its W_ENTRY frame (a count,
 * then name and value pairs); the receiver gives them to a stand-in of
 * the file in a scratch directory of its own, from which the copy engine
 * copies them as it copies a local source's (src/copy/xattr.c): one piece
 * of code decides which attributes a copy carries.
 */
#ifndef SWEEP_SYNC_XATTRS_H
#define SWEEP_SYNC_XATTRS_H

#include <stdbool.h>
#include "strbuf.h"
#include "wire.h"

/* Sender: the attributes of the file open at fd (-1: none), or its ACLs
 * only (acl_only), into f. */
void xattrs_put(struct wire_frame *f, int fd, bool acl_only);

/* Receiver: take the attributes from m into sb (kept as sent); false for
 * a block that does not parse. *count: how many. */
bool xattrs_take(struct wire_msg *m, struct strbuf *sb, unsigned *count);

/* Receiver: set the attributes kept in sb on fd. Returns 0, or the errno
 * of the first that could not be set. */
int xattrs_apply(const struct strbuf *sb, int fd);

#endif
