/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * modechg.c: --mode=CHANGES, chmod's mode changes applied to each member's
 * mode as it is stored, with the umask the run started with
 * (src/common/modechange.c); checked once here.
 */
#include <sys/stat.h>
#include "modechange.h"
#include "tar.h"

int modechg_set(struct tar *t, const char *changes)
{
	mode_t m = 0;
	if (!mode_change(changes, t->opt.umask, false, &m)) {
		tar_fatal(t, 0, "Invalid mode given on option");
		return 0;
	}
	t->opt.mode_changes = changes;
	return 1;
}

mode_t modechg_apply(const struct tar_opts *o, mode_t mode)
{
	if (o->mode_changes)
		mode_change(o->mode_changes, o->umask, S_ISDIR(mode), &mode);
	return mode;
}
