/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * relative.c: -R (--relative): each SRC keeps its path below DEST, as
 * rsync has it: /etc/ssh goes to DEST/etc/ssh, a/b to DEST/a/b, and what
 * comes before a "/./" in SRC is left out (/var/./www to DEST/www). The
 * directories on the way are made with their source's attributes
 * (rsync's implied directories). That is --files-from's transfer
 * (files_from.c), so -R is one: each SRC a listed name, below "/" for
 * absolute ones, below the current directory (a host's: its home) for
 * the others, which becomes the one SRC. Unlike --files-from, -a still
 * means -r, and without it a directory is skipped (said), not made. A
 * ".." component is refused, as rsync refuses it. The SRCs must agree:
 * all absolute or all relative, all on one host or all here (rsync takes
 * a mix; it is refused here, said).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sync.h"

/* Where the path of src starts (after HOST:, if any), and its host's
 * length in *hlen. */
static const char *path_of(const char *src, size_t *hlen)
{
	const char *colon = remote_is_host_path(src) ? strchr(src, ':') : NULL;
	*hlen = colon ? (size_t)(colon - src) : 0;
	return colon ? colon + 1 : src;
}

/* path as rsync's list names it: what follows a "/./", without "./". */
static const char *listed(const char *path)
{
	const char *mark = strstr(path, "/./");
	const char *name = mark ? mark + 3 : path;
	while (strncmp(name, "./", 2) == 0)
		name += 2;
	return name;
}

/* Without -r a directory is skipped, said, as rsync skips it (no
 * directories on its way made either); known here for a local one. */
static bool skipped(const struct sync *s, const char *path, size_t hlen)
{
	struct stat st;
	if (s->recursive || hlen || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	if (!s->quiet) {
		printf("skipping directory ");
		report_name(s, stdout, listed(path));
		putchar('\n');
	}
	return true;
}

int relative_sources(struct sync *s, char **srcs, int nsrc)
{
	size_t hlen0;
	const char *p0 = path_of(srcs[0], &hlen0);
	bool abs0 = *p0 == '/';
	for (int i = 0; i < nsrc; i++) {
		size_t hlen;
		const char *p = path_of(srcs[i], &hlen);
		if ((*p == '/') != abs0 || hlen != hlen0 || strncmp(srcs[i], srcs[0], hlen) != 0) {
			diag_error(s->diag, 0, "-R: the sources must be all absolute or all relative, "
			                       "and on one host: %s", srcs[i]);
			return -1;
		}
		if (sync_has_dotdot(p)) {
			fflush(stdout); /* (rsync's words, without its name) */
			fprintf(stderr, "found \"..\" dir in relative path: %s\n", listed(p));
			return -1;
		}
		if (skipped(s, p, hlen))
			continue;
		if (files_from_add(s, p) < 0) {
			diag_error(s->diag, 0, "memory exhausted");
			return -1;
		}
	}
	sb_reset(&s->relative_base);
	if (sb_add(&s->relative_base, srcs[0], hlen0 ? hlen0 + 1 : 0) < 0 ||
	    sb_addstr(&s->relative_base, abs0 ? "/" : ".") < 0) {
		diag_error(s->diag, 0, "memory exhausted");
		return -1;
	}
	srcs[nsrc - 1] = s->relative_base.s;
	s->files_from = "-R";
	return 0;
}
