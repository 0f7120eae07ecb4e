/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * escape.h: names quoted in GNU quotearg's "escape" style, the style GNU tar
 * uses for every name it prints: no surrounding quotes, C escapes for
 * control characters, \ooo for bytes that are not printable in the current
 * locale, and a backslash before '\' and before any character of "also"
 * (tar's messages pass ":" so that "a:b: Cannot stat" stays unambiguous).
 */
#ifndef SWEEP_ESCAPE_H
#define SWEEP_ESCAPE_H

#include <stddef.h>
#include "strbuf.h"

/* Append the escaped form of the len bytes at s to sb. Returns 0 or -1. */
int escape_append(struct strbuf *sb, const char *s, size_t len, const char *also);

#endif
