/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qstyle.c: --quoting-style, --quote-chars and --no-quote-chars: how names
 * are shown in listings and messages, in the styles of GNU tar (gnulib's
 * quotearg). The default, "escape", writes the unprintable as C escapes
 * and doubles a backslash; messages escape ':' too, whatever the style.
 */
#include <string.h>
#include "argmatch.h"
#include "escape.h"
#include "quote.h"
#include "tar.h"

static const char *const style_words[] = { "literal", "shell", "shell-always", "shell-escape",
	                                   "shell-escape-always", "c", "c-maybe", "escape",
	                                   "locale", "clocale", NULL };
static const int style_values[] = { QS_LITERAL, QS_SHELL, QS_SHELL_ALWAYS, QS_SHELL_ESCAPE,
	                            QS_SHELL_ESCAPE_ALWAYS, QS_C, QS_C_MAYBE, QS_ESCAPE,
	                            QS_LOCALE, QS_CLOCALE };

bool qstyle_parse(struct tar *t, const char *arg)
{
	for (size_t i = 0; style_words[i]; i++)
		if (strcmp(arg, style_words[i]) == 0) {
			t->opt.quoting = (enum tar_quoting)style_values[i];
			return true;
		}
	/* GNU tar's words (its "help" lists nothing either) */
	tar_fatal(t, 0, "Unknown quoting style '%s'. Try '%s --quoting-style=help' to get a list.",
	          arg, t->diag->prog);
	return false;
}

/* --quote-chars less --no-quote-chars, then also, into chars. */
static const char *escaped_chars(const struct tar_opts *o, const char *also, char *chars,
                                 size_t size)
{
	size_t n = 0;
	for (const char *p = o->quote_chars; p && *p && n + 1 < size; p++)
		if (!o->no_quote_chars || !strchr(o->no_quote_chars, *p))
			chars[n++] = *p;
	for (const char *p = also; p && *p && n + 1 < size; p++)
		chars[n++] = *p;
	chars[n] = 0;
	return chars;
}

/* Whether c-maybe quotes s: something in it needs an escape. */
static bool needs_c_quotes(const char *s, const char *chars)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	for (size_t i = 0, n = strlen(s), k; i < n; i += k ? k : 1) {
		k = printable_len(s + i, n - i, &ps);
		if (!k || (k == 1 && (s[i] == '"' || strchr(chars, s[i]))))
			return true;
	}
	return false;
}

int qstyle_append(const struct tar_opts *o, struct strbuf *sb, const char *s, const char *also)
{
	char buf[128];
	const char *chars = escaped_chars(o, also, buf, sizeof(buf) - 1);
	size_t len = strlen(s);
	enum tar_quoting q = o->quoting;
	if (q == QS_CLOCALE)
		q = locale_is_utf8() ? QS_LOCALE : QS_C;
	if (q == QS_C_MAYBE && !needs_c_quotes(s, chars))
		q = QS_LITERAL;
	switch (q) {
	case QS_LITERAL:
		return sb_add(sb, s, len);
	case QS_SHELL:
		return quote_append_also(sb, QUOTE_SHELL_RAW, s, len, chars);
	case QS_SHELL_ALWAYS:
		return quote_append_also(sb, QUOTE_SHELL_RAW_ALWAYS, s, len, chars);
	case QS_SHELL_ESCAPE:
		return quote_append_also(sb, QUOTE_SHELL, s, len, chars);
	case QS_SHELL_ESCAPE_ALWAYS:
		return quote_append_also(sb, QUOTE_SHELL_ALWAYS, s, len, chars);
	case QS_LOCALE:
		return quote_append_also(sb, QUOTE_LOCALE, s, len, chars);
	case QS_C:
	case QS_C_MAYBE: { /* (c-maybe quotes for the characters, not escapes them) */
		size_t n = q == QS_C ? strlen(chars) : 0;
		buf[n] = '"', buf[n + 1] = 0; /* (room kept above) */
		return sb_addc(sb, '"') < 0 || escape_append(sb, s, len, buf) < 0 ? -1
		       : sb_addc(sb, '"');
	}
	default:
		return escape_append(sb, s, len, chars);
	}
}
