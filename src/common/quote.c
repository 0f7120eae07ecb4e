/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quote.c: GNU-compatible quoting of file names for messages.
 *
 * A name is taken one character at a time in the current locale: a valid
 * printable character is kept as it is; anything else (controls, invalid
 * bytes, unprintable wide characters) is escaped byte by byte, with C's
 * letter escapes where one exists and three-digit octal otherwise. The
 * styles differ in how they wrap the result:
 *   locale: between quotes, backslash before '\' and before the closing quote;
 *   shell:  between single quotes, with $'...' segments for escapes and '\''
 *           for an apostrophe, or between double quotes when the name has an
 *           apostrophe and nothing else a shell would treat specially;
 *   qmark:  no quotes, and '?' in place of each unprintable character.
 */
#include <errno.h>
#include <langinfo.h>
#include <stdbool.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include "quote.h"

#define LQUOTE_UTF8 "\xe2\x80\x98"
#define RQUOTE_UTF8 "\xe2\x80\x99"

int locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Length of the printable character at s (at most n bytes), or 0 when the
 * byte at s has to be escaped. errno is kept: a message's cause is often
 * read beside its quoted name, in an order C leaves open, and a name that
 * is no text in the locale would leave EILSEQ behind. */
size_t printable_len(const char *s, size_t n, mbstate_t *ps)
{
	unsigned char c = (unsigned char)*s;
	if (c < 0x80) {
		memset(ps, 0, sizeof(*ps));
		return c >= 0x20 && c < 0x7f ? 1 : 0;
	}
	int err = errno;
	wchar_t wc;
	size_t k = mbrtowc(&wc, s, n, ps);
	errno = err;
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		memset(ps, 0, sizeof(*ps));
		return 0;
	}
	return iswprint((wint_t)wc) ? k : 0;
}

/* The C escape of one byte: \n, \t... or \ooo. */
int add_escape(struct strbuf *sb, unsigned char c)
{
	static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv";
	const char *p = c ? memchr(letters, c, sizeof(letters) - 1) : NULL;
	if (p && (p - letters) % 2 == 0) {
		char e[2] = { '\\', p[1] };
		return sb_add(sb, e, 2);
	}
	char e[4] = { '\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
	              (char)('0' + (c & 7)) };
	return sb_add(sb, e, 4);
}

static int quote_locale(struct strbuf *sb, const char *s, size_t len, const char *also)
{
	bool utf8 = locale_is_utf8();
	const char *lq = utf8 ? LQUOTE_UTF8 : "'", *rq = utf8 ? RQUOTE_UTF8 : "'";
	size_t rqlen = strlen(rq);
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	int err = sb_addstr(sb, lq);
	for (size_t i = 0; i < len && !err;) {
		size_t k = printable_len(s + i, len - i, &ps);
		if (k == 0) {
			err = add_escape(sb, (unsigned char)s[i++]);
			continue;
		}
		if (s[i] == '\\' || (i + rqlen <= len && memcmp(s + i, rq, rqlen) == 0) ||
		    (k == 1 && also && strchr(also, s[i])))
			err = sb_addc(sb, '\\');
		if (!err)
			err = sb_add(sb, s + i, k);
		i += k;
	}
	return err ? err : sb_addstr(sb, rq);
}

/* Printable ASCII a shell treats specially anywhere in a word. */
static bool shell_special(char c)
{
	return strchr(" !\"$&'()*;<=>?[\\^`|", c) != NULL;
}

/* Printable ASCII that means the same between double quotes as in C. */
static bool dquote_safe(char c)
{
	return strchr(" %'+,-./:@]_", c) != NULL || (c >= '0' && c <= '9') ||
	       (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

struct shell_scan {
	bool needs_quotes;
	bool has_apostrophe;
	bool has_escapes;
	bool dquote_ok;
};

/* raw: the unprintable kept as it is, only a control character needing
 * quotes */
static struct shell_scan shell_scan(const char *s, size_t len, const char *also, bool raw)
{
	struct shell_scan r = { len == 0 || s[0] == '#' || s[0] == '~', false, false, true };
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	for (size_t i = 0; i < len;) {
		size_t k = printable_len(s + i, len - i, &ps);
		unsigned char c = (unsigned char)s[i];
		if (k == 0) {
			r.has_escapes |= !raw;
			r.needs_quotes |= !raw || c < 0x20 || c == 0x7f;
			r.dquote_ok &= !raw;
			i++;
			continue;
		}
		if (k == 1) {
			if (s[i] == '\'')
				r.has_apostrophe = true;
			if (shell_special(s[i]) || (also && strchr(also, s[i])))
				r.needs_quotes = true;
			if (!dquote_safe(s[i]))
				r.dquote_ok = false;
		}
		i += k;
	}
	return r;
}

/* Single quotes throughout; an escape segment $'...' is closed by '' when a
 * printable character follows it (raw: no escapes, the bytes as they are). */
static int quote_shell_single(struct strbuf *sb, const char *s, size_t len, bool raw)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	bool in_esc = false;
	int err = sb_addc(sb, '\'');
	for (size_t i = 0; i < len && !err;) {
		size_t k = printable_len(s + i, len - i, &ps);
		if (k == 0 && raw)
			k = 1;
		else if (k == 0) {
			if (!in_esc)
				err = sb_addstr(sb, "'$'");
			in_esc = true;
			if (!err)
				err = add_escape(sb, (unsigned char)s[i]);
			i++;
			continue;
		}
		if (s[i] == '\'') {
			err = sb_addstr(sb, "'\\''");
			in_esc = false;
		} else {
			if (in_esc)
				err = sb_addstr(sb, "''");
			in_esc = false;
			if (!err)
				err = sb_add(sb, s + i, k);
		}
		i += k;
	}
	return err ? err : sb_addc(sb, '\'');
}

static int quote_shell(struct strbuf *sb, const char *s, size_t len, bool always,
                       const char *also, bool raw)
{
	struct shell_scan r = shell_scan(s, len, also, raw);
	if (!always && !r.needs_quotes)
		return sb_add(sb, s, len);
	if (r.has_apostrophe && !r.has_escapes && r.dquote_ok) {
		if (sb_addc(sb, '"') < 0 || sb_add(sb, s, len) < 0)
			return -1;
		return sb_addc(sb, '"');
	}
	return quote_shell_single(sb, s, len, raw);
}

static int quote_qmark(struct strbuf *sb, const char *s, size_t len)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	int err = 0;
	for (size_t i = 0; i < len && !err;) {
		size_t k = printable_len(s + i, len - i, &ps);
		err = k ? sb_add(sb, s + i, k) : sb_addc(sb, '?');
		i += k ? k : 1;
	}
	return err;
}

int quote_append_also(struct strbuf *sb, enum quote_style style, const char *s, size_t len,
                      const char *also)
{
	switch (style) {
	case QUOTE_LOCALE:
		return quote_locale(sb, s, len, also);
	case QUOTE_SHELL_ALWAYS:
		return quote_shell(sb, s, len, true, also, false);
	case QUOTE_SHELL_COLON:
		return quote_shell(sb, s, len, false, ":", false);
	case QUOTE_QMARK:
		return quote_qmark(sb, s, len);
	case QUOTE_SHELL:
		return quote_shell(sb, s, len, false, also, false);
	case QUOTE_SHELL_RAW:
		return quote_shell(sb, s, len, false, also, true);
	case QUOTE_SHELL_RAW_ALWAYS:
		return quote_shell(sb, s, len, true, also, true);
	}
	return sb_add(sb, s, len);
}

int quote_append(struct strbuf *sb, enum quote_style style, const char *s, size_t len)
{
	return quote_append_also(sb, style, s, len, NULL);
}

