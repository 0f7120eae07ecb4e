/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * context.c: -context, the test of a file's SELinux security context.
 * sweep-find reads no contexts (it does not link libselinux), so the test
 * is refused: with SELinux not enabled in GNU find's words, which is what
 * GNU find says on such a system; where it is enabled, saying that
 * sweep-find cannot, rather than matching nothing in silence.
 */
#include <unistd.h>
#include "prim.h"

/* Whether SELinux is enabled: libselinux's test is that its file system is
 * mounted (at /sys/fs/selinux on every current system). */
static bool selinux_enabled(void)
{
	return access("/sys/fs/selinux/enforce", F_OK) == 0;
}

int parse_context(struct parser *p, struct expr *x)
{
	if (!parser_arg(p, x->name))
		return 1;
	if (!selinux_enabled())
		diag_error(p->f->diag, 0, "invalid predicate %s: SELinux is not enabled.", x->name);
	else
		diag_error(p->f->diag, 0, "invalid predicate %s: security contexts are not "
		           "supported by this find", x->name);
	return 1;
}
