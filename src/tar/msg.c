/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.c: messages in GNU tar's words and the exit status they add up to.
 *
 * GNU tar raises its status to 2 for every error it reports, to 1 only for
 * files that changed while they were read, and leaves it alone for notes
 * such as "socket ignored"; a fatal error ends with "Error is not
 * recoverable". Names go through GNU's escape quoting, with ':' escaped in
 * messages (quotearg_colon) but not in listings.
 */
#include <stdarg.h>
#include <string.h>
#include "escape.h"
#include "quote.h"
#include "permstr.h"
#include "tar.h"

static const char *quote_in(struct tar *t, int slot, const char *name, const char *also)
{
	struct strbuf *sb = &t->q[slot % 3];
	sb_reset(sb);
	if (qstyle_append(&t->opt, sb, name, also) < 0)
		return name;
	return sb_str(sb);
}

const char *tq(struct tar *t, int slot, const char *name)
{
	return quote_in(t, slot, name, ":");
}

const char *tqlist(struct tar *t, int slot, const char *name)
{
	return quote_in(t, slot, name, NULL);
}

const char *tquote(struct tar *t, int slot, const char *s)
{
	struct strbuf *sb = &t->q[slot % 3];
	sb_reset(sb);
	return quote_append(sb, QUOTE_LOCALE, s, strlen(s)) < 0 ? s : sb_str(sb);
}

void tar_error(struct tar *t, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(t->diag, errnum, fmt, ap);
	va_end(ap);
	diag_fail(t->diag, TAR_FAILURE);
}

void tar_warn(struct tar *t, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(t->diag, errnum, fmt, ap);
	va_end(ap);
}

void tar_differs(struct tar *t, unsigned warning, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (!(t->opt.quiet & warning))
		diag_vmsg(t->diag, 0, fmt, ap);
	va_end(ap);
	diag_fail(t->diag, TAR_DIFFERS);
}

void tar_note(struct tar *t, unsigned warning, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (!(t->opt.quiet & warning))
		diag_vmsg(t->diag, 0, fmt, ap);
	va_end(ap);
}

void tar_fatal(struct tar *t, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(t->diag, errnum, fmt, ap);
	va_end(ap);
	diag_warn(t->diag, 0, "Error is not recoverable: exiting now");
	diag_fail(t->diag, TAR_FAILURE);
	t->fatal = true;
}

void tar_cannot(struct tar *t, const char *name, const char *op, int errnum)
{
	tar_error(t, errnum, "%s: Cannot %s", tq(t, 0, name), op);
}

void tar_cannot_chmod(struct tar *t, const char *name, mode_t mode, int errnum)
{
	char letters[10];
	perm_letters(mode, letters);
	tar_error(t, errnum, "%s: Cannot change mode to %s", tq(t, 0, name), letters);
}

void tar_removed(struct tar *t, const char *name)
{
	tar_differs(t, WARN_FILE_REMOVED, "%s: File removed before we read it", tq(t, 0, name));
}

void tar_cannot_read(struct tar *t, const char *name, const char *op, int errnum)
{
	if (t->opt.ignore_failed_read)
		tar_warn(t, errnum, "%s: Warning: Cannot %s", tq(t, 0, name), op);
	else
		tar_cannot(t, name, op, errnum);
}
