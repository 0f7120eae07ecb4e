/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * throttle.c: after each chunk of a file's data is written, the alive
 * hook (sweep-sync's --timeout watches it), and, under bwlimit, the
 * rate's sleep (src/common/rate.c).
 */
#include "copyint.h"

void throttle_wrote(struct copy *c, uint64_t n)
{
	const struct copy_opts *o = c->o;
	if (o->alive)
		o->alive(o->arg);
	c->bw.limit = o->bwlimit;
	rate_moved(&c->bw, n, o->alive, o->arg);
}
