/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * printf.h: -printf and -fprintf formats (printf.c) and the pieces of file
 * information they share with -ls (ls.c).
 */
#ifndef SWEEP_FIND_PRINTF_H
#define SWEEP_FIND_PRINTF_H

#include "find.h"
#include "output.h"

struct fmt;

/* Compile a format; NULL after a reported error (or memory exhaustion). */
struct fmt *fmt_compile(struct find *f, const char *s);
void fmt_run(struct find *f, const struct fmt *fmt, struct out *o, const struct sweep_entry *e);
void fmt_free(struct fmt *fmt);
/* NEED_TYPE, NEED_STAT: what the format shows besides names. */
unsigned fmt_needs(const struct fmt *fmt);

/* "-rw-r--r--": the type and permissions as ls shows them, into buf[11]. */
void mode_string(mode_t mode, char *buf);
/* The type letter of find's %y: f d l b c p s, or U. */
char type_char(mode_t mode);

/* ls.c: one -ls line for e on o. */
void ls_print(struct find *f, struct out *o, const struct sweep_entry *e);

#endif
