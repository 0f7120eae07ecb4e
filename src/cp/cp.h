/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cp.h: sweep-cp, a GNU cp -r/-a whose copy reads the source tree in disk
 * order through libsweep, on the copy engine of src/copy.
 *
 * Module map: main.c (the program), options.c (GNU cp's options and
 * messages, --help), operands.c (sources and target: where each source
 * goes, what GNU refuses up front), ask.c (-i's question); --progress is
 * src/common/progress.c.
 */
#ifndef SWEEP_CP_H
#define SWEEP_CP_H

#include <stdbool.h>
#include <stdint.h>
#include "copy.h"
#include "diag.h"

struct progress;

struct cp {
	struct diag *diag;
	struct copy_opts copy;
	bool follow_set;          /* -P, -H or -L given */
	bool parents;             /* --parents */
	bool strip_slashes;       /* --strip-trailing-slashes */
	bool no_target_dir;       /* -T */
	bool progress_wanted;     /* --progress */
	bool context;             /* --preserve=context asked */
	const char *target_dir;   /* -t */
	char **files;             /* operands */
	int nfiles;
	struct progress *progress;
};

/* options.c: parse argv into cp. Returns -1 to go on, or the exit status
 * (--help, --version, usage errors: reported). */
int cp_parse_options(struct cp *cp, int argc, char **argv);

/* operands.c: copy every source. Returns the exit status. */
int cp_run(struct cp *cp);

/* ask.c: -i's question on standard error; whether the answer is yes. */
bool cp_ask(void *arg, const char *dst_shown);

#endif
