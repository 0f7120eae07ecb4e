/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xlinks.c: which symbolic links -x may go through. A link that was on the
 * disk before the run is the administrator's and is followed, as GNU tar
 * follows it (lib -> usr/lib on a merged-/usr system, so that a backup can
 * be restored with -C /). A link the archive itself made is never gone
 * through, so an archive cannot make "d -> /etc" and then write
 * "d/passwd"; nor is a link from before that leads through one it made
 * (the user's "lib -> usr/lib", the archive's "usr -> /etc"). GNU tar is less strict here: it holds back only links whose
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
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "extract.h"
#include "strbuf.h"

/* Links followed in one resolution at most, as the kernel's (ELOOP). */
#define LINK_HOPS 40

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

/* Take the first component of rest off into comp (empty ones skipped);
 * false when none is left. */
static bool next_component(struct strbuf *rest, char comp[NAME_MAX + 1])
{
	size_t skip = strspn(sb_str(rest), "/");
	size_t n = strcspn(sb_str(rest) + skip, "/");
	if (n == 0)
		return false;
	size_t take = n > NAME_MAX ? NAME_MAX : n;
	memcpy(comp, rest->s + skip, take);
	comp[take] = 0;
	memmove(rest->s, rest->s + skip + n, rest->len - skip - n + 1);
	rest->len -= skip + n;
	return true;
}

/* Follow the link comp in dir (st its lstat): rest becomes its target, then
 * what rest held; *dir the directory the target starts from. Whether it
 * could. */
static bool follow_link(int *dir, const char *comp, off_t size, struct strbuf *rest)
{
	struct strbuf target = STRBUF_INIT;
	size_t len = size > 0 && size < PATH_MAX ? (size_t)size : PATH_MAX;
	bool ok = sb_reserve(&target, len + 1) == 0;
	ssize_t n = ok ? readlinkat(*dir, comp, target.s, len + 1) : -1;
	ok = n > 0 && (size_t)n <= len;
	if (ok) {
		target.len = (size_t)n;
		target.s[n] = 0;
		ok = sb_addc(&target, '/') == 0 && sb_add(&target, rest->s, rest->len) == 0;
	}
	if (ok && target.s[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		ok = root >= 0;
		if (ok) {
			close(*dir);
			*dir = root;
		}
	}
	if (ok) {
		sb_free(rest);
		*rest = target;
	} else {
		sb_free(&target);
	}
	return ok;
}

/* Whether resolving path (all of it: a link at its end is followed too)
 * goes through a link the run made, by way of links that were there before
 * ("pre -> made", the archive's "made -> /etc"): resolved one component at
 * a time, as the kernel would, each link met looked up. What cannot be
 * resolved (a name not there yet, a loop) goes through none. */
static bool leads_through_made(struct extract *x, const char *path)
{
	struct strbuf rest = STRBUF_INIT;
	char comp[NAME_MAX + 1];
	int dir = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC), hops = 0;
	bool made = false;
	if (dir < 0 || sb_addstr(&rest, path) < 0)
		goto out;
	while (!made && next_component(&rest, comp)) {
		struct stat st;
		if (fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) < 0)
			break;
		if (S_ISLNK(st.st_mode)) {
			made = keymap_get(&x->links_made, st.st_dev, st.st_ino) != NULL;
			if (made || ++hops > LINK_HOPS || !follow_link(&dir, comp, st.st_size, &rest))
				break;
			continue;
		}
		int next = S_ISDIR(st.st_mode) ? openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
		                                        O_CLOEXEC) : -1;
		if (next < 0)
			break;
		close(dir);
		dir = next;
	}
out:
	if (dir >= 0)
		close(dir);
	sb_free(&rest);
	return made;
}

/* Whether path is a link that was there before the run and leads through
 * one the run made. */
static bool leads_astray(struct extract *x, const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	       !keymap_get(&x->links_made, st.st_dev, st.st_ino) && leads_through_made(x, path);
}

/* Whether name may be extracted: none of its directories is a link the
 * run made, or one from before that leads through such a link (reported
 * when one is). */
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
		if (made_here(x, path) || leads_astray(x, path)) {
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
	    stat(name, &target) == 0 && S_ISDIR(target.st_mode) &&
	    !(x->links_made.n && leads_through_made(x, name)))
		return !o->dereference || o->keep_directory_symlink || o->no_overwrite_dir;
	if (unlink(name) < 0 && errno != ENOENT)
		tar_cannot(x->t, name, "unlink", errno);
	return false;
}

/* dir_over_link() for name as the archive gives it, with trailing
 * slashes. */
bool xlinks_before_dir(struct extract *x, const char *name)
{
	char *bare = names_without_slash(name);
	if (!bare) {
		tar_fatal(x->t, ENOMEM, "memory exhausted");
		return true;
	}
	bool keep = dir_over_link(x, bare);
	free(bare);
	return keep;
}
