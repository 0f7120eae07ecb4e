/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * owner.h: whether this process is the one that started a thread (not a
 * child of fork(), which has no such thread), asked without a system call
 * where the kernel empties a page in a child (owner.c).
 */
#ifndef SWEEP_OWNER_H
#define SWEEP_OWNER_H

#include <stdbool.h>
#include <sys/types.h>

struct sw_owner {
	volatile unsigned char *mark; /* a page the kernel empties in a child */
	pid_t pid;                    /* where that page could not be had */
};

void sw_owner_init(struct sw_owner *o);
bool sw_owner_here(const struct sw_owner *o);
void sw_owner_fini(struct sw_owner *o);

#endif
