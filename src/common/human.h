/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * human.h: sizes for people, rounded up as GNU's human_readable() with
 * human_ceiling does: "4.0K", "11M", "1049634M", "100kB".
 */
#ifndef SWEEP_HUMAN_H
#define SWEEP_HUMAN_H

#include <stdint.h>

#define HUMAN_AUTOSCALE 0x01u /* pick the unit: 1.5K, 23M */
#define HUMAN_SUFFIX    0x02u /* append the unit's letter */
#define HUMAN_BASE_1024 0x04u /* K = 1024, else k = 1000 */
#define HUMAN_B         0x08u /* the suffix ends in "B" ("iB" in base 1024) */
#define HUMAN_GROUP     0x10u /* digits grouped by the locale's separator */

#define HUMAN_BUFSIZE 96

/* n units of from bytes, expressed in units of to bytes, rounded up; into
 * buf (HUMAN_BUFSIZE bytes). Returns buf. */
char *human_format(uint64_t n, uint64_t from, uint64_t to, unsigned opts, char *buf);

#endif
