/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxopt.h: --pax-option (paxopt.c).
 */
#ifndef SWEEP_TAR_PAXOPT_H
#define SWEEP_TAR_PAXOPT_H

#include "tar.h"

struct pax_record {
	char *key, *value;
	bool colon;             /* keyword:=value */
};

struct pax_opts {
	struct pax_record *v;   /* keyword=value records, in order */
	size_t n;
	char *exthdr_name;      /* exthdr.name=, or NULL */
	char *globexthdr_name;  /* globexthdr.name=, or NULL */
	struct exclude deletes; /* delete= patterns */
};

/* Add the items of one --pax-option. Returns 1, or 0 after an error
 * (reported). */
int paxopt_add(struct tar *t, const char *arg);
/* Say that the options given cannot be applied yet (true), or nothing
 * when none were given. */
bool paxopt_refuse(struct tar *t);
/* Whether delete= leaves out records of keyword key. */
bool paxopt_deleted(const struct pax_opts *po, const char *key);
void paxopt_free(struct pax_opts *po);

#endif
