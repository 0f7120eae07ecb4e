/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.c: the fuzz targets' shared helpers (see fuzz.h). Nothing here may
 * keep state from one input to the next but the scratch directory's name.
 */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"

#define MAX_ARGS 256
#define MAX_BYTES 65536

int fuzz_argv(struct fuzz_argv *a, const char *prog, const uint8_t *data, size_t size)
{
	*a = (struct fuzz_argv){ 0 };
	if (size > MAX_BYTES)
		return -1;
	int n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == 0;
	if (n > MAX_ARGS)
		return -1;
	a->buf = malloc(size + 1);
	a->v = calloc((size_t)n + 2, sizeof(*a->v));
	if (!a->buf || !a->v) {
		fuzz_argv_free(a);
		return -1;
	}
	memcpy(a->buf, data, size);
	a->buf[size] = 0;
	a->v[a->n++] = (char *)prog;
	/* each argument ends at a NUL; the last one needs none */
	size_t start = 0;
	for (size_t i = 0; i < size; i++) {
		if (data[i] == 0) {
			a->v[a->n++] = a->buf + start;
			start = i + 1;
		}
	}
	if (start < size)
		a->v[a->n++] = a->buf + start;
	a->v[a->n] = NULL;
	return 0;
}

void fuzz_argv_free(struct fuzz_argv *a)
{
	free(a->v);
	free(a->buf);
	*a = (struct fuzz_argv){ 0 };
}

const char *fuzz_scratch(void)
{
	static char dir[4096];
	if (dir[0])
		return dir;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/sweep-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz: scratch directory");
		abort();
	}
	return dir;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[4200];
	snprintf(path, sizeof(path), "%s/%s", fuzz_scratch(), name);
	FILE *fp = fopen(path, "we");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0) {
		perror(path);
		abort();
	}
	return path;
}

/* Pre-order: let root's and others' runs alike read and empty every
 * directory an archive made unreadable. */
static int open_up(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_D || type == FTW_DNR)
		chmod(path, 0700);
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (ftw->level > 0 && remove(path) != 0 && type != FTW_DNR)
		perror(path);
	return 0;
}

void fuzz_empty(const char *dir)
{
	nftw(dir, open_up, 16, FTW_PHYS);
	nftw(dir, remove_one, 16, FTW_PHYS | FTW_DEPTH);
}
