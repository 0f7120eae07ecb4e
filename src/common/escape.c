/* SPDX-License-Identifier: BSD-2-Clause */
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
#include "escape.h"
#include "quote.h"

int escape_append(struct strbuf *sb, const char *s, size_t len, const char *also)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof(ps));
	if (sb_reserve(sb, len + 1) < 0)
		return -1;
	for (size_t i = 0; i < len;) {
		size_t k = printable_len(s + i, len - i, &ps);
		int err;
		if (k == 0) {
			err = add_escape(sb, (unsigned char)s[i]);
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
