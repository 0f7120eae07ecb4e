/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backup.c: --backup: an existing destination renamed aside before it is
 * replaced, as name + suffix (simple) or name.~N~ (numbered, N one more
 * than the highest there), or numbered only where numbered backups exist
 * already (existing, GNU's default CONTROL "existing"/"nil").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "copyint.h"

/* The highest N of name.~N~ in pfd; 0 when there is none. */
static unsigned long highest(int pfd, const char *name)
{
	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned long max = 0;
	size_t n = strlen(name);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		const char *p = de->d_name;
		if (strncmp(p, name, n) != 0 || strncmp(p + n, ".~", 2) != 0)
			continue;
		char *end;
		unsigned long v = strtoul(p + n + 2, &end, 10);
		if (end != p + n + 2 && strcmp(end, "~") == 0 && v > max)
			max = v;
	}
	closedir(dir);
	return max;
}

int backup_make(struct copy *c, int pfd, const char *name, const char **shown)
{
	struct strbuf bname = STRBUF_INIT;
	unsigned long n = c->o->backup == COPY_BACKUP_SIMPLE ? 0 : highest(pfd, name);
	bool numbered = c->o->backup == COPY_BACKUP_NUMBERED ||
	                (c->o->backup == COPY_BACKUP_EXISTING && n > 0);
	int r = numbered ? sb_printf(&bname, "%s.~%lu~", name, n + 1)
	                 : sb_printf(&bname, "%s%s", name, c->o->suffix ? c->o->suffix : "~");
	sb_reset(&c->bshown);
	const char *dst = sb_str(&c->shown);
	size_t dirlen = strlen(dst) - strlen(name);
	if (r == 0 && (sb_add(&c->bshown, dst, dirlen) < 0 ||
	               sb_addstr(&c->bshown, sb_str(&bname)) < 0))
		r = -1;
	if (r == 0 && renameat(pfd, name, pfd, sb_str(&bname)) < 0) {
		copy_error(c, errno, "cannot backup %s", cq(c, 0, dst));
		r = -2;
	} else if (r == -1) {
		copy_error(c, ENOMEM, "cannot backup %s", cq(c, 0, dst));
	}
	sb_free(&bname);
	*shown = sb_str(&c->bshown);
	return r < 0 ? -1 : 0;
}
