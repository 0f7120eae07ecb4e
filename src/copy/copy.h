/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * copy.h: the copy engine, shared by sweep-cp and sweep-sync.
 *
 * One call copies one source tree to one destination name: libsweep walks
 * the source (directories, symbolic links and special files in its
 * metadata phase, by inode; regular files' data in its data phase, by
 * physical block), and each entry is made on the destination side as it
 * comes, relative to open directory descriptors, so that paths longer than
 * PATH_MAX work and no symbolic link in the copied tree is followed.
 * Directories get their mode and times after their contents (libsweep's
 * post-order entries), so an interrupted copy never leaves a read-only
 * directory half filled.
 *
 * Errors are reported once, here, in GNU cp's words through struct diag,
 * and the copy goes on with the next entry.
 *
 * Files: engine.c (the walk and its dispatch), destdir.c (destination
 * directory descriptors), dirs.c (directories), special.c (symbolic links,
 * fifos, devices), regular.c (destination of a regular file), data.c (its
 * bytes), attrs.c (owner, mode, times), xattr.c (extended attributes and
 * ACLs), hardlink.c (hard links within the copy), replace.c (what to do
 * with an existing destination), backup.c (backup names), check.c (the
 * decide hook of sweep-sync: what to do with each entry before it is made),
 * tempfile.c (a regular file written aside and renamed into place),
 * writeback.c (when written data goes to the disk), behind.c (written
 * out by a thread while the walk reads on), writer.c (a thread finishing
 * each file's copy while the walk goes on), thread.c (how those threads
 * start), throttle.c (a limit on the rate data is written at).
 */
#ifndef SWEEP_COPY_H
#define SWEEP_COPY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "backupname.h"
#include "diag.h"
#include "sweep.h"

enum copy_sparse { COPY_SPARSE_AUTO = 0, COPY_SPARSE_NEVER, COPY_SPARSE_ALWAYS };
enum copy_reflink { COPY_REFLINK_NEVER = 0, COPY_REFLINK_AUTO, COPY_REFLINK_ALWAYS };
/* What the decide hook says of an entry (sweep-sync's quick check). */
enum copy_verdict {
	COPY_MAKE = 0, /* make or replace it (a directory: make it or use it) */
	COPY_KEEP,     /* it is there and unchanged: write nothing; under
	                  only_changed, give it the attributes that differ; a
	                  directory is still walked */
	COPY_LEAVE,    /* leave it out (a directory with all it holds) */
};

/* What to do with a destination that exists (a directory is always used). */
enum copy_exist { COPY_OVERWRITE = 0, COPY_NO_CLOBBER, COPY_INTERACTIVE };

struct copy_opts {
	enum sweep_follow follow;  /* -P, -H, -L */
	bool recursive;            /* -R: else a directory is never given */
	bool one_fs;               /* -x */
	bool preserve_mode, preserve_owner, preserve_times, preserve_links;
	bool omit_dir_times;       /* preserve_times but for directories */
	int mtime_window;          /* under only_changed, rsync's --modify-window:
	                              times within this many seconds are the
	                              same (0: whole seconds; below 0: to the
	                              nanosecond) */
	bool preserve_xattr;
	bool require_preserve;     /* -p/--preserve: failures change the status */
	bool require_xattr;        /* --preserve=xattr given explicitly */
	bool no_preserve_mode;     /* --no-preserve=mode: default modes */
	enum copy_sparse sparse;
	enum copy_reflink reflink;
	bool attributes_only;
	enum copy_exist exist;
	bool update;               /* -u: only onto an older destination */
	bool force;                /* -f: remove what cannot be opened */
	bool remove_destination;
	enum backup_type backup;
	const char *suffix;        /* backup suffix, "~" by default ("" below
	                              backup_dir) */
	/* sweep-sync --backup-dir: the directory simple backups go below,
	 * under their path below the destination (made when first asked
	 * for); -1 with errno when it cannot be */
	int (*backup_dir)(void *arg);
	/* sweep-sync: a backup was made of rel (its path below the
	 * destination), for rsync's "backed up" line; on the walk's thread
	 * only when no_write_thread */
	void (*backed_up)(void *arg, const char *rel);
	bool backup_copy;          /* a regular file written in place is backed
	                              up by a copy, so that its other names see
	                              the new data (rsync's --inplace -b) */
	bool hard_link;            /* -l */
	bool symbolic_link;        /* -s */
	bool verbose;
	enum sweep_order order;
	enum sweep_warm warm;
	uint64_t write_batch;      /* bytes read before the destination is
	                              written out (writeback.c); 0: the kernel's
	                              writeback decides */
	bool write_batch_auto;     /* instead: a batch onto a disk that seeks */
	bool write_behind;         /* a batch written out while the next is
	                              read (auto: onto another disk) */
	bool no_write_thread;      /* every file copied on the walk's thread */
	/* -i: whether to overwrite the destination shown (as GNU quotes it);
	 * unwritable: its status, when the user may not write it. */
	bool (*ask)(void *arg, const char *dst_shown, const struct stat *unwritable);
	/* --progress: called after each file. known: the bytes of the regular
	 * files the walk has found so far. */
	void (*progress)(void *arg, uint64_t files, uint64_t bytes, uint64_t known);
	void *arg;

	/* sweep-sync. decide: called for every entry (roots too) when the walk
	 * meets it, before its data is queued: rel is its path below the
	 * source root ("" for the root), pfd and name where it goes (pfd -1
	 * when its directory is not there: new, or a dry run), dst its
	 * destination's lstat or NULL when there is none. */
	enum copy_verdict (*decide)(void *arg, const struct sweep_entry *e, const char *rel,
	                            int pfd, const char *name, const struct stat *dst);
	/* instead of decide, for a later name of a file with several names
	 * (preserve_links) whose first was copied or found unchanged: it is
	 * linked to that (same: it is already); false leaves it out. first:
	 * that first name's path below the source root, or NULL when it is in
	 * another tree; then elsewhere is its path below the destination.
	 * pfd, name and dst as decide's. */
	bool (*linked)(void *arg, const struct sweep_entry *e, const char *rel, int pfd,
	               const char *name, const struct stat *dst, bool same, const char *first,
	               const char *elsewhere);
	/* walk errors reported by the caller instead (then it keeps the status) */
	void (*walk_error)(void *arg, const struct sweep_entry *e);
	bool dry_run;              /* decide only: make, change, remove nothing */
	bool temp_rename;          /* new data goes to .NAME.XXXXXX, renamed over
	                              NAME once whole (never through a link) */
	uint64_t bwlimit;          /* bytes a second written at most; 0: any */
	void (*alive)(void *arg);  /* after each chunk of data written */
	bool keep_partial;         /* with it: a file not whole (a failure, a
	                              signal) is renamed over NAME as far as it
	                              got, its time 0, not removed (--partial) */
	const char *partial_dir;   /* keep_partial: the part goes to DIR/NAME
	                              instead (DIR one name, made in NAME's
	                              directory), and is removed, DIR too when
	                              empty, once NAME is whole (--partial-dir) */
	bool listed_size;          /* a source read shorter than its stat said is
	                              an error ("read errors mapping"), the copy
	                              made again as the file is now (rsync's
	                              second try) */
	bool only_changed;         /* attributes set only where they differ, so an
	                              unchanged entry's ctime never moves */
	bool replace_nondir;       /* a non-directory where a directory goes is
	                              removed, not an error */
	bool keep_setid;           /* preserve_mode: the set-user/group-ID bits
	                              too where the owner could not be given (as
	                              rsync: the copy is the user's own); GNU cp
	                              drops them then */
	bool operand_dirs_once;    /* GNU cp: a directory operand met again (a
	                              later operand's, or below one) is "will
	                              not create hard link", not copied twice,
	                              unless links are followed there */
	bool no_remake;            /* several operands into a directory (GNU cp): a
	                              top-level copy is not written over by a later
	                              operand's ("will not overwrite just-created") */
	bool keep_dest_mode;       /* without preserve_mode, a file replaced (by a
	                              temporary file renamed over it) gets the
	                              mode it had, as rsync gives it */
	bool open_dirs;            /* an existing directory the copy cannot write
	                              into (ours, not root's run) is made so until
	                              its contents are in, as rsync does; GNU cp
	                              fails on what goes into it */
	bool preallocate;          /* a regular file's blocks all allocated
	                              before its data is written (holes of the
	                              source too, as rsync --preallocate; not
	                              under --sparse=always) */
	bool fsync_files;          /* each file's data on the disk (fsync) before
	                              it is named (sweep-sync --fsync) */
	/* the source's entry as the copy is to see it (sweep-sync --chmod):
	 * e itself, or view filled from it; a walk's entries only */
	const struct sweep_entry *(*source_view)(void *arg, const struct sweep_entry *e,
	                                         struct sweep_entry *view);
	int depth_cap;             /* entries this deep and deeper are left out
	                              (0: none): a directory just above is made,
	                              its contents never read (sweep-sync
	                              --files-from's implied directories) */
	bool write_error_ends;     /* a file's data that cannot be written at the
	                              destination (no space, quota, a failed
	                              close) ends the copy there, as rsync's
	                              receiver ends (copy_write_failed) */
	/* sweep-sync --remove-source-files: called on the walk's thread for
	 * each non-directory entry of a walk once its copy is whole at its
	 * name (dst NULL), or found there unchanged or linked already (dst:
	 * what is there); never for one left out, not made, or whose copy
	 * said an error. rel: its path below the source root. Setting it keeps
	 * every file's copy on the walk's thread, so that "whole" is known. */
	void (*done)(void *arg, const struct sweep_entry *e, const char *rel,
	             const struct stat *dst);
	/* sweep-sync --append: a regular file written in place (temp_rename
	 * off) that is there, shorter, gets only the source's bytes past its
	 * end (the decide hook leaves one that is not shorter); append_verify:
	 * what it holds is compared with the source's first, and from the
	 * first byte that differs all is written, append_failed called */
	bool append, append_verify;
	void (*append_failed)(void *arg, const struct sweep_entry *e, const char *rel);
	bool acls_apart;           /* ACLs by preserve_acl, not with the mode */
	bool preserve_acl;
	bool no_uid, no_gid;       /* with preserve_owner: leave this part alone */
	/* copy_stream(): the bytes of the regular file being made, as read(2)
	 * returns them (0 at its end, -1 with errno) */
	ssize_t (*read_data)(void *arg, void *buf, size_t n);
};

struct copy;

/* A copier for any number of trees, with opt (kept by pointer) and d for
 * messages. NULL when memory ran out. */
struct copy *copy_new(const struct copy_opts *opt, struct diag *d);

/*
 * Copy the tree at src (as given; a name relative to the current
 * directory) to name in the open directory dst_dirfd, which must stay open
 * until copy_free(). dst_shown is the destination as messages and -v name
 * it. Returns 0, or -1 when something failed (reported; the rest copied).
 */
int copy_tree(struct copy *c, const char *src, int dst_dirfd, const char *name,
              const char *dst_shown);

/*
 * The same for a tree whose entries come from next() (NULL at the tree's
 * end) instead of a walk of a local source: sweep-sync's receiver, whose
 * source is on another host. They come as the walk hands them out (a
 * directory before what it holds, its SWEEP_DIR_POST after); each is put
 * to the decide hook as the walk's filter puts it, then made; what lies
 * below a directory left out or not made is passed over. A regular file's
 * bytes come from o->read_data; its source stand-in (e->dirfd, e->name)
 * serves for a symbolic link's target and extended attributes. src is the
 * source as messages name it.
 */
int copy_stream(struct copy *c, const char *src, int dst_dirfd, const char *name,
                const char *dst_shown, const struct sweep_entry *(*next)(void *arg),
                void *arg);

/* Whether a file's data could not be written at the destination, in any
 * tree this copier copied (write_error_ends says what follows). */
bool copy_write_failed(const struct copy *c);

/* Remove the temporary file being written under temp_rename, if any (or
 * keep it under its final name, under keep_partial): for a handler of a
 * signal that ends the program (async-signal-safe). */
void copy_remove_temp(struct copy *c);

/* Move name in pfd (rel: its path below the destination) aside as a
 * simple backup, as o says (beside it, or below backup_dir); its name
 * there into shown. Returns 0, or -1 with errno. (The engine's own
 * backups of files written in place copy them, under backup_copy.) */
struct strbuf;
int copy_backup_move(const struct copy_opts *o, int pfd, const char *name, const char *rel,
                     struct strbuf *shown);

/* Open the directory at the first len bytes of path below basefd, one
 * component at a time, following no symbolic link (destdir.c). */
int destdir_walk(int basefd, const char *path, size_t len);

/* Whether file systems a and b are surely on two disks, each with its own
 * arm (disks.c). */
bool copy_disks_apart(dev_t a, dev_t b);

/* Counters so far, for --progress's last line. */
void copy_counts(const struct copy *c, uint64_t *files, uint64_t *bytes);

void copy_free(struct copy *c);

/* What differs between the attributes a copy carries under o (ACLs,
 * extended attributes) of the open files sfd and dfd: COPY_XATTR_ACL,
 * COPY_XATTR_OTHER, or 0. */
enum { COPY_XATTR_ACL = 1, COPY_XATTR_OTHER = 2 };
unsigned copy_xattrs_differ(const struct copy_opts *o, int sfd, int dfd);

/* rsync's comparison of two modification times a and b under a window
 * (--modify-window): -1, 0 or 1 as a is older, the same, or newer. */
int copy_cmp_mtime(const struct timespec *a, const struct timespec *b, int window);

#endif
