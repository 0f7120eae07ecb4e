/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tar-archive.c: libFuzzer target for what -t and -x do with an archive.
 * The input is the archive: it is listed (-tvv), then extracted (-x) into a
 * directory under the scratch directory, which is emptied after each run;
 * the working directory is restored after it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"
#include "tar.h"

static void run(const char *opts, const char *archive)
{
	char *argv[] = { "sweep-tar", (char *)opts, (char *)archive, NULL };
	struct diag d;
	diag_init(&d, "sweep-tar", QUOTE_SHELL_ALWAYS);
	struct tar t;
	tar_init(&t, &d);
	if (tar_parse_options(&t, 3, argv) < 0)
		tar_extract(&t);
	tar_free(&t);
	diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[4200];
	static int home = -1;
	if (home < 0) {
		snprintf(out, sizeof(out), "%s/x", fuzz_scratch());
		home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (home < 0 || (mkdir(out, 0700) != 0)) {
			perror("fuzz: extraction directory");
			abort();
		}
	}
	const char *archive = fuzz_file("in.tar", data, size);
	if (chdir(out) != 0) {
		perror(out);
		abort();
	}
	run("-tvvf", archive);
	run("-xf", archive);
	if (fchdir(home) != 0)
		abort();
	fflush(stdout);
	fuzz_empty(out);
	return 0;
}
