/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * create.h: the state of one -c run, shared by create.c, header.c,
 * filedata.c and xattr.c.
 */
#ifndef SWEEP_TAR_CREATE_H
#define SWEEP_TAR_CREATE_H

#include <sys/stat.h>
#include "keymap.h"
#include "output.h"
#include "tar.h"
#include "writer.h"

struct create {
	struct tar *t;
	struct tar_writer w;         /* w.a: the tar writer */
	struct sweep *sw;
	struct archive_entry *entry; /* reused for every member */
	struct tar_out out;
	enum tar_format format;
	bool archive_is_file;        /* the archive is a regular file: skip it */
	bool track_all;              /* links.c: one file may come under two paths */
	struct stat archive_st;
	struct strbuf name;          /* member name being built */
	struct strbuf plain;         /* the same before --transform */
	struct strbuf shown;         /* the name -v shows */
	struct strbuf link;          /* symlink target */
	struct strbuf xattr;         /* xattr.c's scratch */
	struct deferred *deferred;   /* remove.c: removals put off to the end */
	size_t ndeferred, capdeferred;
	struct keymap deferred_dirs; /* remove.c: directory id -> its root's base
	                                (+1, from AT_FDCWD) */
	struct keymap links;         /* links.c: (dev, ino) -> name offset + 1 */
	struct strbuf link_names;
	int *dirfds;                 /* -C directories, closed at the end */
	size_t ndirfds;
	struct held_link *held;      /* held.c: links waiting for their directory */
	size_t nheld, capheld;
	struct keymap held_dirs;     /* (dir_id, 0): directories links wait for */
	struct keymap unread_dirs;   /* (dir_id, 0): directories not read: not stored */
	struct keymap tagged;        /* tags.c: (dir_id, 0) -> the tag, by index */
	struct incremental *inc;     /* -g (incremental.c), or NULL */
	bool scoped;                 /* scope.c: names have options of their own */
	struct keymap scope_roots;   /* (name's hash, -C fd) -> its index + 1 */
	struct keymap scope_dirs;    /* (dir_id, 0) -> the index + 1 of its name */
	struct keymap checked;       /* checklinks.c: (dev, ino) -> index + 1 */
	struct link_count *counts;
	size_t ncounts, capcounts;
	struct strbuf checked_names;
};

/* checklinks.c: -l. note: e was stored; report: after the archive. */
void checklinks_note(struct create *cr, const struct sweep_entry *e);
void checklinks_report(struct create *cr);
void checklinks_free(struct create *cr);

/* scope.c: the options in effect for the name an entry lies below (GNU
 * tar's --exclude and the like act on the names after them). scope_start
 * looks whether names differ (nothing is kept if not); scope_root notes
 * name i, relative to *dirfd, as the walk's root (a name given before is
 * given a *dirfd of its own, kept in cr->dirfds; 0, or -1 with errno);
 * scope_enter_dir, directory e as met (for what it holds); scope_of fills
 * sc; scope_excluded: whether path (of e, or held by directory e) is left
 * out by the --exclude patterns in effect. */
struct tar_scope {
	size_t nexclude, ntags;  /* the first of opt.exclude, opt.tags */
	bool no_recursion;
};
void scope_start(struct create *cr);
int scope_root(struct create *cr, size_t i, int *dirfd);
int scope_enter_dir(struct create *cr, const struct sweep_entry *e);
void scope_of(const struct create *cr, const struct sweep_entry *e, struct tar_scope *sc);
bool scope_excluded(const struct create *cr, const struct sweep_entry *e, const char *path);
void scope_free(struct create *cr);

/* label.c: -V: the volume label, first in the archive (0, or -1 when
 * the archive cannot go on: reported). */
int label_write(struct create *cr);

/* incremental.c: under -g, read the snapshot file (0, or -1: fatal,
 * reported); the walk's filter for files unchanged since its dump (left
 * out: the dumpdir lists them 'N'); write the 'D' member of directory e,
 * as the walk meets it (as create_write_header()); write the new snapshot
 * file at the end, unless the run failed; release. All do nothing
 * without -g. */
int incr_start(struct create *cr);
enum sweep_verdict incr_filter(struct create *cr, const struct sweep_entry *e);
int incr_put_dir(struct create *cr, const struct sweep_entry *e, const char *member);
void incr_finish(struct create *cr);
void incr_free(struct create *cr);

/* label.c: -V: the volume label, first in the archive (0, or -1 when
 * the archive cannot go on: reported). */
int label_write(struct create *cr);

/* tags.c: the walk's filter for tags (a directory left out whole, or an
 * entry of a directory whose contents are left out); a directory handed
 * out: its tag recorded, or its contents pruned (0, or -1: ENOMEM). */
enum sweep_verdict tags_filter(struct create *cr, const struct sweep_entry *e);
int tags_dir(struct create *cr, const struct sweep_entry *e);
/* The tag of directory e that leaves out its contents (or all below it),
 * or NULL. */
const struct tar_tag *tags_find(struct create *cr, const struct sweep_entry *e);

/* header.c: fill cr->entry for e, stored as member; link is the member it
 * is a hard link to, or NULL. Returns 0, or -1 when e cannot be stored
 * (reported). */
int header_fill(struct create *cr, const struct sweep_entry *e, const char *member,
                const char *link);

/* limits.c: whether member fits the format's name field (else reported,
 * unless quiet); whether cr->entry, filled for e, fits the format (else
 * reported). */
bool limits_name_ok(struct create *cr, const char *path, const char *member, bool quiet);
bool limits_entry_ok(struct create *cr, const struct sweep_entry *e);

/* links.c: remember a file with several names that failed to open, or
 * whose first name (e) was not stored. */
void links_failed(struct create *cr, const struct sweep_entry *e);
void links_unstored(struct create *cr, const struct sweep_entry *e);
/* The entry to store for e, whose member name before --transform is
 * member: e itself, or *copy when e
 * must hold the data its first name could not give (copy->fd is then the
 * caller's to close); *link is the member to store e as a hard link to, or
 * NULL. Returns NULL when e cannot be stored (reported). */
const struct sweep_entry *links_resolve(struct create *cr, const struct sweep_entry *e,
                                        const char *member, struct sweep_entry *copy,
                                        const char **link);

/* xattr.c: add e's extended attributes and ACLs to cr->entry, as the options
 * ask. Failures are reported; the entry is stored anyway. */
void xattr_fill(struct create *cr, const struct sweep_entry *e);

/* filedata.c: describe e's holes in cr->entry when -S asks and the format
 * can hold them; then, after the header, write e's contents. Returns 1 when
 * they went in whole and unchanged, 0 when not (reported), or -1 after a
 * fatal write error (reported). */
void filedata_sparse(struct create *cr, const struct sweep_entry *e);
int filedata_write(struct create *cr, const struct sweep_entry *e);
/* --atime-preserve: e's access time (a file's or, done with, a
 * directory's) put back if it moved; failures reported. */
void filedata_keep_atime(struct create *cr, const struct sweep_entry *e);

/* create.c: report a failed libarchive call on the archive; fatal when the
 * archive cannot go on. Returns -1 when fatal, else 0. */
int create_archive_error(struct create *cr, const char *name, int r);
/* Write the header ae of the file at path (-v lists it as shown, unless
 * NULL). Returns 1 when written, 0 when not (reported), -1 when the archive
 * cannot go on. */
int create_write_header(struct create *cr, struct archive_entry *ae, const char *path,
                        const char *shown);

/* held.c: whether e, whose header is in cr->entry, is a symbolic link to
 * hold until its directory is stored; hold it (0, or -1 when memory ran
 * out: reported); after the member of directory dir was stored (its header
 * still in cr->entry), store the links held for it and
 * that member again;
 * store the links held for directory dir_id, or all of them when 0 (under
 * --remove-files, those stored are removed from dir, the directory's
 * entry, unless NULL); forget them all. Storing returns 0, or -1 when the archive cannot go on. */
bool held_wanted(const struct create *cr, const struct sweep_entry *e, const char *link);
int held_keep(struct create *cr, const struct sweep_entry *e);
int held_after_dir(struct create *cr, const struct sweep_entry *dir);
int held_release(struct create *cr, uint64_t dir_id, const struct sweep_entry *dir);
void held_free(struct create *cr);

/* remove.c: under --remove-files, remove e, stored whole; remove the link
 * path, stored whole, from directory dir (its walk entry: NULL when
 * unknown, and nothing removed); each once the archive is closed, by
 * remove_deferred(), which does them when act (and no fatal error ended
 * the run) and forgets them. remove_note_dir notes directory e as met
 * (0, or -1: no memory). Failures are reported. */
void remove_entry(struct create *cr, const struct sweep_entry *e);
void remove_deferred(struct create *cr, bool act);
int remove_note_dir(struct create *cr, const struct sweep_entry *e);
void remove_held(struct create *cr, const struct sweep_entry *dir, const char *name,
                 const char *path);

#endif
