/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xfail.h: a member the disk writer could not create, in GNU tar's words
 * (xfail.c).
 */
#ifndef SWEEP_TAR_XFAIL_H
#define SWEEP_TAR_XFAIL_H

#include <archive.h>
#include <archive_entry.h>
#include "tar.h"

/* Report that disk could not create member e, extracted as name, as GNU tar
 * does ("Cannot mknod: Operation not permitted"...). Returns false, having
 * said nothing, when disk's error is not one of a failed creation. */
bool xfail_create(struct tar *t, struct archive *disk, struct archive_entry *e,
                  const char *name);
/* Report disk's warning that extended attributes or an ACL could not be
 * set on member e, extracted as name, in GNU tar's words (the attributes
 * libarchive names are set again, for the kernel's reason). Returns false,
 * having said nothing, when the warning is another. */
bool xfail_attrs(struct tar *t, struct archive *disk, struct archive_entry *e, const char *name);
/* GNU tar's warning that an ACL could not be set on name (err). */
void xfail_acl(struct tar *t, const char *name, int err);
/* The same words for a failure err found here (-k: EEXIST). */
void xfail_said(struct tar *t, struct archive_entry *e, const char *name, int err);

#endif
