/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * datetime.h: dates as GNU's tools read them (gnulib's parse_datetime, the
 * forms its manual documents): tar's --mtime, -N and --newer-mtime, find's
 * -newerXt.
 */
#ifndef SWEEP_DATETIME_H
#define SWEEP_DATETIME_H

#include <stdbool.h>
#include <time.h>

/* s as a point in time, relative items ("2 days ago", "last monday")
 * counted from now, into *out. False when s is not a date. Reads the
 * TZ="ZONE" prefix GNU takes (by setting TZ for the call: not for use
 * where other threads read the time zone). */
bool datetime_parse(const char *s, const struct timespec *now, struct timespec *out);

#endif
