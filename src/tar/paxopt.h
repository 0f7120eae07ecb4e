/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxopt.h: --pax-option (paxopt.c) and the extended headers it shapes
 * (paxhdr.c).
 */
#ifndef SWEEP_TAR_PAXOPT_H
#define SWEEP_TAR_PAXOPT_H

#include <time.h>
#include "strbuf.h"
#include "tar.h"

struct pax_list {
	char **key, **value;    /* value NULL for delete= patterns */
	size_t n;
};

struct pax_opts {
	struct pax_list deletes;   /* delete= patterns */
	struct pax_list global;    /* keyword=value: the global header's */
	struct pax_list member;    /* keyword:=value: every member's */
	char *exthdr_name;         /* exthdr.name=, or NULL */
	char *globexthdr_name;     /* globexthdr.name=, or NULL */
	bool exthdr_mtime_set, globexthdr_mtime_set;
	time_t exthdr_mtime, globexthdr_mtime;
};

/* Add the items of one --pax-option. Returns 1, or 0 after a usage error
 * (reported); a bad exthdr.mtime= is reported and raises the status only,
 * as in GNU tar. */
int paxopt_add(struct tar *t, const char *arg);
/* Whether the options given can be applied in this mode: they shape only
 * the headers written; on reading, delete= and overrides are refused
 * (reported). */
bool paxopt_check_mode(struct tar *t);
/* Whether delete= leaves out records of keyword key. */
bool paxopt_deleted(const struct pax_opts *po, const char *key);
/* Whether keyword:=value replaces the member's own records of key. */
bool paxopt_overridden(const struct pax_opts *po, const char *key);
void paxopt_free(struct pax_opts *po);

/* paxhdr.c: one pax record, "LEN key=value\n", onto sb. Returns 0 or -1. */
int paxhdr_record(struct strbuf *sb, const char *key, const char *value, size_t vlen);
/* A header block of the extended header name of size bytes, typeflag
 * type, as GNU tar writes one (mode 0644, owner 0). */
void paxhdr_block(char *h, const char *name, size_t size, time_t mtime, char type);
/* The global header of the archive: the label's record (label may be
 * NULL), then the keyword=value records. Its blocks go onto out (nothing
 * when there are no records). Returns 0 or -1 (ENOMEM). */
int paxhdr_global(struct tar *t, const char *label, time_t now, struct strbuf *out);
/* libarchive's header of one member (an 'x' header or none, then the
 * ustar block), in len bytes at in, onto out as --pax-option shapes it.
 * Returns 0 or -1 (ENOMEM). */
int paxhdr_member(struct tar *t, const char *in, size_t len, struct strbuf *out);

#endif
