/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state.c: a struct tar from its defaults to its release, so that main and
 * the fuzz targets set it up and tear it down alike.
 */
#include <stdio.h>
#include <sys/stat.h>
#include "tar.h"

void tar_init(struct tar *t, struct diag *d)
{
	*t = (struct tar){ .diag = d, .ids = IDCACHE_INIT, .listing = stdout, .append_fd = -1 };
	/* (read once: it can be read only by setting it) */
	t->opt.umask = umask(0);
	umask(t->opt.umask);
}

void tar_free(struct tar *t)
{
	tar_free_options(&t->opt);
	checkpoint_free(t);
	t->opt = (struct tar_opts){ 0 };
	idcache_free(&t->ids);
	for (int i = 0; i < 3; i++)
		sb_free(&t->q[i]);
	sb_free(&t->prefixes);
	sb_free(&t->way_ok);
}
