/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattrs.h: extended attributes and ACLs (-X, -A) over a remote shell.
 * The sender puts a file's attributes into its W_ENTRY frame (a count,
 * then name and value pairs); the receiver gives them to a stand-in of
 * the file in a scratch directory of its own, from which the copy engine
 * copies them as it copies a local source's (src/copy/xattr.c): one piece
 * of code decides which attributes a copy carries, and compares a copy
 * found up to date with them. Attributes the sender could not read are
 * sent as not known (XATTRS_UNKNOWN): the receiver makes no stand-in of
 * them and leaves the copy's as they are.
 */
#ifndef SWEEP_SYNC_XATTRS_H
#define SWEEP_SYNC_XATTRS_H

#include <stdbool.h>
#include "strbuf.h"
#include "wire.h"

/* A count that says the sender could not read the file's attributes: the
 * receiver then leaves the copy's as they are (wire version 5). */
#define XATTRS_UNKNOWN 0xffffffffu

/* Sender: the attributes of the file open at fd, or its ACLs only
 * (acl_only), into f; with by_path, fd is an O_PATH descriptor (a file it
 * may not open for reading, whose attributes it may still read). Returns
 * 0, or -1 with errno when they could not be read: XATTRS_UNKNOWN went. */
int xattrs_put(struct wire_frame *f, int fd, bool by_path, bool acl_only);

/* Receiver: take the attributes from m into sb (kept as sent); false for
 * a block that does not parse. *count: how many, or XATTRS_UNKNOWN. */
bool xattrs_take(struct wire_msg *m, struct strbuf *sb, unsigned *count);

/* Receiver: set the attributes kept in sb on fd. Returns 0, or the errno
 * of the first that could not be set. */
int xattrs_apply(const struct strbuf *sb, int fd);

#endif
