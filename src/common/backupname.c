/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backupname.c: GNU's backup names, shared by sweep-cp's and sweep-tar's
 * --backup (sweep-sync's are rsync's: a suffix, or a directory).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backupname.h"

const char *const backup_words[] = { "none", "off", "simple", "never", "existing",
	                             "nil", "numbered", "t", NULL };
const int backup_values[] = { BACKUP_NONE, BACKUP_NONE, BACKUP_SIMPLE, BACKUP_SIMPLE,
	                      BACKUP_EXISTING, BACKUP_EXISTING, BACKUP_NUMBERED,
	                      BACKUP_NUMBERED };

const char *backup_control(const char *arg)
{
	if (!arg)
		arg = getenv("VERSION_CONTROL");
	return arg && *arg ? arg : NULL;
}

/* Whether s is a suffix GNU takes (newer gnulib's): not empty, no '/'. */
static bool backup_suffix_ok(const char *s)
{
	return s && *s && !strchr(s, '/');
}

const char *backup_suffix_env(void)
{
	const char *s = getenv("SIMPLE_BACKUP_SUFFIX");
	return backup_suffix_ok(s) ? s : NULL;
}

/* The highest N of name.~N~ in dirfd; 0 when there is none. */
static unsigned long highest(int dirfd, const char *name)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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

int backup_name(int dirfd, const char *name, enum backup_type type, const char *suffix,
                struct strbuf *out)
{
	unsigned long n = type == BACKUP_SIMPLE ? 0 : highest(dirfd, name);
	bool numbered = type == BACKUP_NUMBERED || (type == BACKUP_EXISTING && n > 0);
	sb_reset(out);
	return numbered ? sb_printf(out, "%s.~%lu~", name, n + 1)
	                : sb_printf(out, "%s%s", name, backup_suffix_ok(suffix) ? suffix : "~");
}
