/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h: what the libFuzzer targets share (fuzz.c): an input made into an
 * argument vector, and a scratch directory for files the targets read or
 * write, emptied between runs.
 */
#ifndef SWEEP_FUZZ_H
#define SWEEP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_argv {
	char **v;
	int n;
	char *buf;
};

/* Split data at NUL bytes into arguments after prog; -1 on bad input (too
 * many or too long: nothing a command line would hold). */
int fuzz_argv(struct fuzz_argv *a, const char *prog, const uint8_t *data, size_t size);
void fuzz_argv_free(struct fuzz_argv *a);

/* The scratch directory (made on first use, under $TMPDIR); aborts if it
 * cannot be made, as no run could mean anything then. */
const char *fuzz_scratch(void);
/* Write data to a file in the scratch directory; its path. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* Empty directory dir (a path under the scratch directory). */
void fuzz_empty(const char *dir);

#endif
