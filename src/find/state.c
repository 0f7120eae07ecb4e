/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state.c: a struct find from its defaults to its release, so that main and
 * the fuzz targets set it up and tear it down alike.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "fstype.h"
#include "find.h"
#include "output.h"
#include "walkenv.h"

void find_init(struct find *f, struct diag *d)
{
	*f = (struct find){ 0 };
	f->diag = d;
	f->opt.maxdepth = -1;
	f->opt.warnings = isatty(STDIN_FILENO);
	f->opt.order = SWEEP_ORDER_AUTO;
	walkenv_read(&f->opt.order, &f->opt.warm);
	clock_gettime(CLOCK_REALTIME, &f->opt.now);
	f->opt.origin = f->opt.now;
	f->ls = (struct ls_widths){ .inode = 9, .blocks = 6, .nlink = 3, .owner = 8,
	                            .group = 8, .size = 8, .major = 3, .minor = 3 };
}

void find_free(struct find *f)
{
	out_close_all(f);
	expr_free(f->expr);
	f->expr = NULL;
	idcache_free(&f->ids);
	fstype_free(f->fstypes);
	f->fstypes = NULL;
	sb_free(&f->scratch);
	free(f->files0_roots);
	free(f->files0_data);
	f->files0_roots = NULL;
	f->files0_data = NULL;
}
