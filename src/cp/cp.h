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
#include "keymap.h"

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
	bool backups;             /* -b, --backup, -S */
	const char *backup_control; /* the last --backup=CONTROL */
	char **files;             /* operands */
	int nfiles;
	struct progress *progress;
	struct keymap sources;     /* each copy's name -> its source's (dev, ino) */
};

/* options.c: parse argv into cp. Returns -1 to go on, or the exit status
 * (--help, --version, usage errors: reported). */
int cp_parse_options(struct cp *cp, int argc, char **argv);

/* operands.c: copy every source. Returns the exit status. */
int cp_run(struct cp *cp);

/* operands.c: dir joined with name into sb as GNU joins them (no doubled
 * slash). Returns 0 or -1 (ENOMEM). */
struct strbuf;
int cp_join(struct strbuf *sb, const char *dir, const char *name);

/* parents.c: --parents. parents_make makes the directories of src's path
 * below the target (tfd, named target), noting those it made in ps, and
 * returns the one src goes in (-1: reported); parents_finish gives those
 * made their attributes, once the copies are done, and forgets them. */
struct made_parent;
struct cp_parents {
	struct made_parent *v;
	size_t n;
};
int parents_make(struct cp *cp, struct cp_parents *ps, int tfd, const char *target,
                 const char *src);
void parents_finish(struct cp *cp, struct cp_parents *ps);

/* ask.c: -i's question on standard error; whether the answer is yes. */
bool cp_ask(void *arg, const char *dst_shown, const struct stat *unwritable);

#endif
