/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.h: output streams of find's actions (output.c).
 */
#ifndef SWEEP_FIND_OUTPUT_H
#define SWEEP_FIND_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include "find.h"

struct out {
	struct out *next;
	FILE *fp;
	const char *path; /* as given (argv), NULL for standard output */
	dev_t dev;
	ino_t ino;
	bool tty;
};

struct out *out_get(struct find *f, const char *path);
/* Write a file name, '?' for the unprintable on a terminal. */
void out_name(struct out *o, const char *s);
void out_close_all(struct find *f);

#endif
