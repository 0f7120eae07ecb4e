/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strbuf.h: a growable byte buffer, for building paths, messages and
 * command lines whose length has no useful upper bound.
 */
#ifndef SWEEP_STRBUF_H
#define SWEEP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *s;     /* NUL-terminated once anything was added; may be NULL */
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* Each returns 0, or -1 with errno ENOMEM (the buffer is left as it was). */
int sb_reserve(struct strbuf *sb, size_t more);
int sb_add(struct strbuf *sb, const void *p, size_t n);
int sb_addc(struct strbuf *sb, char c);
int sb_addstr(struct strbuf *sb, const char *s);
int sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The contents as a string ("" when nothing was added). */
const char *sb_str(const struct strbuf *sb);
void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);

/* The last component of path, trailing slashes left out ("a/b/" gives
 * "b", "/" gives "/"), into sb. Returns 0 or -1 (ENOMEM). */
int sb_last_component(struct strbuf *sb, const char *path);

#endif
