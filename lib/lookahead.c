/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lookahead.c: how far the data phase announces ahead, under memory
 * pressure.
 *
 * The kernel takes back first what was read ahead and not yet used; every
 * page lost is read again when its file comes, behind the announcements,
 * and on a disk arm each such file costs a seek back and one forward again.
 * So a file whose announced data was lost halves the bytes announced
 * ahead, down to RA_BUDGET_MIN, and every file that arrives whole wins
 * back an eighth of what it announced, up to the caller's read-ahead: the
 * look-ahead settles where memory holds it (additive increase,
 * multiplicative decrease, as TCP sizes its window).
 */
#include "internal.h"

size_t sw_lookahead_next(size_t budget, size_t max, size_t announced, bool lost)
{
	if (lost)
		return budget / 2 > RA_BUDGET_MIN ? budget / 2 : RA_BUDGET_MIN;
	size_t more = announced / 8 ? announced / 8 : 1;
	return budget < max && max - budget > more ? budget + more : max;
}
