/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replace.c: a destination name that exists already, for anything but a
 * directory source. GNU cp's rules, in its order: a directory is never
 * overwritten by a non-directory; a destination that is the source itself
 * is an error; -n keeps it; -u keeps it unless it is older; -i asks; a
 * backup moves it aside; --remove-destination, or a source that is not a
 * regular file (a link, a fifo, a device cannot be written into), removes
 * it; a regular file otherwise is written into where it is (through a
 * symbolic link, as POSIX asks of cp; never through a dangling one).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "copyint.h"

int replace_remove(struct copy *c, int pfd, const char *name)
{
	if (unlinkat(pfd, name, 0) == 0) {
		if (c->o->verbose)
			printf("removed %s\n", cq(c, 0, sb_str(&c->shown)));
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	copy_error(c, errno, "cannot remove %s", cq(c, 0, sb_str(&c->shown)));
	return -1;
}

static bool older(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Whether e and the destination st are one file. */
static bool same_file(const struct sweep_entry *e, const struct stat *st)
{
	return same_inode(&e->st, st);
}

/* sweep-cp: whether the destination st, at name in pfd, is e's file under
 * another name (a hard link of it, not the same name, nor a symbolic link
 * followed to it), which GNU cp replaces when it removes or backs up what
 * is there. */
static bool other_name(const struct copy *c, const struct sweep_entry *e, int pfd,
                       const char *name, const struct stat *st)
{
	struct stat sd, dd;
	if (c->o->decide || !S_ISREG(st->st_mode) || !same_file(e, st))
		return false;
	/* a link followed to it is no other name: GNU cp says they are the
	 * same file, a backup asked for or not */
	if (fstatat(e->dirfd, e->name, &sd, AT_SYMLINK_NOFOLLOW) < 0 || S_ISLNK(sd.st_mode))
		return false;
	/* (either may be AT_FDCWD; an operand's name may have directories:
	 * "d/f" and "f" in d are one name) */
	const char *slash = strrchr(e->name, '/');
	char *dir = slash ? strndup(e->name, slash > e->name ? (size_t)(slash - e->name) : 1) : NULL;
	bool same_dir = (!slash || dir) && fstatat(e->dirfd, dir ? dir : ".", &sd, 0) == 0 &&
	                fstatat(pfd, ".", &dd, 0) == 0 && same_inode(&sd, &dd);
	free(dir);
	return !(same_dir && strcmp(slash ? slash + 1 : e->name, name) == 0);
}

static enum dest_state same_file_error(struct copy *c, const struct sweep_entry *e)
{
	copy_error(c, 0, "%s and %s are the same file", cq(c, 0, e->path),
	           cq(c, 1, sb_str(&c->shown)));
	return DEST_FAIL;
}

/* sweep-cp copying the symbolic link e as a link over the file it points
 * to (cp -P sl f): the link would take the file's place and its data with
 * it. GNU cp refuses that, unless a backup keeps the file (or -l, which
 * leaves it). */
static bool link_over_its_target(const struct copy *c, const struct sweep_entry *e,
                                 const struct stat *dst)
{
	struct stat target;
	return !c->o->decide && !c->o->backup && !c->o->hard_link && S_ISLNK(e->st.st_mode) &&
	       fstatat(e->dirfd, e->name, &target, 0) == 0 && same_inode(&target, dst);
}

/* For a regular file written into an existing destination: whether that
 * destination can be written through. sweep-sync never writes through a
 * link (it opens with O_NOFOLLOW and replaces it); sweep-cp writes through
 * one, as POSIX asks, but not into the source itself (a link to it: the
 * source would be cut to nothing before it is read) nor where it dangles. */
static enum dest_state writable_through(struct copy *c, const struct sweep_entry *e, int pfd,
                                        const char *name, const struct stat *lst)
{
	struct stat st;
	if (!S_ISLNK(lst->st_mode) || c->o->decide)
		return DEST_EXISTS;
	if (fstatat(pfd, name, &st, 0) < 0) {
		copy_error(c, 0, "not writing through dangling symlink %s",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (S_ISDIR(st.st_mode)) {
		copy_error(c, 0, "cannot overwrite directory %s with non-directory",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	return same_file(e, &st) ? same_file_error(c, e) : DEST_EXISTS;
}

int replace_look(struct copy *c, const struct sweep_entry *e, struct stat *st, int flags)
{
	const char *name;
	int pfd = destdir_parent(c, e, &name);
	return pfd < 0 ? -1 : fstatat(pfd, name, st, flags);
}

bool replace_kept(struct copy *c, const struct sweep_entry *e)
{
	struct stat st;
	const struct copy_opts *o = c->o;
	if (o->decide || (o->exist != COPY_NO_CLOBBER && !o->update) || replace_look(c, e, &st, 0) < 0)
		return false;
	return o->exist == COPY_NO_CLOBBER || !older(&st.st_mtim, &e->st.st_mtim);
}

void replace_made(struct copy *c, const struct sweep_entry *e, int pfd, const char *name)
{
	struct stat st;
	if (c->o->no_remake && e->depth == 0 &&
	    fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    keymap_put(&c->made_tops, (uint64_t)st.st_dev, (uint64_t)st.st_ino, 1) < 0)
		return; /* no memory: not guarded, as before */
}

/* no_remake: whether st, there at a top-level copy's name, is one this run
 * made (then said, as GNU cp says it). */
static bool made_before(struct copy *c, const struct sweep_entry *e, const struct stat *st)
{
	/* (a numbered backup keeps the copy made: GNU cp goes on) */
	if (!c->o->no_remake || e->depth != 0 || c->o->backup == BACKUP_NUMBERED ||
	    !keymap_get(&c->made_tops, (uint64_t)st->st_dev, (uint64_t)st->st_ino))
		return false;
	copy_error(c, 0, "will not overwrite just-created %s with %s",
	           cq(c, 0, sb_str(&c->shown)), cq(c, 1, e->path));
	return true;
}

static enum dest_state prepare(struct copy *c, const struct sweep_entry *e, int pfd,
                               const char *name, const char **backup);

/* sweep-cp: what a link st at name in pfd leads to, in *target, where the
 * file is to be written through it, as GNU cp looks (-u's times, a
 * directory there, the same file), but where it is replaced (-b,
 * --remove-destination, -l, -s); else st. NULL for a link that leads
 * nowhere where a later name of a file copied is to be linked: GNU cp
 * takes it for no file, whatever -n, -u or -i say, and links there. */
static const struct stat *looked_through(const struct copy *c, const struct sweep_entry *e,
                                         int pfd, const char *name, const struct stat *st,
                                         struct stat *target)
{
	const struct copy_opts *o = c->o;
	if (!S_ISLNK(st->st_mode) || o->decide || !copy_as_file(c, e) || o->hard_link ||
	    o->symbolic_link || o->backup || o->remove_destination)
		return st;
	if (fstatat(pfd, name, target, 0) == 0)
		return target;
	return errno == ENOENT && hardlink_known(c, e) ? NULL : st;
}

/* sweep-cp: whether the simple backup of name in pfd would take e's own
 * file's name (cp -b f~ f): the source would be renamed away, or written
 * over, before it is copied, so GNU cp copies nothing. (Numbered backups
 * take a new name; rsync's backups come after the file is read.) */
static bool backup_is_source(const struct copy *c, const struct sweep_entry *e, int pfd,
                             const char *name)
{
	const struct copy_opts *o = c->o;
	if (o->decide || o->backup_dir || o->backup == BACKUP_NUMBERED)
		return false;
	const char *suffix = o->suffix ? o->suffix : "~";
	const char *base = strrchr(e->path, '/');
	base = base ? base + 1 : e->path;
	size_t n = strlen(name);
	if (strncmp(base, name, n) != 0 || strcmp(base + n, suffix) != 0)
		return false;
	struct stat st;
	return fstatat(pfd, base, &st, 0) == 0 && same_file(e, &st);
}

enum dest_state replace_prepare(struct copy *c, const struct sweep_entry *e, int pfd,
                                const char *name, const char **backup)
{
	enum dest_state s = prepare(c, e, pfd, name, backup);
	/* -v: said before it is made, as GNU cp says it, so that a copy
	 * that fails is named in both lines */
	if (s == DEST_NEW || s == DEST_EXISTS)
		copy_verbose(c, e, *backup);
	return s;
}

/* -i: the question, as GNU cp asks it: of a file the user may not write
 * (a link aside; root may write any), with its mode. */
static bool ask(struct copy *c, int pfd, const char *name, const struct stat *st)
{
	bool writable = S_ISLNK(st->st_mode) || geteuid() == 0 ||
	                faccessat(pfd, name, W_OK, AT_EACCESS) == 0;
	return c->o->ask(c->o->arg, cq(c, 0, sb_str(&c->shown)), writable ? NULL : st);
}

static enum dest_state prepare(struct copy *c, const struct sweep_entry *e, int pfd,
                               const char *name, const char **backup)
{
	const struct copy_opts *o = c->o;
	struct stat st;
	*backup = NULL;
	if (destdir_fresh(c, e))
		return DEST_NEW; /* as GNU cp's in a directory it made */
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return DEST_NEW;
		copy_error(c, errno, "cannot stat %s", cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	struct stat target;
	const struct stat *seen = looked_through(c, e, pfd, name, &st, &target);
	if (!seen) /* a dangling link, where a later name of a file is linked
	            * (hardlink_later() removes it, after -v's line, as GNU) */
		return DEST_EXISTS;
	bool keeps = o->exist == COPY_NO_CLOBBER || (o->update && !older(&seen->st_mtim, &e->st.st_mtim));
	if (S_ISDIR(seen->st_mode)) {
		if (keeps)
			return DEST_SKIP; /* GNU cp -n, -u: something is there */
		copy_error(c, 0, "cannot overwrite directory %s with non-directory",
		           cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (same_file(e, &st) && o->hard_link && !o->decide)
		return DEST_SKIP; /* a link of it already: GNU cp says nothing */
	bool other = other_name(c, e, pfd, name, &st);
	if ((same_file(e, &st) && !(other && (o->remove_destination || o->backup))) ||
	    link_over_its_target(c, e, &st) ||
	    (seen != &st && same_file(e, seen) && o->exist != COPY_NO_CLOBBER))
		return same_file_error(c, e);
	/* GNU cp -n and -u look through a link there: one that dangles is
	 * nothing to keep, and a file is not written through it */
	bool file_source = copy_as_file(c, e) && !o->hard_link && !o->symbolic_link;
	if ((o->exist == COPY_NO_CLOBBER || o->update) && !o->decide && file_source &&
	    S_ISLNK(st.st_mode) && faccessat(pfd, name, F_OK, 0) < 0 && errno == ENOENT) {
		copy_error(c, 0, "not writing through dangling symlink %s", cq(c, 0, sb_str(&c->shown)));
		return DEST_FAIL;
	}
	if (o->exist == COPY_NO_CLOBBER)
		return DEST_SKIP;
	if (o->update && !older(&seen->st_mtim, &e->st.st_mtim))
		return DEST_SKIP;
	if (o->exist == COPY_INTERACTIVE && o->ask && !ask(c, pfd, name, &st))
		return DEST_SKIP;
	if (made_before(c, e, &st))
		return DEST_FAIL;
	if (o->backup && backup_is_source(c, e, pfd, name)) {
		copy_error(c, 0, "backing up %s might destroy source;  %s not copied",
		           cq(c, 0, sb_str(&c->shown)), cq(c, 1, e->path));
		return DEST_FAIL;
	}
	bool regular = copy_as_file(c, e) && !o->hard_link && !o->symbolic_link;
	/* (a file written in place is copied aside: its other names see the
	 * new data, as rsync's --inplace -b gives it) */
	int kept = o->backup ? backup_make(c, pfd, name, backup, o->backup_copy && regular) : 1;
	if (kept <= 0)
		return kept < 0 ? DEST_FAIL : DEST_NEW;
	/* sweep-sync, as rsync, puts a file where a non-file was; writing
	 * into a fifo would hang, into a device would send it the bytes */
	bool sync_nonfile = o->decide && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode);
	/* (--attributes-only makes no link or node where a file is: the
	 * call says "File exists", as GNU's) */
	bool makes_node = !regular && !o->hard_link && !o->symbolic_link && !o->attributes_only;
	/* -lf, -sf: the link is made aside and renamed over it (special.c),
	 * so that one that cannot be made leaves it, as GNU cp's */
	if ((o->hard_link || o->symbolic_link) && o->force && !o->remove_destination)
		return DEST_EXISTS;
	if (o->remove_destination || sync_nonfile || makes_node ||
	    (o->preserve_links && st.st_nlink > 1 && regular && !o->attributes_only &&
	     !(o->decide && !o->temp_rename)))
		return replace_remove(c, pfd, name) < 0 ? DEST_FAIL : DEST_NEW;
	if (!regular)
		return DEST_NEW; /* the link call says "File exists", as GNU's */
	return writable_through(c, e, pfd, name, &st);
}

void replace_unbackup(struct copy *c, int pfd, const char *name, const char *backup)
{
	const char *slash = strrchr(backup, '/');
	if (renameat(pfd, slash ? slash + 1 : backup, pfd, name) < 0) {
		copy_error(c, errno, "cannot un-backup %s", cq(c, 0, sb_str(&c->shown)));
		return;
	}
	if (c->o->verbose)
		printf("%s -> %s (unbackup)\n", cq(c, 0, backup), cq(c, 1, sb_str(&c->shown)));
}
