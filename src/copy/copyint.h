/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * copyint.h: the copy engine's state and the functions its files share
 * (see copy.h for the map of files).
 */
#ifndef SWEEP_COPYINT_H
#define SWEEP_COPYINT_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include "copy.h"
#include "keymap.h"
#include "rate.h"
#include "strbuf.h"

#define COPY_BUFSIZE (128u << 10)

/* The temporary file being written (tempfile.c), for a signal handler to
 * remove (copy_remove_temp): armed only while it exists under name. */
struct copy_temp {
	atomic_int armed;        /* lock-free: set and read across threads and
	                            by the signal handler */
	int dirfd;
	char name[NAME_MAX + 1];
	char final[NAME_MAX + 1];   /* keep_partial: the name it is kept as */
	/* keep_partial: the file made (0: none of its own, a link) and the
	 * owner ((uid_t)-1: left) and mode its part is given when kept */
	dev_t dev;
	ino_t ino;
	uid_t part_uid;
	gid_t part_gid;
	mode_t part_mode;
};

struct copy {
	const struct copy_opts *o;
	struct diag *d;
	mode_t umask;
	struct sweep *sw;
	/* the tree being copied */
	const char *src_root;
	size_t src_rootlen;
	int top_fd;              /* the directory the copy's root goes in */
	const char *top_name;    /* the root's name there */
	const char *top_shown;
	unsigned tree;           /* index of this tree in tops */
	/* where this tree's copy goes, by identity: top_fd's directory and
	 * the root's copy in it (check.c; learnt once the root is made) */
	struct stat dest_ids[2];
	bool dest_known;
	/* destination directories the walk is inside: dir_id -> packed
	 * (destdir.c) */
	struct keymap dirs;
	size_t nopen;
	size_t max_open;       /* destdir.c: how many may be open */
	/* the entry being copied */
	struct strbuf rel;       /* its path below the source root */
	off_t append_from;       /* --append: the bytes its copy has already */
	bool appending;          /* ... there are some (no zeros left out) */
	const struct sweep_entry *entry; /* ... (for append_failed) */
	struct strbuf drel;      /* its destination, relative to top_fd */
	struct strbuf shown;     /* its destination as messages say it */
	struct strbuf target;    /* a symbolic link's target */
	struct strbuf bshown;    /* a backup's name as shown */
	/* hard links (hardlink.c): (dev, ino) -> offset + 1 in link_names of
	 * "tree index" bytes then the destination relative to its top */
	struct keymap links;
	struct keymap made_dirs;   /* -L: (dev, ino) of the directories made, which
	                              a followed link must not lead the walk into */
	struct keymap made_tops;   /* no_remake: (dev, ino) of the top-level
	                              copies made */
	struct strbuf link_names;
	struct keymap operand_dirs; /* operand_dirs_once: (dev, ino) of each directory
	                               operand -> offset + 1 of its copy's shown
	                               name in operand_names */
	struct strbuf operand_names;
	int *tops;               /* every tree's top_fd, by tree index */
	unsigned ntops;
	char *buf;               /* read/write fallback */
	uint64_t files, bytes, known;
	/* the write batch (writeback.c) */
	uint64_t batch;          /* this tree's, in bytes; 0: the kernel's */
	uint64_t synced;         /* bytes when the last batch was written out */
	int wb_fd;               /* on the file system written to */
	bool wb_own;             /* ... opened for it, closed at the tree's end */
	struct behind *behind;   /* writing batches out while reading on, or NULL */
	struct writer *writer;   /* finishing files' copies beside the walk, or NULL */
	struct copy_temp temp;
	struct rate bw;           /* bwlimit (throttle.c) */
	atomic_uint_least64_t noclone_dev; /* data.c: 1 + the file system files
	                            cannot be cloned from (reflink=auto), or 0;
	                            the writer's thread reads it too */
	bool failed;             /* something failed in this tree */
	uint64_t errors;         /* copy_error()s and required copy_warn()s */
	bool made;               /* the entry being copied was made whole at its
	                            name (the done hook's) */
	bool nomem;              /* the walk ran out of memory: stop */
	bool kept_attrs;         /* attributes of an entry found up to date
	                            being set (check.c): its time compared
	                            as rsync compares it */
	bool write_failed;       /* a file's data could not be written at the
	                            destination (no space, quota, I/O) */
	bool link_by_proc;       /* tempfile.c: linkat(AT_EMPTY_PATH) refused */
	bool unnamed_refused;    /* tempfile.c: files made without a name cannot
	                            be linked here (the writer stops making them) */
	bool hush;               /* copy_error() and copy_warn() only note, in
	                            hushed, that they would have said something */
	bool hushed;
	struct keymap pruned;    /* copy_stream(): directories passed over */
};

/* engine.c: report a failure (status 1 when required is true, a message
 * only otherwise), as "sweep-cp: fmt...: strerror(err)". */
void copy_error(struct copy *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void copy_warn(struct copy *c, bool required, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Names quoted as GNU cp quotes them (slot 0..2). */
const char *cq(struct copy *c, int slot, const char *name);
/* The "'src' -> 'dst'" line of -v, with the backup made, if any. */
void copy_verbose(struct copy *c, const struct sweep_entry *e, const char *backup);
/* Fill rel, drel and shown for e. Returns 0 or -1 (ENOMEM). */
int copy_names(struct copy *c, const struct sweep_entry *e);
/* Do not go into the directory e just handed out. */
void copy_prune(struct copy *c, const struct sweep_entry *e);
/* Whether links are followed at e (-L, or -H at a root). */
bool copy_follows(const struct copy *c, const struct sweep_entry *e);
/* Whether e's copy is a file of its bytes: a regular file, or without
 * recursion (GNU cp without -R) a device, read as a file is. */
bool copy_as_file(const struct copy *c, const struct sweep_entry *e);

/* writeback.c: the tree's batch, from the options and the destination's
 * disk; after each regular file, the policy's turn; the batch written out
 * now; the end of a tree (the last batch written out). */
void writeback_plan(struct copy *c);
void writeback_file_done(struct copy *c);
void writeback_flush(struct copy *c);
void writeback_end(struct copy *c);

/* thread.c: pthread_create() with every signal blocked in the thread.
 * Returns 0 or an errno. */
int copy_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* behind.c: a thread that writes a batch out (syncfs) while the walk reads
 * the next: started on a descriptor of the destination's file system (NULL
 * when it cannot be), waited for (the errno of its last write-out, or 0),
 * given the next batch, stopped. */
struct behind;
struct behind *behind_start(int fd);
int behind_wait(struct behind *b);
void behind_write(struct behind *b);
void behind_stop(struct behind *b);

/* writer.c: a thread finishing regular files' copies while the walk goes
 * on, started for a tree when the options allow (else c->writer stays
 * NULL). A job: e's data, read from sfd (duplicated), into the open copy
 * dfd (owned by the thread once given), created (with mode) or not; for
 * sweep-sync, no dfd but name in pfd (duplicated), which the thread writes
 * as tempfile_write() does, into a file the walk made without a name
 * where it could. writer_give() returns whether the thread took it; a
 * named temporary file is never made by the walk while the thread may
 * make one (it waits for room, or drains the thread before it writes one
 * itself). Then: the bytes it copied since the last drain, and the sizes of the
 * files given since (a batch counts what is given, not what is done);
 * drained (every file given is done, its bytes and failures the walk's:
 * true when some were still being copied, their descriptors closed
 * since); its temporary files removed (async-signal-safe, for
 * copy_remove_temp); stopped at the tree's end. */
struct writer;
struct writer_job {
	const struct sweep_entry *e;
	int sfd, dfd;
	const struct stat *st;
	bool created;
	mode_t mode;
	int pfd;                 /* sweep-sync: -1 for a copy in place */
	const char *name;
};
void writer_start(struct copy *c);
bool writer_give(struct copy *c, const struct writer_job *job);
/* A directory's attributes (as dirs_leave gives them: its fd and source
 * sfd, -1 or owned, given when it returns true), after the files given
 * before it; false when the walk is to give them itself (then nothing is
 * left with the thread). */
bool writer_give_dir(struct copy *c, const struct sweep_entry *e, int fd, int sfd,
                     unsigned flags, mode_t mode);
uint64_t writer_bytes(const struct copy *c);
uint64_t writer_pending(const struct copy *c);
/* Under fsync_files, the data written to fd on the disk (a failure is a
 * failed write: reported, write_failed). Returns 0 or -1. */
int data_synced(struct copy *c, int fd);
/* Whether the thread failed to write a file's data (write_failed). */
bool writer_write_failed(const struct copy *c);
bool writer_drain(struct copy *c);
/* Wait until the thread has no copy queued from or into st's file: before
 * the walk cuts it under another name (a link in the destination) or
 * reads it itself, so that what is read and written of one file goes in
 * the walk's order. */
void writer_wait_for(struct copy *c, const struct stat *st);
void writer_remove_temps(struct copy *c);
void writer_stop(struct copy *c);

/* destdir.c: the directory e goes in (borrowed), or -1 with errno; its
 * name there. */
int destdir_parent(struct copy *c, const struct sweep_entry *e, const char **name);
/* Whether e's destination directory is DIR_FRESH: no name there yet but
 * those the walk made (each source name comes once), so e's needs no look. */
bool destdir_fresh(struct copy *c, const struct sweep_entry *e);
/* Remember fd (owned from now on) as directory id's destination, with
 * flags and mode for dirs.c. */
int destdir_add(struct copy *c, uint64_t id, int fd, unsigned flags, mode_t mode);
/* Take back directory id (reopened if its descriptor was closed): its fd,
 * the caller's to close, or -1 with errno; -2 when it is not known. */
int destdir_take(struct copy *c, uint64_t id, const char *drel, unsigned *flags,
                 mode_t *mode);
void destdir_close_all(struct copy *c);
/* openat(2) of a destination name in pfd that, out of descriptors, closes
 * the directories kept open (but pfd) and tries again. */
int destdir_openat(struct copy *c, int pfd, const char *name, int flags, mode_t mode);

#define DIR_CREATED 1u  /* made by this copy */
#define DIR_RESTORE 2u  /* made (or, existing, set) searchable and writable
                           for the copy */
/* with a mode given regular_fill() for a file not created: the mode to give
 * it again once written (set-ID bits a user's write clears) */
#define MODE_RESTORE 0200000u
#define DIR_FRESH   4u  /* made for a local walk, on a file system that
                           tells every name apart as the source's does: it
                           holds only what the walk put in */

/* dirs.c: a directory before and after its contents. */
void dirs_enter(struct copy *c, const struct sweep_entry *e);
void dirs_leave(struct copy *c, const struct sweep_entry *e);
/* The mode a new file or directory is created with, before any later
 * chmod. */
mode_t create_mode(const struct copy *c, const struct stat *st);
/* The mode bits held back until the owner is set. */
mode_t omitted_mode(const struct copy *c, const struct stat *st);

/* special.c: symbolic links, fifos, devices, sockets. */
void special_copy(struct copy *c, const struct sweep_entry *e);
/* -l and -s: e linked at name in pfd instead of copied (reported). */
int special_link(struct copy *c, const struct sweep_entry *e, int pfd, const char *name);
/* The directory a non-directory e is to be made in (borrowed), with its
 * name there; -1 when e is done with already: its directory failed
 * ("cannot create WHAT'name'", reported), -l or -s linked it, or it is a
 * later name of a file copied already (hard-linked). */
int special_place(struct copy *c, const struct sweep_entry *e, const char *what,
                  const char **name);

/* regular.c: a regular file (fd: its data, or -1 to open it here). */
void regular_copy(struct copy *c, const struct sweep_entry *e);
/* The rest of a regular file's copy into the open dfd: its data from sfd
 * (source path src, status st), its attributes when whole (created, with
 * mode, as attrs_fd), the close. Returns 0 when whole, 1 when its data is
 * not all there, -1 when it is but the copy could not be closed (each
 * reported). */
int regular_finish(struct copy *c, int sfd, const struct stat *st, int dfd, const char *src,
                   bool created, mode_t mode);
/* The same without the close: 0 when whole, 1 when not all there. */
int regular_fill(struct copy *c, int sfd, const struct stat *st, int dfd, const char *src,
                 bool created, mode_t mode);

/* data.c: copy the bytes of sfd (status st) to dfd, a regular file this
 * run made (made) or whatever was found in place (a fifo, a device:
 * written in order). Returns 0, or -1 (reported: then dfd holds a part
 * only). */
int data_copy(struct copy *c, int sfd, const struct stat *st, int dfd, bool made, const char *src);

/* attrs.c: give the open destination dfd (status now) the owner, extended
 * attributes, mode and times of the source (sfd, or -1; st) as the options
 * ask; created_mode is the mode a new file was created with, or 0 for one
 * that existed. Returns 0 or -1 (reported). */
int attrs_fd(struct copy *c, int dfd, int sfd, const struct stat *st, bool created,
             mode_t created_mode, unsigned dflags);
/* Whether a destination that exists (status now) has the owner, mode and
 * times the options give it from st already: attrs_fd() and attrs_at()
 * would set nothing (extended attributes aside). */
bool attrs_same(const struct copy *c, const struct stat *now, const struct stat *st);
/* The same for a name that cannot be opened (symbolic links, fifos). */
int attrs_at(struct copy *c, int pfd, const char *name, const struct stat *st, bool created);
/* What t's file (made with created_mode, for the source st) is given if
 * kept as a part: the owner and mode the whole copy would have. */
void attrs_of_part(const struct copy *c, const struct stat *st, mode_t created_mode,
                   struct copy_temp *t);

/* xattr.c: copy the extended attributes (ACLs only when acl_only) of sfd
 * to dfd. Returns 0 or -1 (reported). */
int xattr_copy(struct copy *c, int sfd, int dfd, bool acl_only);
/* Remove fd's access ACL (an O_PATH descriptor too); whether it had one
 * (removing none succeeds too). */
bool xattr_drop_access_acl(int fd);

/* hardlink.c: when e is a later name of a file copied already, make it a
 * hard link to that copy: 1 when done (or reported), 0 when e must be
 * copied; remember e's copy as the file's first. */
int hardlink_later(struct copy *c, const struct sweep_entry *e, int pfd, const char *name);
void hardlink_remember(struct copy *c, const struct sweep_entry *e);
/* Whether e is a later name of a file copied (or found unchanged) already,
 * and its destination dst is that copy's inode: nothing to do then. */
bool hardlink_same(struct copy *c, const struct sweep_entry *e, const struct stat *dst);
/* The first name remembered of e's file, below the source root, when it
 * is in this tree; else NULL. */
const char *hardlink_first(struct copy *c, const struct sweep_entry *e);
/* The same, for a first name in another tree: its path below the
 * destination; NULL when there is none or it is in this tree. */
const char *hardlink_first_elsewhere(struct copy *c, const struct sweep_entry *e);
/* Whether e is a later name of a file already remembered. */
bool hardlink_known(const struct copy *c, const struct sweep_entry *e);
/* Whether e's file may have other names in the copy (its copy is then
 * made in order, not handed to the writer thread). */
bool hardlink_tracked(const struct copy *c, const struct sweep_entry *e);

/* throttle.c: n more bytes of data written: the alive hook, and a sleep
 * that keeps to bwlimit. */
void throttle_wrote(struct copy *c, uint64_t n);

/* check.c: sweep-sync's decide hook asked about e when the walk meets it
 * (the walk's filter). */
enum sweep_verdict check_entry(struct copy *c, const struct sweep_entry *e);

/* tempfile.c: write e's data (sfd, st) to a temporary name beside name in
 * pfd, give it its attributes, and rename it over name. Returns 0 or -1
 * (reported; nothing is left under either name then); 0 too when the
 * writer took it (it reports). */
int tempfile_copy(struct copy *c, const struct sweep_entry *e, int sfd, const struct stat *st,
                  int pfd, const char *name);
/* The same from a thread of the copy's (writer.c): src is the source's
 * path; c->temp records the temporary file while it exists. unnamed: a
 * file of tempfile_unnamed() (owned) to write instead of a new temporary
 * file, or -1. */
int tempfile_write(struct copy *c, const char *src, int sfd, const struct stat *st, int pfd,
                   const char *name, int unnamed);
/* A file without a name (O_TMPFILE) in pfd, for tempfile_write(): its
 * descriptor, or -1 with errno (not reported: a named temporary file will
 * do). */
int tempfile_unnamed(struct copy *c, const struct stat *st, int pfd);
/* A fresh name ".NAME.XXXXXX" for something made beside name, into sb
 * (the caller retries on EEXIST). Returns 0 or -1 (ENOMEM). */
int tempfile_name(struct strbuf *sb, const char *name);
/* Remove (or, under keep_partial, keep) the temporary file t records, if
 * it is armed (async-signal-safe). */
void tempfile_remove_armed(const struct copy *c, struct copy_temp *t);

/* replace.c: what to do at name in pfd before e is made there. */
enum dest_state { DEST_NEW, DEST_EXISTS, DEST_SKIP, DEST_FAIL };
enum dest_state replace_prepare(struct copy *c, const struct sweep_entry *e, int pfd,
                                const char *name, const char **backup);
/* Remove name in pfd to make room (reported). Returns 0 or -1. */
int replace_remove(struct copy *c, int pfd, const char *name);
/* sweep-cp -n, -u: whether what is at e's copy's name (c->shown) stays,
 * whatever e holds: GNU cp looks no further, its source not opened. */
bool replace_kept(struct copy *c, const struct sweep_entry *e);
/* fstatat(2) of e's copy's name (c->drel built) from its directory, with
 * flags: no path, which may be longer than PATH_MAX. */
int replace_look(struct copy *c, const struct sweep_entry *e, struct stat *st, int flags);
/* e was copied as name in pfd: a top-level copy noted for no_remake (it
 * was said under -v, backup and all, by replace_prepare(), before it was
 * made, as GNU cp says it). */
void replace_made(struct copy *c, const struct sweep_entry *e, int pfd, const char *name);
/* sweep-cp: the copy (or link) over name in pfd failed, and the file
 * there was renamed to backup (shown as it is said) first: put back under
 * its name over what the copy left, as GNU cp puts it back ("unbackup"),
 * so that the name keeps the data it had. */
void replace_unbackup(struct copy *c, int pfd, const char *name, const char *backup);

/* backup.c: move name in pfd aside as the options ask; *shown is its new
 * name as shown; by_copy: a regular file is copied aside, not moved (it is
 * to be written in place). Returns 0; 1 when it was copied; or -1
 * (reported). */
int backup_make(struct copy *c, int pfd, const char *name, const char **shown, bool by_copy);
/* temp_rename: name in pfd, if there and not a directory, backed up before
 * it is renamed over. Returns 0, or -1 (reported). */
int backup_replaced(struct copy *c, int pfd, const char *name);

/* Whether two stats are of one file (st_ino 0: not known, none). */
static inline bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_ino && a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

#endif
