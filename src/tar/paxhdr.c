/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxhdr.c: the extended headers of the posix format as --pax-option
 * shapes them. libarchive's pax writer has no say in which records it
 * writes nor how it names its headers, so its output for each member is
 * taken apart here: the records of the 'x' header are kept unless
 * delete= matches them or keyword:=value replaces them, the overrides
 * follow (in GNU tar's order, the last given first), and the header gets
 * GNU tar's name ("%d/PaxHeaders/%f" unless exthdr.name= says otherwise)
 * and GNU's block layout. As in GNU tar, a member has an extended header
 * only when some record of its own survives delete= (GNU tar's own atime
 * and ctime count: sweep-tar does not store them, but a member gets the
 * overrides unless both are deleted). The global header holds the -V
 * label, the keyword=value records, the last given first, and then the
 * overrides. Each member's ustar block gets GNU's number fields, so that
 * a reproducible archive is GNU's byte for byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "paxopt.h"
#include "writer.h"

enum { BLOCK = 512, NAME_LEN = 100, MODE_AT = 100, UID_AT = 108, GID_AT = 116, SIZE_AT = 124,
       MTIME_AT = 136, TYPE_AT = 156, MAGIC_AT = 257, DEVMAJOR_AT = 329, DEVMINOR_AT = 337,
       PREFIX_AT = 345, PREFIX_LEN = 155 };

int paxhdr_record(struct strbuf *sb, const char *key, const char *value, size_t vlen)
{
	/* the length counts its own digits */
	size_t len = strlen(key) + vlen + 3, total = len + 1;
	for (size_t d = 10; total >= d; d *= 10)
		total++;
	if (sb_printf(sb, "%zu %s=", total, key) < 0 || sb_add(sb, value, vlen) < 0)
		return -1;
	return sb_addc(sb, '\n');
}

/* The records of l, the last given first (GNU tar's lists grow at the
 * head). Returns 0 or -1. */
static int add_list(struct strbuf *sb, const struct pax_list *l)
{
	for (size_t i = l->n; i-- > 0;)
		if (paxhdr_record(sb, l->key[i], l->value[i], strlen(l->value[i])) < 0)
			return -1;
	return 0;
}

void paxhdr_block(char *h, const char *name, size_t size, time_t mtime, char type)
{
	memset(h, 0, BLOCK);
	strncpy(h, name, NAME_LEN);
	snprintf(h + MODE_AT, 8, "%07o", 0644);
	snprintf(h + UID_AT, 8, "%07o", 0);
	snprintf(h + GID_AT, 8, "%07o", 0);
	snprintf(h + SIZE_AT, 12, "%011zo", size);
	if (mtime < 0)
		mtime = 0;
	if ((uintmax_t)mtime > 077777777777u)
		mtime = (time_t)077777777777u;
	snprintf(h + MTIME_AT, 12, "%011jo", (uintmax_t)mtime);
	h[TYPE_AT] = type;
	memcpy(h + MAGIC_AT, "ustar\0" "00", 8);
	writer_checksum(h);
}

/* GNU's xheader_format_name(): %d the member's directory ("." for none),
 * %f its last component, %p the process id, %n the number n, %% a '%';
 * no slash at the end. member NULL: %d and %f are empty. */
static int format_name(struct strbuf *sb, const char *fmt, const char *member, size_t n)
{
	size_t mlen = member ? names_bare_len(member) : 0;
	const char *slash = member ? memrchr(member, '/', mlen) : NULL;
	size_t dlen = slash ? (size_t)(slash - member) : 0;
	int r = 0;
	for (const char *p = fmt; *p && r == 0; p++) {
		if (*p != '%' || !p[1]) {
			r = sb_addc(sb, *p);
			continue;
		}
		switch (*++p) {
		case '%': r = sb_addc(sb, '%'); break;
		case 'd':
			if (member)
				r = slash ? sb_add(sb, member, dlen ? dlen : 1) : sb_addc(sb, '.');
			break;
		case 'f': /* a directory's with its '/', as GNU tar's */
			if (member)
				r = sb_addstr(sb, slash ? slash + 1 : member);
			break;
		case 'p': r = sb_printf(sb, "%ld", (long)getpid()); break;
		case 'n': r = sb_printf(sb, "%zu", n); break;
		default: r = sb_add(sb, p - 1, 2);
		}
	}
	while (r == 0 && sb->len > 0 && sb->s[sb->len - 1] == '/')
		sb->s[--sb->len] = 0;
	return r;
}

/* Blocks of the header of type and name, then data padded, onto out. */
static int put_header(struct strbuf *out, const char *name, const struct strbuf *data,
                      time_t mtime, char type)
{
	char h[BLOCK];
	paxhdr_block(h, name, data->len, mtime, type);
	size_t pad = (BLOCK - data->len % BLOCK) % BLOCK;
	if (sb_add(out, h, BLOCK) < 0 || sb_add(out, data->s, data->len) < 0 ||
	    sb_reserve(out, pad) < 0)
		return -1;
	memset(out->s + out->len, 0, pad);
	out->len += pad;
	return 0;
}

int paxhdr_global(struct tar *t, const char *label, time_t now, struct strbuf *out)
{
	const struct pax_opts *po = t->opt.pax;
	struct strbuf recs = STRBUF_INIT, tmpl = STRBUF_INIT, name = STRBUF_INIT;
	int r = -1;
	if (label && paxhdr_record(&recs, "GNU.volume.label", label, strlen(label)) < 0)
		goto out;
	/* GNU tar ends the global header, when there is one, with the
	 * keyword:=value records as it ends every extended header */
	if (po && (add_list(&recs, &po->global) < 0 ||
	           (recs.len && add_list(&recs, &po->member) < 0)))
		goto out;
	if (!recs.len) {
		r = 0;
		goto out;
	}
	const char *fmt = po ? po->globexthdr_name : NULL;
	if (!fmt) {
		const char *tmp = getenv("TMPDIR");
		if (sb_printf(&tmpl, "%s/GlobalHead.%%n", tmp && *tmp ? tmp : "/tmp") < 0)
			goto out;
		fmt = tmpl.s;
	}
	time_t mtime = po && po->globexthdr_mtime_set ? po->globexthdr_mtime : now;
	if (format_name(&name, fmt, NULL, 1) == 0 &&
	    put_header(out, sb_str(&name), &recs, mtime, 'g') == 0)
		r = 0;
out:
	sb_free(&recs);
	sb_free(&tmpl);
	sb_free(&name);
	return r;
}

static uint64_t octal(const char *p, size_t len)
{
	uint64_t v = 0;
	for (size_t i = 0; i < len && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (uint64_t)(p[i] - '0');
	return v;
}

/* The records of data (len bytes) onto out as delete= and keyword:=value
 * leave them; *own: whether one of the member's own survived delete=.
 * path gets the member's name from its records, if they have it. Returns
 * 0 or -1. */
static int filter_records(const struct pax_opts *po, const char *data, size_t len,
                          struct strbuf *out, bool *own, struct strbuf *path)
{
	for (size_t at = 0; at < len;) {
		char *end;
		unsigned long n = strtoul(data + at, &end, 10);
		const char *key = end + 1, *eq;
		if (n == 0 || at + n > len || *end != ' ' ||
		    !(eq = memchr(key, '=', (size_t)(data + at + n - key))))
			return sb_add(out, data + at, len - at); /* not libarchive's: kept */
		struct strbuf k = STRBUF_INIT;
		if (sb_add(&k, key, (size_t)(eq - key)) < 0)
			return -1;
		/* a sparse file's real name is its GNU.sparse.name */
		if (strcmp(k.s, "path") == 0 || strcmp(k.s, "GNU.sparse.name") == 0) {
			sb_reset(path);
			if (sb_add(path, eq + 1, (size_t)(data + at + n - 1 - (eq + 1))) < 0)
				n = 0;
		}
		bool deleted = paxopt_deleted(po, k.s);
		*own |= !deleted;
		if (n && !deleted && !paxopt_overridden(po, k.s) && sb_add(out, data + at, n) < 0)
			n = 0;
		sb_free(&k);
		if (n == 0)
			return -1;
		at += n;
	}
	return 0;
}

/* The numbers of the ustar block h written as GNU tar writes them
 * ("0000644\0" where libarchive writes "000644 \0"), so that what
 * --pax-option makes reproducible is GNU tar's bytes. */
static void gnu_fields(char *h)
{
	static const struct { int at, len; } fields[] = {
		{ MODE_AT, 8 }, { UID_AT, 8 }, { GID_AT, 8 }, { SIZE_AT, 12 }, { MTIME_AT, 12 },
		{ DEVMAJOR_AT, 8 }, { DEVMINOR_AT, 8 },
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char *f = h + fields[i].at;
		int len = fields[i].len;
		/* libarchive's octal: digits, then blanks or NULs */
		int d = 0;
		while (d < len && f[d] >= '0' && f[d] <= '7')
			d++;
		if (d == 0 || d >= len)
			continue;
		for (int k = d; k < len; k++)
			if (f[k] != ' ' && f[k] != 0)
				goto next;
		char buf[16];
		snprintf(buf, sizeof(buf), "%0*jo", len - 1, (uintmax_t)octal(f, (size_t)d));
		if ((int)strlen(buf) == len - 1)
			memcpy(f, buf, (size_t)len); /* its NUL too */
next:;
	}
	writer_checksum(h);
}

/* The member's name from its ustar block: prefix/name. */
static int ustar_name(const char *h, struct strbuf *sb)
{
	size_t plen = strnlen(h + PREFIX_AT, PREFIX_LEN);
	if (plen && (sb_add(sb, h + PREFIX_AT, plen) < 0 || sb_addc(sb, '/') < 0))
		return -1;
	return sb_add(sb, h, strnlen(h, NAME_LEN));
}

int paxhdr_member(struct tar *t, const char *in, size_t len, struct strbuf *out)
{
	const struct pax_opts *po = t->opt.pax;
	size_t size = 0;
	if (len >= 2 * BLOCK && in[TYPE_AT] == 'x')
		size = octal(in + SIZE_AT, 12);
	size_t skip = size ? BLOCK + (size + BLOCK - 1) / BLOCK * BLOCK : 0;
	if (skip + BLOCK != len) /* not one header as expected: as it is */
		return len ? sb_add(out, in, len) : 0;
	const char *ustar = in + skip;
	struct strbuf recs = STRBUF_INIT, path = STRBUF_INIT, name = STRBUF_INIT;
	bool own = !paxopt_deleted(po, "atime") || !paxopt_deleted(po, "ctime");
	int r = -1;
	if (size && filter_records(po, in + BLOCK, size, &recs, &own, &path) < 0)
		goto out;
	if (own && add_list(&recs, &po->member) < 0)
		goto out;
	if (recs.len) {
		if (!path.len && ustar_name(ustar, &path) < 0)
			goto out;
		time_t mtime = po->exthdr_mtime_set ? po->exthdr_mtime
		                                    : (time_t)octal(ustar + MTIME_AT, 12);
		if (format_name(&name, po->exthdr_name ? po->exthdr_name : "%d/PaxHeaders/%f",
		                sb_str(&path), 0) < 0 ||
		    put_header(out, sb_str(&name), &recs, mtime, 'x') < 0)
			goto out;
	}
	if ((r = sb_add(out, ustar, BLOCK)) == 0)
		gnu_fields(out->s + out->len - BLOCK);
out:
	sb_free(&recs);
	sb_free(&path);
	sb_free(&name);
	return r;
}
