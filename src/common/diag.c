/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * diag.c: GNU-style messages and the exit status collector.
 *
 * Standard output is flushed before every message, as GNU's error() does,
 * so that output and messages interleave in the order they happened when
 * both go to the same place.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "diag.h"

void diag_init(struct diag *d, const char *argv0, enum quote_style style)
{
	memset(d, 0, sizeof(*d));
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
	const char *base = slash ? slash + 1 : argv0 ? argv0 : "sweep";
	if (strncmp(base, "lt-", 3) == 0)
		base += 3;
	d->prog = base;
	d->style = style;
}

void diag_free(struct diag *d)
{
	for (int i = 0; i < DIAG_QUOTE_SLOTS; i++)
		sb_free(&d->q[i]);
}

void diag_vmsg(struct diag *d, int errnum, const char *fmt, va_list ap)
{
	fflush(stdout);
	flockfile(stderr); /* one line, whatever other threads say */
	fprintf(stderr, "%s: ", d->prog);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	funlockfile(stderr);
}

void diag_error(struct diag *d, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(d, errnum, fmt, ap);
	va_end(ap);
	diag_fail(d, 1);
}

void diag_warn(struct diag *d, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(d, errnum, fmt, ap);
	va_end(ap);
}

void diag_try_help(struct diag *d)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", d->prog);
}

void diag_fail(struct diag *d, int status)
{
	if (status > d->status)
		d->status = status;
}

const char *diag_quote_style(struct diag *d, int slot, enum quote_style style,
                             const char *name)
{
	struct strbuf *sb = &d->q[slot % DIAG_QUOTE_SLOTS];
	sb_reset(sb);
	if (quote_append(sb, style, name, strlen(name)) < 0)
		return name;
	return sb_str(sb);
}

const char *diag_quote(struct diag *d, int slot, const char *name)
{
	return diag_quote_style(d, slot, d->style, name);
}
