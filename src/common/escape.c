/*
 * escape.c: GNU's "escape" quoting style (see escape.h).
 *
 * Printability is decided one character at a time with mbrtowc() in the
 * current locale, as quotearg does, so a UTF-8 name reads as itself in a
 * UTF-8 locale and as octal escapes in the C locale, like GNU tar's output.
 */
#include <stdbool.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include "escape.h"

/* Length of the printable character at s, or 0 when its first byte must be
 * escaped. */
static size_t printable(const char *s, size_t n, mbstate_t *ps)
{
	unsigned char c = (unsigned char)*s;
	if (c < 0x80) {
		memset(ps, 0, sizeof(*ps));
		return c >= 0x20 && c < 0x7f ? 1 : 0;
	}
	wchar_t wc;
	size_t k = mbrtowc(&wc, s, n, ps);
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		memset(ps, 0, sizeof(*ps));
		return 0;
	}
	return iswprint((wint_t)wc) ? k : 0;
}

static int escape_byte(struct strbuf *sb, unsigned char c)
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

int escape_append(struct strbuf *sb, const char *s, size_t len, const char *also)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	if (sb_reserve(sb, len + 1) < 0)
		return -1;
	for (size_t i = 0; i < len;) {
		size_t k = printable(s + i, len - i, &ps);
		int err;
		if (k == 0) {
			err = escape_byte(sb, (unsigned char)s[i]);
			k = 1;
		} else if (k == 1 && (s[i] == '\\' || (also && strchr(also, s[i])))) {
			char e[2] = { '\\', s[i] };
			err = sb_add(sb, e, 2);
		} else {
			err = sb_add(sb, s + i, k);
		}
		if (err)
			return -1;
		i += k;
	}
	return 0;
}
