/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quote.h: file names in messages, quoted the way GNU tools quote them, so
 * that a name with spaces, quotes, newlines or invalid bytes reads back
 * unambiguously and a diff against GNU's messages is empty.
 */
#ifndef SWEEP_QUOTE_H
#define SWEEP_QUOTE_H

#include <stddef.h>
#include <wchar.h>
#include "strbuf.h"

enum quote_style {
	/* 'name' (‘name’ in UTF-8 locales), C escapes: findutils' messages */
	QUOTE_LOCALE,
	/* always shell-quoted, $'\n' for the unprintable: coreutils' quoteaf */
	QUOTE_SHELL_ALWAYS,
	/* shell-quoted only when needed, ':' counts as special: quotef */
	QUOTE_SHELL_COLON,
	/* as it is, each unprintable character shown as '?': names on terminals */
	QUOTE_QMARK,
	/* shell-quoted only when needed, $'\n' for the unprintable: tar's
	 * --quoting-style=shell-escape */
	QUOTE_SHELL,
	/* shell-quoted when needed (a control character is), or always, the
	 * bytes as they are: --quoting-style=shell, shell-always */
	QUOTE_SHELL_RAW,
	QUOTE_SHELL_RAW_ALWAYS,
};

/* Append the quoted form of the len bytes at s to sb. Returns 0 or -1. */
int quote_append(struct strbuf *sb, enum quote_style style, const char *s, size_t len);
/* The same, the characters in also (NULL: none) special too: escaped in
 * QUOTE_LOCALE, making the shell styles quote. */
int quote_append_also(struct strbuf *sb, enum quote_style style, const char *s, size_t len,
                      const char *also);

/* Length of the printable (multibyte) character at s, at most n bytes, or 0
 * when the byte at s has to be escaped; ps carries the shift state. */
size_t printable_len(const char *s, size_t n, mbstate_t *ps);

/* Append the C escape of byte c (\n, \t... or \ooo). Returns 0 or -1. */
int add_escape(struct strbuf *sb, unsigned char c);

/* Whether the current locale's character set is UTF-8. */
int locale_is_utf8(void);

#endif
