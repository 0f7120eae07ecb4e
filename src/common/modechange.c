/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * modechange.c: chmod's mode changes, octal or symbolic ("u=rwx,g+w",
 * "a-x,u+s", "go=u", "+X"), applied as GNU's tools apply them (gnulib's
 * mode_adjust): a clause without "who" ("+w") leaves out the bits of the
 * umask given, '=' without "who" clears the rest, "X" is execute for a
 * directory or where some execute bit is set, and a directory keeps its
 * set-user-id and set-group-id bits unless a change names them (an octal
 * mode of fewer than five digits does not). Used by sweep-tar's --mode,
 * on each member's mode, and by sweep-find's -perm, on an empty mode with
 * no umask. The string is read again at each use: it is short.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include "modechange.h"

#define ALL_BITS 07777
#define IDS (S_ISUID | S_ISGID)

static bool octal(const char *s, mode_t *v, size_t *digits)
{
	*v = 0;
	*digits = 0;
	for (; *s; s++, (*digits)++) {
		if (*s < '0' || *s > '7' || (*v = *v * 8 + (mode_t)(*s - '0')) > ALL_BITS)
			return false;
	}
	return *digits > 0;
}

static mode_t who_bits(char c)
{
	return c == 'u' ? S_ISUID | S_IRWXU : c == 'g' ? S_ISGID | S_IRWXG
	     : c == 'o' ? S_ISVTX | S_IRWXO : ALL_BITS;
}

/* The permissions after an operator: *val the bits, or a class to copy
 * (*copy: its rwx bits, spread later) or X (*ifx). Returns the end. */
static const char *perms(const char *s, mode_t *val, mode_t *copy, bool *ifx)
{
	*val = *copy = 0;
	*ifx = false;
	if (*s && strchr("ugo", *s)) {
		*copy = *s == 'u' ? S_IRWXU : *s == 'g' ? S_IRWXG : S_IRWXO;
		return s + 1;
	}
	for (; *s && strchr("rwxXst", *s); s++) {
		switch (*s) {
		case 'r': *val |= 0444; break;
		case 'w': *val |= 0222; break;
		case 'x': *val |= 0111; break;
		case 'X': *ifx = true; break;
		case 's': *val |= IDS; break;
		case 't': *val |= S_ISVTX; break;
		}
	}
	return s;
}

/* The bits to change for one operator, from the mode so far. */
static mode_t value_of(mode_t val, mode_t copy, bool ifx, mode_t mode, bool dir)
{
	if (copy) {
		mode_t c = mode & copy;
		val |= (c & 0444 ? 0444 : 0) | (c & 0222 ? 0222 : 0) | (c & 0111 ? 0111 : 0);
	}
	if (ifx && ((mode & 0111) || dir))
		val |= 0111;
	return val;
}

/* One operator and its permissions, applied to *mode. Returns the end. */
static const char *action(const char *s, mode_t who, mode_t umask_bits, bool dir, mode_t *mode)
{
	char op = *s++;
	mode_t val, copy;
	bool ifx;
	s = perms(s, &val, &copy, &ifx);
	mode_t mentioned = who ? who & (val | copy | (ifx ? 0111 : 0)) : val | copy;
	mode_t omit = dir ? IDS & ~mentioned : 0;
	val = value_of(val, copy, ifx, *mode, dir) & (who ? who : ~umask_bits) & ~omit;
	if (op == '+')
		*mode |= val;
	else if (op == '-')
		*mode &= ~val;
	else
		*mode = (*mode & (~(mode_t)ALL_BITS | (who ? ~who : 0) | omit)) | val;
	return s;
}

bool mode_change(const char *s, mode_t umask_bits, bool dir, mode_t *mode)
{
	mode_t v;
	size_t digits;
	if (octal(s, &v, &digits)) {
		/* fewer than five digits leave a directory's ids alone */
		mode_t keep = dir && digits < 5 ? IDS & ~v : 0;
		*mode = (*mode & ~(mode_t)ALL_BITS) | (*mode & keep) | (v & ~keep);
		return true;
	}
	for (;;) {
		mode_t who = 0;
		for (; *s && strchr("ugoa", *s); s++)
			who |= who_bits(*s);
		if (!*s || !strchr("+-=", *s))
			return false;
		while (*s && strchr("+-=", *s))
			s = action(s, who, umask_bits, dir, mode);
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}
