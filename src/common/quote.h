/*
 * quote.h: file names in messages, quoted the way GNU tools quote them, so
 * that a name with spaces, quotes, newlines or invalid bytes reads back
 * unambiguously and a diff against GNU's messages is empty.
 */
#ifndef SWEEP_QUOTE_H
#define SWEEP_QUOTE_H

#include <stddef.h>
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
};

/* Append the quoted form of the len bytes at s to sb. Returns 0 or -1. */
int quote_append(struct strbuf *sb, enum quote_style style, const char *s, size_t len);

/* Whether the current locale's character set is UTF-8. */
int locale_is_utf8(void);

#endif
