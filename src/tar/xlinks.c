/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xlinks.c: which symbolic links -x may go through. A link that was on the
 * disk before the run is the administrator's and is followed, as GNU tar
 * follows it (lib -> usr/lib on a merged-/usr system, so that a backup can
 * be restored with -C /). A link the archive itself made is never gone
 * through, so an archive cannot make "d -> /etc" and then write
 * "d/passwd". GNU tar is less strict here: it holds back only links whose
 * target is absolute or has "..", and goes through the others
 * ("cur -> v1", then "cur/x"); telling those apart safely means resolving
 * chains of links the archive made, which this file does not do: such a
 * member is refused (sweep-tar(1), DIFFERENCES). libarchive's own check
 * (ARCHIVE_EXTRACT_SECURE_SYMLINKS) refuses both kinds, so it is off and
 * this file does the job: the links made are known by (st_dev, st_ino),
 * and a member's directories are looked at only while there is any.
 */
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"

/* Remember name, just extracted, when it is a symbolic link (a symlink
 * member, or a hard link to one). Returns 0 or -1 (ENOMEM, reported). */
int xlinks_made(struct extract *x, struct archive_entry *e, const char *name)
{
	struct stat st;
	if (archive_entry_filetype(e) != AE_IFLNK && !archive_entry_hardlink(e))
		return 0;
	if (lstat(name, &st) < 0 || !S_ISLNK(st.st_mode))
		return 0;
	if (keymap_put(&x->links_made, st.st_dev, st.st_ino, 1) < 0) {
		tar_fatal(x->t, ENOMEM, "memory exhausted");
		return -1;
	}
	return 0;
}

/* Whether path is a link the run made. */
static bool made_here(struct extract *x, const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	       keymap_get(&x->links_made, st.st_dev, st.st_ino);
}

/* Whether name may be extracted: none of its directories is a link the
 * run made (reported when one is). */
bool xlinks_may_extract(struct extract *x, const char *name)
{
	if (!x->links_made.n)
		return true;
	char *path = strdup(name);
	if (!path) {
		tar_fatal(x->t, ENOMEM, "memory exhausted");
		return false;
	}
	bool ok = true;
	for (char *slash = strchr(path + 1, '/'); slash && slash[1] && ok;
	     slash = strchr(slash + 1, '/')) {
		*slash = 0;
		if (made_here(x, path)) {
			tar_error(x->t, 0, "%s: Cannot extract through symlink %s", tq(x->t, 0, name),
			          diag_quote_style(x->t->diag, 1, QUOTE_LOCALE, path));
			ok = false;
		}
		*slash = '/';
	}
	free(path);
	return ok;
}

/* Make a directory member's place ready when its name is a symbolic
 * link (name without its trailing slashes). GNU tar replaces the link by
 * the directory, unless --keep-directory-symlink keeps a link from before
 * the run that leads to a directory, or -h follows it: the directory it
 * leads to is then the member's, its contents and attributes (but under
 * --no-overwrite-dir, as GNU's). (For a link of the run's to outside
 * the tree GNU tar may also say "Cannot unlink: Is a directory", exit 2,
 * when the directory happens to get the inode number of the placeholder
 * it made for the link; it is not said here: the archive only replaced
 * one of its members by another, nothing went through the link.) Returns
 * whether the member is to be left alone. */
static bool dir_over_link(struct extract *x, const char *name)
{
	struct stat st, target;
	if (lstat(name, &st) < 0 || !S_ISLNK(st.st_mode))
		return false;
	const struct tar_opts *o = &x->t->opt;
	if (!made_here(x, name) && (o->keep_directory_symlink || o->dereference) &&
	    stat(name, &target) == 0 && S_ISDIR(target.st_mode))
		return !o->dereference || o->keep_directory_symlink || o->no_overwrite_dir;
	if (unlink(name) < 0 && errno != ENOENT)
		tar_cannot(x->t, name, "unlink", errno);
	return false;
}

/* dir_over_link() for name as the archive gives it, with trailing
 * slashes. */
bool xlinks_before_dir(struct extract *x, const char *name)
{
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '/')
		n--;
	char *bare = strndup(name, n);
	if (!bare) {
		tar_fatal(x->t, ENOMEM, "memory exhausted");
		return true;
	}
	bool keep = dir_over_link(x, bare);
	free(bare);
	return keep;
}
