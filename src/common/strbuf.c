/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strbuf.c: a growable byte buffer. Growth doubles, so appending n bytes
 * one at a time costs O(n); every allocation failure comes back as -1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

int sb_reserve(struct strbuf *sb, size_t more)
{
	if (sb->len + more + 1 <= sb->cap)
		return 0;
	if (more > ((size_t)-1) / 2 - sb->len) {
		errno = ENOMEM;
		return -1;
	}
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + more + 1)
		cap *= 2;
	char *s = realloc(sb->s, cap);
	if (!s)
		return -1;
	sb->s = s;
	sb->cap = cap;
	/* a buffer reserved but never added to is still read as a string */
	sb->s[sb->len] = 0;
	return 0;
}

int sb_add(struct strbuf *sb, const void *p, size_t n)
{
	if (sb_reserve(sb, n) < 0)
		return -1;
	if (n) /* p may be NULL then: an empty buffer's contents */
		memcpy(sb->s + sb->len, p, n);
	sb->len += n;
	sb->s[sb->len] = 0;
	return 0;
}

int sb_addc(struct strbuf *sb, char c)
{
	return sb_add(sb, &c, 1);
}

int sb_addstr(struct strbuf *sb, const char *s)
{
	return sb_add(sb, s, strlen(s));
}

int sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	char small[256];
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	int ret = -1;
	if (n < 0)
		goto out;
	if ((size_t)n < sizeof(small)) {
		ret = sb_add(sb, small, (size_t)n);
		goto out;
	}
	if (sb_reserve(sb, (size_t)n) < 0)
		goto out;
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, again);
	sb->len += (size_t)n;
	ret = 0;
out:
	va_end(again);
	return ret;
}

int sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int ret = sb_vprintf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->s)
		sb->s[0] = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->s);
	*sb = (struct strbuf)STRBUF_INIT;
}

int sb_last_component(struct strbuf *sb, const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t start = n;
	while (start > 0 && path[start - 1] != '/')
		start--;
	sb_reset(sb);
	return sb_add(sb, path + start, n - start);
}
