/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * paxopt.h: --pax-option (paxopt.c) and the extended headers it shapes
 * (paxhdr.c).
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
/* Whether delete= leaves out records of keyword key. */
bool paxopt_deleted(const struct pax_opts *po, const char *key);
void paxopt_free(struct pax_opts *po);

#endif
