/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * extract.h: the state of one -t/-x run, shared by extract.c (the reader,
 * the disk writer, the loop over members), xnames.c (which members, under
 * which names) and xdata.c (member contents and times).
 */
#ifndef SWEEP_TAR_EXTRACT_H
#define SWEEP_TAR_EXTRACT_H

#include "keymap.h"
#include "tar.h"

struct extract {
	struct tar *t;
	struct archive *in;
	struct gunzip *gz;      /* gunzip.c's, when it inflates the input (in
	                           owns it) */
	struct archive *disk;   /* NULL for -t and -O */
	struct archive_entry *current;
	int fd;                 /* the archive's descriptor, -1 when not opened */
	int out_fd;             /* overwrite.c: the file written in place, or -1 */
	int pipe_fd;            /* without a disk writer: where data goes (-O:
	                           standard output, --to-command: its pipe) */
	struct timespec start;  /* when the run began (--to-command's TAR_ATIME) */
	char *label;            /* label.c: a posix volume label still to list */
	time_t label_mtime;     /* and the time it is listed with */
	struct strbuf head;     /* label.c: the first bytes of standard input */
	bool head_given;        /* and they went to the reader */
	struct strbuf begin;    /* label.c: the archive's first bytes, decompressed */
	char *stdin_buf;        /* label.c: standard input's later reads */
	struct strbuf name;     /* the member name after --strip-components */
	struct strbuf link;
	struct strbuf xname;    /* xnames.c: --transform's scratch */
	uint64_t written;       /* end of the member's data written whole */
	bool write_failed;      /* the member could not be written whole */
	bool skipping;          /* in a run of damaged headers */
	bool reopened;          /* read again as tar after a failed bid */
	bool renames_failed;    /* xincr.c: a dumpdir's rename failed: nothing
	                           more is purged */
	struct strbuf partial;  /* a file cut short by the archive's end */
	struct strbuf backup;   /* backup.c: where the member's name put its file */
	struct keymap links_made; /* the symbolic links -x made (xlinks.c) */
	struct strbuf dir_names;  /* xdirtimes.c: directories there before */
	struct dir_attrs *dir_attrs; /* and what their members give them */
	size_t ndirs, capdirs;
};

/* xdirtimes.c: what a directory there before its member gets at the end. */
struct dir_attrs {
	dev_t dev;               /* the directory noted: set only if it still is */
	ino_t ino;
	struct timespec mtime;
	mode_t mode;
	bool set_time, set_mode;
};

/* xnames.c: the name a member is listed or extracted as, or NULL when it is
 * left out (not selected, excluded, stripped to nothing, unsafe: reported). */
const char *xnames_member(struct extract *x, struct archive_entry *e);
/* Edit a link's target by --transform's h or s expressions, as GNU tar
 * lists and extracts it. Returns false when memory ran out (fatal,
 * reported). */
bool xnames_targets(struct extract *x, struct archive_entry *e);
/* Make a hard link's target safe and stripped like member names, for -t
 * as for -x (GNU tar lists it so). Returns false when the member is not to
 * be extracted (reported under -x). */
bool xnames_hardlink(struct extract *x, struct archive_entry *e);

/* xdata.c: copy the member's data to the disk writer, or to standard output
 * when there is none (-O); x->written and x->write_failed say how far it
 * got. Returns 0, or -1 after a fatal read error. */
int xdata_copy(struct extract *x, const char *name, uint64_t size);
/* Give a file whose data was written whole its declared size, when the
 * archive's data ends in a hole. Returns 0 or -1 (reported). */
int xdata_extend(struct extract *x, const char *name, uint64_t size);
/* Leave the file the archive's end cut short as GNU tar does: mode 600,
 * the current time, so nothing takes it for the archive's file. */
void xdata_mark_partial(struct extract *x);
/* GNU tar's notes on a time about to be set: before 1970, in the future. */
void xdata_check_time(struct tar *t, struct archive_entry *e, const char *name);

/* xcommand.c: --to-command: start the command for regular file member e,
 * extracted as name, with GNU's TAR_* variables, its standard input
 * x->pipe_fd (0, or -1: not started, reported); wait for it, and report
 * how it ended. */
int xcommand_start(struct extract *x, struct archive_entry *e, const char *name);
void xcommand_end(struct extract *x);

/* xcheck.c: an owner or group out of uid_t's range is reported and
 * replaced by the extracting user's, its set-id bit dropped. */
void xcheck_ids(struct extract *x, struct archive_entry *e);

/* xlinks.c: which symbolic links -x may go through: those from before the
 * run, not those the archive made. xlinks_made() remembers a member just
 * extracted when it is a link (0, or -1: fatal, reported);
 * xlinks_may_extract() says whether a name's directories are free of the
 * run's links (reported when not); xlinks_before_dir() makes a directory
 * member's place ready where a link is, as GNU tar does, and says whether
 * --keep-directory-symlink leaves the member alone. */
int xlinks_made(struct extract *x, struct archive_entry *e, const char *name);
bool xlinks_may_extract(struct extract *x, const char *name);
bool xlinks_before_dir(struct extract *x, const char *name);

/* xacl.c: under --acls, give member e, just written as name, the ACLs the
 * archive says where libarchive would not: a directory's default ACL on a
 * directory that was there, none where the archive has none (not those
 * inherited from the directory's default ACL). */
void xacl_match(struct extract *x, struct archive_entry *e, const char *name);

/* overwrite.c: under --overwrite, write a regular file's member into the
 * regular file at name, as GNU tar does, its data, owner, mode and time;
 * returns 0 when it is not for here (the disk writer extracts it), 1 when
 * done (failures reported), -1 when the archive cannot go on. Under
 * --no-overwrite-dir, give a directory's member the mode and owner of the
 * directory at name, if one is there. */
int overwrite_file(struct extract *x, struct archive_entry *e, const char *name, uint64_t size);
void overwrite_dir_keep(struct extract *x, struct archive_entry *e, const char *name);
/* The mode member e's file gets: exact under -p, else within the run's
 * umask and without set-id bits, as libarchive's disk writer makes it. */
mode_t member_mode(const struct tar *t, struct archive_entry *e);

/* xincr.c: under -G, act on the dumpdir of directory member e before it
 * is extracted as name: renames, then what the directory holds that the
 * dump did not, removed. Returns 0 when e has none, 1 when done (its data
 * read: e's size is then 0), -1 when the archive cannot go on. */
int xincr_dir(struct extract *x, struct archive_entry *e, const char *name);

/* xdirtimes.c: note the time of directory member e, about to be extracted
 * as name, when a directory is there already (0, or -1: fatal, reported);
 * set those times once all is extracted (failures reported), and forget
 * them. */
int xdirtimes_note(struct extract *x, struct archive_entry *e, const char *name);
void xdirtimes_apply(struct extract *x);

/* xunlink.c: remove name, a directory with all it holds (0, or -1 with
 * errno set). */
int xunlink_tree(const char *name);

/* label.c: the archive's volume label listed (-t, -v) and checked
 * against -V's pattern (0, or -1: fatal, reported). */
int label_check(struct extract *x);
/* Before a member is listed: the posix label, when its turn came. */
void label_list_global(struct extract *x);
/* Whether label_check() will look for the label. */
bool label_wanted(const struct tar *t);
/* Open x->in on standard input, its first bytes kept for label_check():
 * a pipe cannot be read twice. Returns libarchive's status. */
int label_open_stdin(struct extract *x);

/* diff.c: -d: compare member e, named name, with the file (0, or -1 when
 * the archive cannot go on). */
int diff_member(struct extract *x, struct archive_entry *e, const char *name);

/* extract.c: a failed read of the archive (fatal, reported); whether it
 * failed because the archive ended. */
void extract_read_failed(struct extract *x);
bool extract_truncated(struct extract *x);

/* gunzip.c: whether the archive at fd (a file, not a pipe) is gzip and
 * read here: not under another -I, -j, -J...; open reader a on it (block:
 * the read size), as archive_read_open_fd() does. */
bool gunzip_wanted(const struct tar *t, int fd);
/* The same for input whose first len bytes, head, were read already. */
bool gunzip_head(const struct tar *t, const void *head, size_t len);
struct gunzip;
/* head: those bytes (len of them, or none), read before the rest of fd. */
int gunzip_open(struct archive *a, int fd, size_t block, const void *head, size_t len,
                struct gunzip **g);
/* Once the archive's end was read: the rest of the gzip stream read too,
 * as GNU tar's gzip reads it, for its checks. NULL, or what is wrong in
 * gzip's words ("invalid compressed data--crc error", "unexpected end of
 * file", "decompression OK, trailing garbage ignored"). */
const char *gunzip_end(struct gunzip *g);

#endif
