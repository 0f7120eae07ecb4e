/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * diag.h: messages in GNU's format and the exit status they add up to.
 *
 * Every tool reports through one struct diag, created in main() and passed
 * to whatever may fail: "prog: what: strerror(errno)" on stderr, the exit
 * status raised to 1 by every error. Names in messages are quoted with
 * diag_quote(), which keeps a few buffers so that one message can hold more
 * than one quoted name.
 */
#ifndef SWEEP_DIAG_H
#define SWEEP_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include "quote.h"
#include "strbuf.h"

#define DIAG_QUOTE_SLOTS 3

struct diag {
	const char *prog;   /* program name used as the prefix */
	int status;         /* exit status so far: 0, or the worst seen */
	enum quote_style style; /* how diag_quote() quotes by default */
	struct strbuf q[DIAG_QUOTE_SLOTS];
};

/* prog is the program's name (argv[0] is trimmed to its last component and
 * libtool's "lt-" prefix). */
void diag_init(struct diag *d, const char *argv0, enum quote_style style);
void diag_free(struct diag *d);

/* "prog: message[: strerror(errnum)]"; errnum 0 for none. diag_error()
 * raises the exit status to 1, diag_warn() leaves it alone. */
void diag_error(struct diag *d, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warn(struct diag *d, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_vmsg(struct diag *d, int errnum, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* "Try 'prog --help' for more information." */
void diag_try_help(struct diag *d);

/* Raise the exit status to at least status. */
void diag_fail(struct diag *d, int status);

/* name quoted in the default style, or in style; valid until the same slot
 * is used again. Never NULL: on allocation failure the name itself. */
const char *diag_quote(struct diag *d, int slot, const char *name);
const char *diag_quote_style(struct diag *d, int slot, enum quote_style style,
                             const char *name);

#endif
