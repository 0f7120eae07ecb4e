/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mode.c: -perm's mode argument: octal ("644") or chmod's symbolic clauses
 * ("u=rwx,g+w", "a-x,u+s"), applied to an empty mode with no umask, once
 * for files and once for directories, since "X" adds execute permission
 * only to directories (or where some execute bit is already set).
 */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include "prim.h"

#define ALL_BITS 07777

static bool parse_octal(const char *s, mode_t *out)
{
	mode_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '7')
			return false;
		v = v * 8 + (mode_t)(*s - '0');
		if (v > ALL_BITS)
			return false;
	}
	*out = v;
	return true;
}

static mode_t who_bits(char c)
{
	switch (c) {
	case 'u': return S_ISUID | S_IRWXU;
	case 'g': return S_ISGID | S_IRWXG;
	case 'o': return S_ISVTX | S_IRWXO;
	case 'a': return ALL_BITS;
	}
	return 0;
}

/* The permission bits of class c ('u', 'g', 'o') in mode, copied to all
 * three classes. */
static mode_t copy_class(mode_t mode, char c)
{
	mode_t rwx = c == 'u' ? (mode >> 6) & 7 : c == 'g' ? (mode >> 3) & 7 : mode & 7;
	return rwx * 0111;
}

/* Apply one action (op followed by permissions) of a clause to *mode.
 * Returns a pointer after the action, or NULL if it is malformed. */
static const char *apply_action(const char *s, mode_t who, bool dir, mode_t *mode)
{
	char op = *s++;
	mode_t affected = who ? who : ALL_BITS;
	mode_t val = 0;
	if (*s == 'u' || *s == 'g' || *s == 'o') {
		val = copy_class(*mode, *s++);
	} else {
		for (; *s && strchr("rwxXst", *s); s++) {
			switch (*s) {
			case 'r': val |= 0444; break;
			case 'w': val |= 0222; break;
			case 'x': val |= 0111; break;
			case 'X': if (dir || (*mode & 0111)) val |= 0111; break;
			case 's': val |= S_ISUID | S_ISGID; break;
			case 't': val |= S_ISVTX; break;
			}
		}
	}
	val &= affected;
	if (op == '+')
		*mode |= val;
	else if (op == '-')
		*mode &= ~val;
	else
		*mode = (*mode & ~affected) | val;
	return s;
}

/* One clause, up to a comma or the end. */
static const char *apply_clause(const char *s, bool dir, mode_t *mode)
{
	mode_t who = 0;
	for (; *s && strchr("ugoa", *s); s++)
		who |= who_bits(*s);
	if (!*s || !strchr("+-=", *s))
		return NULL;
	while (*s && strchr("+-=", *s))
		if (!(s = apply_action(s, who, dir, mode)))
			return NULL;
	return s;
}

static bool parse_symbolic(const char *s, bool dir, mode_t *out)
{
	mode_t mode = 0;
	for (;;) {
		s = apply_clause(s, dir, &mode);
		if (!s)
			return false;
		if (!*s)
			break;
		if (*s++ != ',')
			return false;
	}
	*out = mode;
	return true;
}

bool mode_parse(const char *s, mode_t out[2])
{
	if (*s >= '0' && *s <= '9') {
		if (!parse_octal(s, &out[0]))
			return false;
		out[1] = out[0];
		return true;
	}
	return parse_symbolic(s, false, &out[0]) && parse_symbolic(s, true, &out[1]);
}
