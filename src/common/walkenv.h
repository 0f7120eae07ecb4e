/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walkenv.h: what the environment asks of the walk, for the tools that take
 * no option for it: SWEEP_ORDER (its order), SWEEP_WARM (its helper
 * threads) and SWEEP_DEPTH (directory reads in flight). A value the tool does not know leaves its default.
 */
#ifndef SWEEP_WALKENV_H
#define SWEEP_WALKENV_H

#include "sweep.h"

void walkenv_read(enum sweep_order *order, enum sweep_warm *warm);
/* SWEEP_DEPTH's flag (SWEEP_DEPTH_ON), or 0. */
unsigned walkenv_flags(void);

#endif
