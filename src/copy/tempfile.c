/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tempfile.c: sweep-sync's way of writing a regular file, as rsync's: the
 * data goes to ".NAME.XXXXXX" in the destination directory, made with
 * O_EXCL|O_NOFOLLOW, gets its owner, mode and times, and only then is
 * renamed over NAME. An interrupted run never leaves a part of a file
 * under its final name, and whatever NAME was (a symbolic link pointing
 * anywhere included) is replaced, never written through. Under
 * keep_partial (rsync's --partial), a file that could not be finished is
 * renamed over NAME as far as it got instead, with the time 0 so that the
 * next run sees it changed; with a partial_dir (--partial-dir) to
 * DIR/NAME instead, removed when a later run writes NAME again.
 *
 * The writer thread's files start without a name (O_TMPFILE, made by the
 * walk's thread: the file system's part of making a file, off the busy
 * thread) and get one only when written whole: straight the final name
 * where nothing is there, as on a first copy (one directory operation, not
 * a temporary name's create and rename), else a temporary name renamed
 * over what is. A run killed meanwhile leaves nothing of such a file, not
 * even the temporary file rsync's leaves.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "copyint.h"
#include "procfd.h"

#define TEMP_TRIES 100
#define LINK_REFUSED (-2) /* a file made without a name cannot be linked */

/* Whether a link's errno says links are not for us here (a security
 * module's rule, a file system without them), not that this one failed. */
static bool link_refused(int err)
{
	return err == EPERM || err == EACCES || err == EOPNOTSUPP;
}
/* room for ".", "." and the six letters within NAME_MAX (255) */
#define TEMP_NAME_MAX (255 - 8)

/* A seed for temp_name(): the clock, the process and where the name goes. */
static uint64_t temp_seed(const void *where)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	uint64_t seed = ((uint64_t)now.tv_nsec * 2654435761u) ^ ((uint64_t)getpid() << 32) ^
	                (uint64_t)now.tv_sec ^ (uint64_t)(uintptr_t)where;
	return seed | 1;
}

/* A new name ".NAME.XXXXXX" in sb, the X from seed. */
static int temp_name(struct strbuf *sb, const char *name, uint64_t *seed)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = strlen(name);
	sb_reset(sb);
	if (sb_addc(sb, '.') < 0 || sb_add(sb, name, n < TEMP_NAME_MAX ? n : TEMP_NAME_MAX) < 0 ||
	    sb_addc(sb, '.') < 0)
		return -1;
	for (int i = 0; i < 6; i++) {
		/* xorshift: only unlikely to collide, O_EXCL makes it safe */
		*seed ^= *seed << 13;
		*seed ^= *seed >> 7;
		*seed ^= *seed << 17;
		if (sb_addc(sb, letters[*seed % (sizeof(letters) - 1)]) < 0)
			return -1;
	}
	return 0;
}

static void temp_arm(struct copy_temp *t, int dirfd, const char *name, const char *final)
{
	size_t n = strlen(name), f = strlen(final);
	if (n >= sizeof(t->name) || f >= sizeof(t->final))
		return; /* cannot be: names keep within NAME_MAX */
	t->dirfd = dirfd;
	t->ino = 0; /* temp_create's to set */
	memcpy(t->name, name, n + 1);
	memcpy(t->final, final, f + 1);
	atomic_store_explicit(&t->armed, 1, memory_order_release); /* after the name */
}

/* The temporary file is gone (renamed or removed): nothing to clean up. */
static void temp_disarm(struct copy_temp *t)
{
	atomic_store_explicit(&t->armed, 0, memory_order_relaxed);
}

/* The part t holds, to be kept: given the owner and mode the whole file
 * would have had, as rsync's is, through a descriptor opened without
 * following a link and checked to be the file this run made (the name is
 * in a directory others may write to). Async-signal-safe. */
static void part_attrs(const struct copy_temp *t)
{
	struct stat st;
	if (!t->ino)
		return;
	int fd = openat(t->dirfd, t->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_ino == t->ino && st.st_dev == t->dev) {
		mode_t m = t->part_mode;
		bool chown_asked = t->part_uid != (uid_t)-1 || t->part_gid != (gid_t)-1;
		if (chown_asked && fchown(fd, t->part_uid, t->part_gid) < 0)
			m &= ~(mode_t)(S_ISUID | S_ISGID); /* not set-id as another */
		(void)fchmod(fd, m);
	}
	close(fd);
}

/* The temporary file t records, not whole: removed, or kept as final
 * under keep_partial (async-signal-safe). Not over a file a backup was
 * asked for: that is kept whole instead of the part (no backup is made
 * here, in a signal's handler). */
static void temp_drop(const struct copy *c, const struct copy_temp *t)
{
	static const struct timespec zero[2] = { { 0, 0 }, { 0, 0 } };
	struct stat old;
	const char *pd = c->o->partial_dir;
	if (c->o->keep_partial && pd) { /* (its time as it is: rsync's) */
		char kept[2 * (NAME_MAX + 1)];
		size_t n = strlen(pd), f = strlen(t->final);
		if (n + 1 + f < sizeof(kept)) {
			memcpy(kept, pd, n);
			kept[n] = '/';
			memcpy(kept + n + 1, t->final, f + 1);
			(void)mkdirat(t->dirfd, pd, 0700);
			part_attrs(t);
			if (renameat(t->dirfd, t->name, t->dirfd, kept) == 0)
				return;
		}
		unlinkat(t->dirfd, t->name, 0);
		return;
	}
	bool keep_old = c->o->backup != BACKUP_NONE &&
	                fstatat(t->dirfd, t->final, &old, AT_SYMLINK_NOFOLLOW) == 0;
	bool keep = c->o->keep_partial && !keep_old;
	if (keep)
		part_attrs(t);
	if (keep && renameat(t->dirfd, t->name, t->dirfd, t->final) == 0)
		utimensat(t->dirfd, t->final, zero, AT_SYMLINK_NOFOLLOW);
	else
		unlinkat(t->dirfd, t->name, 0);
}

/* --partial-dir: name in pfd is written again, or whole: its part kept
 * before, if any, goes, and the directory of parts when it is left empty. */
static void partial_clear(const struct copy *c, int pfd, const char *name)
{
	struct strbuf kept = STRBUF_INIT;
	if (!c->o->partial_dir || sb_printf(&kept, "%s/%s", c->o->partial_dir, name) < 0)
		return;
	if (unlinkat(pfd, kept.s, 0) == 0)
		(void)unlinkat(pfd, c->o->partial_dir, AT_REMOVEDIR);
	sb_free(&kept);
}

void tempfile_remove_armed(const struct copy *c, struct copy_temp *t)
{
	/* armed by the writer thread, maybe: its name is seen with the flag */
	if (atomic_exchange_explicit(&t->armed, 0, memory_order_acquire))
		temp_drop(c, t);
}

void copy_remove_temp(struct copy *c)
{
	if (!c)
		return;
	tempfile_remove_armed(c, &c->temp);
	writer_remove_temps(c);
}

/* A new temporary name tmp for name in pfd, armed: a new file's (from
 * NULL: its descriptor returned), or a link to the file at the path from
 * (returns 0). -1 when none could be made (reported); LINK_REFUSED (not
 * reported). */
static int temp_new(struct copy *c, const struct stat *st, int pfd, const char *name,
                    const char *from, struct strbuf *tmp)
{
	uint64_t seed = temp_seed(tmp);
	for (int i = 0; i < TEMP_TRIES; i++) {
		if (temp_name(tmp, name, &seed) < 0) {
			copy_error(c, ENOMEM, "%s", cq(c, 0, sb_str(&c->shown)));
			return -1;
		}
		int fd = from ? linkat(AT_FDCWD, from, pfd, tmp->s, AT_SYMLINK_FOLLOW)
		              : destdir_openat(c, pfd, tmp->s, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		                               O_CLOEXEC | O_NOCTTY, create_mode(c, st));
		if (fd >= 0) {
			temp_arm(&c->temp, pfd, tmp->s, name);
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	if (from && link_refused(errno))
		return LINK_REFUSED;
	copy_error(c, errno, "mkstemp %s failed", cq(c, 0, sb_str(&c->shown)));
	return -1;
}

/* keep_dest_mode: the new file fd, to replace name in pfd, is given the
 * mode of the file there (none there, or not a regular file: left as
 * made). */
static void keep_dest_mode(struct copy *c, int fd, int pfd, const char *name)
{
	struct stat old;
	if (c->o->keep_dest_mode && !c->o->preserve_mode &&
	    fstatat(pfd, name, &old, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(old.st_mode) &&
	    fchmod(fd, old.st_mode & 07777) < 0)
		return; /* then it keeps the mode it was made with */
}

/* Create the temporary file; its descriptor, or -1 (reported). */
static int temp_create(struct copy *c, const struct stat *st, int pfd, const char *name,
                       struct strbuf *tmp, mode_t *mode)
{
	int fd = temp_new(c, st, pfd, name, NULL, tmp);
	struct stat got;
	if (fd < 0)
		return -1;
	keep_dest_mode(c, fd, pfd, name);
	if (fstat(fd, &got) == 0) {
		*mode = got.st_mode & 07777;
		attrs_of_part(c, st, *mode, &c->temp);
		c->temp.dev = got.st_dev;
		c->temp.ino = got.st_ino;
		return fd;
	}
	copy_error(c, errno, "mkstemp %s failed", cq(c, 0, sb_str(&c->shown)));
	close(fd);
	unlinkat(pfd, tmp->s, 0); /* nothing in it yet */
	temp_disarm(&c->temp);
	return -1;
}

/* The temporary file tmp that c->temp records, its copy written
 * (regular_finish's result): renamed over name in pfd when whole, else
 * removed or kept as keep_partial asks. Returns 0 when renamed, else -1
 * (reported). */
static int temp_finish(struct copy *c, int pfd, const char *tmp, const char *name, int written)
{
	struct copy_temp *t = &c->temp;
	bool whole = written == 0;
	if (whole && c->o->backup && backup_replaced(c, pfd, name) < 0)
		whole = false;
	if (whole && renameat(pfd, tmp, pfd, name) < 0) {
		copy_error(c, errno, "rename %s -> %s", cq(c, 0, tmp), cq(c, 1, sb_str(&c->shown)));
		whole = false;
	}
	if (whole) {
		temp_disarm(t);
		partial_clear(c, pfd, name);
	} else if (written > 0) { /* the data itself is not all there */
		/* dropped before disarmed: a signal in between drops it twice,
		 * harmlessly */
		temp_drop(c, t);
		temp_disarm(t);
	} else { /* whole data that could not be put in place: nothing to keep */
		unlinkat(pfd, tmp, 0);
		temp_disarm(t);
	}
	return whole ? 0 : -1;
}

int tempfile_name(struct strbuf *sb, const char *name)
{
	uint64_t seed = temp_seed(sb);
	return temp_name(sb, name, &seed);
}

int tempfile_unnamed(struct copy *c, const struct stat *st, int pfd)
{
	return destdir_openat(c, pfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, create_mode(c, st));
}

/* Close the unnamed file fd, linked as name in pfd a moment ago: 0, or -1
 * with the name taken back (reported: a close that fails may have lost
 * data, and nothing less than whole stays under a final name). */
static int unnamed_close(struct copy *c, int fd, int pfd, const char *name)
{
	if (close(fd) == 0)
		return 0;
	c->write_failed = true;
	copy_error(c, errno, "failed to close %s", cq(c, 0, sb_str(&c->shown)));
	unlinkat(pfd, name, 0);
	return -1;
}

/* Give the unnamed file fd the name name in pfd: directly where the
 * process may (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH), else through
 * its /proc name (from; writer.c checks /proc is there), a walk of /proc
 * that cost the thread a sixth of its time. 0, or -1 with errno. */
static int unnamed_link(struct copy *c, int fd, const char *from, int pfd, const char *name)
{
	if (!c->link_by_proc) {
		if (linkat(fd, "", pfd, name, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno != ENOENT)
			return -1;
		/* the privilege is missing (the file is there): not asked again */
		c->link_by_proc = true;
	}
	return linkat(AT_FDCWD, from, pfd, name, AT_SYMLINK_FOLLOW);
}

/* Give the unnamed file ufd st's attributes without a word: whether it got
 * them all. */
static bool attrs_unsaid(struct copy *c, int ufd, int sfd, const struct stat *st, mode_t mode)
{
	c->hush = true;
	c->hushed = false;
	attrs_fd(c, ufd, sfd, st, true, mode, 0);
	c->hush = false;
	return !c->hushed;
}

/* Write the unnamed file ufd (tempfile_unnamed()) and name it: name in
 * pfd itself when that is free, else a temporary name renamed over name.
 * Returns 0 or -1 (reported); LINK_REFUSED when it cannot be named at all
 * (nothing of it left, nothing reported). */
static int unnamed_write(struct copy *c, const char *src, int sfd, const struct stat *st,
                         int pfd, const char *name, int ufd)
{
	struct stat got;
	char from[PROCFD_NAME_MAX];
	int r = -1;
	if (fstat(ufd, &got) < 0) {
		copy_error(c, errno, "cannot create regular file %s", cq(c, 0, sb_str(&c->shown)));
		goto out;
	}
	mode_t mode = got.st_mode & 07777;
	if (!c->o->attributes_only &&
	    (data_copy(c, sfd, st, ufd, true, src) < 0 || data_synced(c, ufd) < 0))
		goto out; /* (reported) and nothing of it under any name */
	/* its attributes before it has a name; what they lacked said once it
	 * has one: a link refused throws this file away, and the copy made the
	 * other way says what its own lack */
	bool attrs_ok = attrs_unsaid(c, ufd, sfd, st, mode);
	procfd_name(ufd, from);
	if (unnamed_link(c, ufd, from, pfd, name) == 0) {
		if (!attrs_ok)
			attrs_fd(c, ufd, sfd, st, true, mode, 0);
		return unnamed_close(c, ufd, pfd, name);
	}
	if (link_refused(errno)) {
		r = LINK_REFUSED;
		goto out;
	}
	if (errno != EEXIST) {
		copy_error(c, errno, "cannot create regular file %s", cq(c, 0, sb_str(&c->shown)));
		goto out;
	}
	/* a file to replace (or a link planted there, replaced as well): its
	 * mode looked at here only, not for every new file */
	keep_dest_mode(c, ufd, pfd, name);
	struct strbuf tmp = STRBUF_INIT;
	r = temp_new(c, st, pfd, name, from, &tmp);
	if (r == 0) {
		if (!attrs_ok)
			attrs_fd(c, ufd, sfd, st, true, mode, 0);
		if (unnamed_close(c, ufd, pfd, tmp.s) < 0) {
			temp_disarm(&c->temp);
			r = -1;
		} else {
			r = temp_finish(c, pfd, tmp.s, name, 0);
		}
		sb_free(&tmp);
		return r;
	}
	sb_free(&tmp);
out:
	close(ufd);
	return r;
}

int tempfile_write(struct copy *c, const char *src, int sfd, const struct stat *st, int pfd,
                   const char *name, int unnamed)
{
	if (unnamed >= 0) {
		uint64_t bytes = c->bytes;
		int r = unnamed_write(c, src, sfd, st, pfd, name, unnamed);
		if (r != LINK_REFUSED)
			return r;
		/* copied again, the way that needs no link */
		c->bytes = bytes;
		c->unnamed_refused = true;
	}
	struct strbuf tmp = STRBUF_INIT;
	mode_t mode = 0;
	int r = -1;
	/* --partial-dir: a part kept before goes first. It is no basis here
	 * (the copy sends the whole file), and the disk a part filled needs
	 * its room back for the whole (rsync writes over it): else every run
	 * after fails the same way */
	partial_clear(c, pfd, name);
	int dfd = temp_create(c, st, pfd, name, &tmp, &mode);
	if (dfd >= 0)
		r = temp_finish(c, pfd, tmp.s, name, regular_finish(c, sfd, st, dfd, src, true, mode));
	sb_free(&tmp);
	return r;
}

int tempfile_copy(struct copy *c, const struct sweep_entry *e, int sfd, const struct stat *st,
                  int pfd, const char *name)
{
	struct writer_job j = { .e = e, .sfd = sfd, .dfd = -1, .st = st, .created = true,
	                        .pfd = pfd, .name = name };
	if (writer_give(c, &j))
		return 0; /* the writer's to make, write and rename (it reports) */
	return tempfile_write(c, e->path, sfd, st, pfd, name, -1);
}
