/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walkenv.c: SWEEP_ORDER and SWEEP_WARM (see walkenv.h).
 *
 * SWEEP_WARM=on starts libsweep's helper threads where they would not start
 * by themselves (a warm cache; a device whose misses are not cheap), off
 * keeps them out; the tests use it to walk with them on a warm tree.
 * SWEEP_DEPTH=on keeps 32 directory reads in flight in the sweep by
 * block (the bench compares it with the default, one at a time).
 */
#include <stdlib.h>
#include <string.h>
#include "walkenv.h"

void walkenv_read(enum sweep_order *order, enum sweep_warm *warm)
{
	const char *o = getenv("SWEEP_ORDER");
	if (o && sweep_order_parse(o) >= 0)
		*order = (enum sweep_order)sweep_order_parse(o);
	const char *w = getenv("SWEEP_WARM");
	if (w && strcmp(w, "on") == 0)
		*warm = SWEEP_WARM_ON;
	else if (w && strcmp(w, "off") == 0)
		*warm = SWEEP_WARM_OFF;
	else if (w && strcmp(w, "auto") == 0)
		*warm = SWEEP_WARM_AUTO;
}

unsigned walkenv_flags(void)
{
	const char *d = getenv("SWEEP_DEPTH");
	if (d && strcmp(d, "on") == 0)
		return SWEEP_DEPTH_ON;
	return 0;
}
