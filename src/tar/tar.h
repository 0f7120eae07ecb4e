/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tar.h: sweep-tar's options and the state its parts share.
 *
 *   main.c      runs one mode and turns what happened into GNU's exit status
 *   state.c     struct tar's defaults and release
 *   options.c   the command line (GNU tar's long and short options)
 *   oldargs.c   old-style bundled options ("czf out.tgz dir") made ordinary
 *   mtime.c     --mtime's dates
 *   names.c     operands in order: names, -C directories, -T lists
 *   ddindex.c   a dumpdir's entries by name (-g, -G)
 *   msg.c       messages in GNU tar's words, names escaped as GNU tar does
 *   safename.c  leading "/" and ".." stripped from member names, once-only notes
 *   output.c    the archive's byte stream: gathering writes, padding, errors
 *   writer.c    the libarchive writer: format, compression, block size
 *   create.c    -c: the libsweep walk, one archive entry per entry handed out
 *   header.c    an archive_entry from a walk entry (owners, links, devices)
 *   limits.c    what ustar and v7 cannot hold, refused in GNU tar's words
 *   links.c     hard links libsweep cannot pair (-h, a first name that failed)
 *   xattr.c     --xattrs and --acls: extended attributes and POSIX ACLs
 *   remove.c    --remove-files: what was archived whole, removed
 *   filedata.c  file contents: read into the output, shrink, growth, holes
 *   listing.c   -v and -vv lines in GNU tar's format
 *   extract.c   -t and -x through libarchive's reader and secure disk writer
 *   xnames.c    which members -t/-x take, under which names
 *   xdata.c     member contents to disk or standard output; time notes
 *   members.c   which members -t/-x select (names and patterns)
 *   totals.c    --totals[=SIGNAL]: the bytes moved and the rate
 *   checkpoint.c --checkpoint and its actions, every N records
 *   modechg.c   --mode: chmod's changes applied to members' modes
 *   xform.c     --transform: sed-like edits of member and link names
 *   overwrite.c --overwrite and --no-overwrite-dir: files there already
 *   backup.c    --backup: a file there renamed aside (the archive, a member's)
 *   xunlink.c   --recursive-unlink: directories in the way, removed whole
 *   incremental.c -g: which files, each directory's dumpdir
 *   snapshot.c  -g: the snapshot file, GNU tar's format 2
 *   dumpdir.c   -g: GNU's 'D' members, written as raw blocks
 *   xincr.c     -G: what dumpdirs say is gone, removed on extract
 *   xdirtimes.c -x: times of directories that were there, set at the end
 */
#ifndef SWEEP_TAR_H
#define SWEEP_TAR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include "backupname.h"
#include "diag.h"
#include "exclude.h"
#include "idcache.h"
#include "progress.h"
#include "strbuf.h"
#include "sweep.h"

struct archive;
struct archive_entry;

/* GNU tar's exit statuses. */
#define TAR_OK      0
#define TAR_DIFFERS 1 /* a file changed while it was read */
#define TAR_FAILURE 2 /* something could not be done */
#define TAR_USAGE   64 /* an option getopt could not parse (EX_USAGE) */

/* Messages --warning can silence (GNU tar's keywords). */
#define WARN_TIMESTAMP      0x01u /* timestamp */
#define WARN_FILE_CHANGED   0x02u /* file-changed */
#define WARN_FILE_SHRANK    0x04u /* file-shrank */
#define WARN_FILE_REMOVED   0x08u /* file-removed */
#define WARN_FILE_IGNORED   0x10u /* file-ignored: sockets */
#define WARN_UNKNOWN_KEYWORD 0x20u /* unknown-keyword: never said by sweep-tar */
#define WARN_BAD_DUMPDIR    0x40u /* bad-dumpdir: an 'X' never used (xincr.c) */

/* -c, -t, -x; -r, -u, -A, --delete (update.c, delete.c); -d (diff.c) */
enum tar_mode { MODE_NONE, MODE_CREATE, MODE_LIST, MODE_EXTRACT, MODE_APPEND, MODE_UPDATE,
                MODE_CATENATE, MODE_DELETE, MODE_DIFF };
/* --atime-preserve */
enum atime_preserve { ATIME_KEEP_NONE, ATIME_REPLACE, ATIME_SYSTEM };
enum tar_format { FMT_DEFAULT, FMT_GNU, FMT_PAX, FMT_USTAR, FMT_V7 };
/* --quoting-style (qstyle.c); escape is GNU tar's default */
enum tar_quoting { QS_ESCAPE, QS_LITERAL, QS_SHELL, QS_SHELL_ALWAYS, QS_SHELL_ESCAPE,
                   QS_SHELL_ESCAPE_ALWAYS, QS_C, QS_C_MAYBE, QS_LOCALE, QS_CLOCALE };
struct tar_opts;

/* What a tag file in a directory leaves out (tags.c). */
enum tag_scope { TAG_CONTENTS, TAG_UNDER, TAG_ALL };
struct tar_tag {
	const char *name;
	enum tag_scope scope;
	bool cachedir;            /* only with the cache directory signature */
};
/* Add a tag. Returns 0 or -1 (ENOMEM). */
int tags_add(struct tar_opts *o, const char *name, enum tag_scope scope, bool cachedir);

enum tar_filter { FLT_NONE, FLT_GZIP, FLT_BZIP2, FLT_XZ, FLT_ZSTD, FLT_LZMA,
                  FLT_LZIP, FLT_LZOP, FLT_COMPRESS, FLT_PROGRAM };

/* One operand, in command-line order. */
struct tar_name {
	char *name;
	bool chdir;    /* a -C directory, not a name */
	uintmax_t found; /* -t/-x: the members that matched it (GNU's count) */
	bool unanchored; /* after --no-anchored: it may match from any '/' on */
	bool casefold;   /* after --ignore-case: letters match either case */
	bool wildcards;  /* after --wildcards: a shell pattern */
	bool no_slash;   /* after --no-wildcards-match-slash: its '*' stops at '/' */
	/* creating, what the options before it said (GNU tar's are positional
	 * there: "a --exclude=x b" leaves out x below b only) */
	size_t nexclude; /* the first nexclude patterns of opt.exclude */
	size_t ntags;    /* the first ntags of opt.tags */
	bool no_recursion;
};

/* How a name matches members (members_match): from any '/' on, either
 * case, as a pattern, whose wildcards do not match '/'; each as the options
 * before the name said (GNU tar's are positional). */
#define MATCH_UNANCHORED 1u
#define MATCH_CASEFOLD   2u
#define MATCH_WILDCARDS  4u
#define MATCH_NO_SLASH   8u
static inline unsigned name_match_how(const struct tar_name *n)
{
	return (n->unanchored ? MATCH_UNANCHORED : 0) | (n->casefold ? MATCH_CASEFOLD : 0) |
	       (n->wildcards ? MATCH_WILDCARDS : 0) | (n->no_slash ? MATCH_NO_SLASH : 0);
}

struct tar_names {
	struct tar_name *v;
	size_t n, cap;
};

/* --transform's scopes (xform.c): what a name is. */
#define XFORM_NAME     0x1u /* r: a member's name */
#define XFORM_HARDLINK 0x2u /* h: a hard link's target */
#define XFORM_SYMLINK  0x4u /* s: a symbolic link's target */
#define XFORM_ALL      0x7u
struct xform_rule;
struct tar_xforms {
	struct xform_rule *v;     /* the expressions, in order */
	size_t n, cap;
	unsigned scopes;          /* flags=: those of the expressions to come */
	bool show;                /* --show-transformed-names */
	struct strbuf scratch[2]; /* xform_apply()'s steps */
};

struct tar_opts {
	enum tar_mode mode;
	const char *archive;      /* -f; "-" is standard input or output */
	const char *compress_program; /* -I: FLT_PROGRAM's command, with its words */
	enum tar_format format;
	enum tar_filter filter;
	bool auto_compress;       /* -a: filter from the archive's suffix */
	int verbose;              /* -v count */
	int totals_signal;        /* --totals=SIGNAL: the signal, or 0 */
	bool totals, null, verbatim_files_from, numeric_owner, dereference, sparse, xattrs, acls;
	bool one_fs, absolute, keep_old, to_stdout, progress, wildcards;
	uintmax_t occurrence;     /* --occurrence=N: the Nth member of each name (0: all) */
	bool check_links;         /* -l: say files not stored under all names */
	bool force_local;         /* an archive named HOST:FILE is a local file */
	bool keep_directory_symlink; /* -x: a link to a directory stays one */
	bool skip_old, keep_newer;  /* --skip-old-files, --keep-newer-files */
	bool unlink_first;         /* -U */
	bool overwrite;            /* --overwrite: regular files written in place */
	bool no_overwrite_dir;     /* --no-overwrite-dir: directories' modes kept */
	bool recursive_unlink;     /* --recursive-unlink: -U, directories whole */
	const char *listed_incremental; /* -g FILE: the snapshot file */
	bool incremental;          /* -G, or -g on extract: dumpdirs acted on */
	int level;                 /* --level; -1: not given */
	const char *old_files;     /* which of -k and those was given */
	bool no_unquote;           /* --no-unquote: names taken as they are */
	bool backup_wanted;        /* --backup or --suffix given */
	const char *backup_control; /* --backup's CONTROL, or NULL */
	enum backup_type backup;   /* and what it means (backup.c) */
	const char *backup_suffix; /* --suffix, or SIMPLE_BACKUP_SUFFIX's */
	bool touch;               /* -m: do not restore modification times */
	bool no_recursion;        /* directories without their contents */
	bool set_mtime, clamp_mtime; /* --mtime, --clamp-mtime */
	bool ignore_failed_read;
	bool remove_files;        /* --remove-files (remove.c) */
	const char *mode_changes;  /* --mode (modechg.c), checked */
	mode_t umask;             /* the run's umask (tar_init reads it) */
	struct timespec mtime;
	bool set_newer, newer_mtime_only; /* -N, --newer-mtime */
	struct timespec newer;
	const char *newer_given;  /* -N's DATE as given, when not a file */
	bool full_time;
	bool utc;                 /* --utc: listed times in UTC */
	bool no_check_device;     /* --no-check-device (incremental.c) */
	int same_perms;           /* -p; -1: as root */
	int same_owner;           /* --same-owner; -1: as root */
	int strip;                /* --strip-components */
	intmax_t owner_id, group_id; /* --owner/--group; -1: the file's */
	char *owner_name, *group_name;
	size_t record_size;       /* -b times 512 */
	size_t mem_bytes;         /* --memory-bound: libsweep's max_bytes */
	size_t mem_entries;       /* --memory-entries: libsweep's max_entries */
	unsigned quiet;           /* --warning=no-...: WARN_* not to print */
	enum sweep_order order;
	struct exclude exclude;
	struct tar_tag *tags;     /* --exclude-caches*, --exclude-tag* (tags.c) */
	size_t ntags;
	struct tar_names names;
	struct tar_xforms xform;  /* --transform */
	bool wildcards_set;       /* --wildcards or --no-wildcards was given */
	bool verify;              /* -W: the archive compared after it is written */
	bool ignore_zeros;        /* -i: zero blocks do not end the archive */
	const char *label;        /* -V: the volume label (create) or its pattern */
	const char *to_command;   /* --to-command: members' data piped to it */
	bool ignore_command_error; /* --ignore-command-error */
	const char *index_file;   /* --index-file: where -v goes */
	enum tar_quoting quoting; /* --quoting-style */
	const char *quote_chars;  /* --quote-chars: escaped too... */
	const char *no_quote_chars; /* ... but these (--no-quote-chars) */
	const char *one_top_level; /* --one-top-level[=DIR]: DIR, or "" for the archive's name */
	char *top_level_dir;      /* the DIR deduced from the archive's name */
	bool hard_dereference;    /* --hard-dereference: no hard link members */
	enum atime_preserve atime_preserve;
	bool selinux;             /* --selinux (SELinux off here: nothing to store) */
	struct pax_opts *pax;     /* --pax-option (paxopt.c), or NULL */
	struct exclude xattr_include, xattr_exclude; /* --xattrs-include/-exclude */
};

/* --checkpoint (checkpoint.c) */
struct ckpt_action;
struct tar_checkpoint {
	uint64_t every;           /* records between checkpoints; 0: none */
	uint64_t done;            /* records counted so far */
	struct ckpt_action *v;    /* --checkpoint-action, in order */
	size_t n;
};

struct tar {
	struct tar_opts opt;
	struct tar_checkpoint ckpt;
	struct diag *diag;
	struct idcache ids;
	struct strbuf q[3];       /* msg.c's quoting slots */
	struct strbuf prefixes;   /* safename.c: prefixes already reported */
	struct strbuf way_ok;     /* extract.c: a directory whose way down was
	                             all directories, lately */
	FILE *listing;            /* where -v goes */
	int ugswidth;             /* listing.c: width of owner/group/size, grows */
	bool fatal;               /* a fatal error ended the run */
	uint64_t files;           /* for --progress */
	struct progress *progress;
	struct timespec totals_start; /* totals.c: when the run began */
	bool verifying;           /* -W: the archive read again after it was written */
	int append_fd;            /* -r, -u: create writes here (at append_at), or -1 */
	int64_t append_at;
};

/* checkpoint.c: --checkpoint[=N] (n NULL: 10) and one --checkpoint-action
 * (1, or 0 after a fatal error: reported); count the records in the first
 * bytes of the tar stream written or read (end: the last partial one too)
 * and run the actions at each checkpoint they pass; the actions' release. */
int checkpoint_set(struct tar *t, const char *n);
int checkpoint_action(struct tar *t, const char *action);
void checkpoint_bytes(struct tar *t, uint64_t bytes, bool writing, bool end);
void checkpoint_free(struct tar *t);

/* modechg.c: check --mode's CHANGES and keep them (1, or 0 after a fatal
 * error: reported); mode with them applied (unchanged without --mode). */
int modechg_set(struct tar *t, const char *changes);
mode_t modechg_apply(const struct tar_opts *o, mode_t mode);

/* xform.c: add the expressions of one --transform (1, or 0 after an
 * error: reported); name through those whose scopes include scope (an
 * XFORM_* bit), into out: out's string, or NULL when memory ran out; the
 * expressions' release. */
int xform_add(struct tar *t, const char *arg);
const char *xform_apply(struct tar *t, unsigned scope, const char *name, struct strbuf *out);
/* A member's name as stored (raw), through the name expressions as GNU
 * tar edits it when it reads the archive: without its trailing '/', given
 * back after. out's string, or NULL when memory ran out. */
const char *xform_member(struct tar *t, const char *raw, struct strbuf *out);
void xform_free(struct tar_xforms *xf);

/* state.c: a struct tar reporting through d, and its release. */
void tar_init(struct tar *t, struct diag *d);
void tar_free(struct tar *t);

/* options.c: fill opt from argv (old-style arguments already expanded).
 * Returns -1 to go on, or the exit status to leave with. */
int tar_parse_options(struct tar *t, int argc, char **argv);
void tar_free_options(struct tar_opts *opt);

/* mtime.c: --mtime=DATE into opt.mtime. Returns false after an error
 * (reported). */
bool mtime_parse(struct tar *t, const char *arg);
/* -N (mtime_only false: the status time counts too) and --newer-mtime:
 * parse DATE (a file's time if it names one). Returns false when it ends
 * the run (a file that cannot be stat-ed: reported). */
bool newer_parse(struct tar *t, const char *arg, bool mtime_only);
/* Under -v, GNU's note of how the date was read. */
void newer_note(struct tar *t);
/* Whether st is left out as not newer than the date (never a directory). */
bool newer_skips(const struct tar_opts *o, const struct stat *st);

/* oldargs.c: argv with an old-style first argument expanded into ordinary
 * options, in a new array (the strings are argv's); argv itself when there
 * is nothing to expand; NULL when memory ran out. */
char **oldargs_expand(int argc, char **argv, int *newargc);

/* names.c */
int names_add(struct tar_names *ns, const char *name, bool chdir);
/* Add the names listed in file ("-": standard input), separated by newlines
 * or, with --null, NULs; unless --null or --verbatim-files-from, a line
 * that starts with '-' is an option, as in GNU tar: its words (split as a
 * shell would) go to the option hook, which returns 1, or 0 after an error
 * it reported, or -1 for what it does not take there (then reported: GNU
 * tar takes the options that choose and match names, -C, -T and -X, and no
 * others). After each line, the hook added. Returns 0 or -1 with errno
 * set. */
struct names_hooks {
	int (*option)(void *arg, char **words, size_t n);
	void (*added)(void *arg);
	void *arg;
};
int names_add_file(struct tar *t, const char *file, const struct names_hooks *h);
/* A name given (on the command line, or in a -T list, verbatim: one of
 * --null), its escapes (\\, \n, \t, \NNN and C's others) turned into
 * what they stand for unless verbatim or after --no-unquote, as GNU tar's
 * --unquote does. Returns 0 or -1 (ENOMEM). */
int names_add_name(struct tar *t, const char *name, bool verbatim);
/* Whether any operand is a name (not a -C). */
bool names_any(const struct tar_names *ns);
/* Whether two of the names (-C aside) become the same member, or one is
 * below the other (their --transform applied): a member of a later name
 * must then come later, as the one an extraction keeps. */
bool names_overlap(struct tar *t);
void names_free(struct tar_names *ns);

/* ddindex.c: a dumpdir's entries ('Y', 'N', 'D' and a name each, to an
 * empty one; others left out) sorted by name, pointing into entries:
 * dd_index_make() returns 0 or -1 (ENOMEM), dd_index_flag() the flag of
 * name, or 0 when it is not listed. */
struct dd_index {
	const char **v;
	size_t n;
};
int dd_index_make(struct dd_index *ix, const char *entries);
char dd_index_flag(const struct dd_index *ix, const char *name);
void dd_index_free(struct dd_index *ix);

/* names.c: name without its trailing slashes (one "/" stays), a copy, or
 * NULL when memory ran out: a directory member's "d/" as GNU tar names
 * it in messages and looks at what is on the disk. */
char *names_without_slash(const char *name);
/* ... the length of that name, not copied */
size_t names_bare_len(const char *name);

/* backup.c: --backup's CONTROL (or VERSION_CONTROL) and suffix, once the
 * options are read: false when CONTROL names no kind (reported). */
bool tar_backup_resolve(struct tar *t);
/* Rename name aside, as --backup asks, unless nothing is there to keep (no
 * file, a directory, the archive's standard output or device); made gets
 * the backup's name, "" when none was made. Returns false when the file
 * could not be put aside (reported). */
bool tar_backup(struct tar *t, const char *name, bool archive, struct strbuf *made);
/* Give name back the file put aside as made, if any. */
void tar_backup_undo(struct tar *t, const char *name, struct strbuf *made);

/* qstyle.c: --quoting-style's name (false: said, fatal); s shown in o's
 * style into sb, the characters in also escaped too. */
bool qstyle_parse(struct tar *t, const char *arg);
int qstyle_append(const struct tar_opts *o, struct strbuf *sb, const char *s, const char *also);

/* msg.c: every message names its file escaped as GNU tar does; the status
 * is raised as GNU tar raises it. */
const char *tq(struct tar *t, int slot, const char *name);   /* for messages */
const char *tqlist(struct tar *t, int slot, const char *name); /* for listings */
const char *tquote(struct tar *t, int slot, const char *s); /* always quoted: 'x' */
void tar_error(struct tar *t, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tar_warn(struct tar *t, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tar_differs(struct tar *t, unsigned warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note --warning=no-KEYWORD can silence (warning is a WARN_* bit). */
void tar_note(struct tar *t, unsigned warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tar_fatal(struct tar *t, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "NAME: Cannot OP: strerror" with status 2. */
void tar_cannot(struct tar *t, const char *name, const char *op, int errnum);
/* "NAME: Cannot change mode to rwxr-xr-x", GNU tar's. */
void tar_cannot_chmod(struct tar *t, const char *name, mode_t mode, int errnum);
/* The same for a file being archived; with --ignore-failed-read, "NAME:
 * Warning: Cannot OP: strerror" and the status left alone. */
void tar_cannot_read(struct tar *t, const char *name, const char *op, int errnum);
/* "NAME: File removed before we read it": a change (--warning=file-removed). */
void tar_removed(struct tar *t, const char *name);

/* safename.c: the member name GNU tar would store or extract for name:
 * unless -P, without its leading "/" and everything up to its last ".."
 * component, each distinct prefix reported once. link says whether name is
 * a hard link's target. Sets *dotdot when a ".." was removed. */
const char *safename(struct tar *t, const char *name, bool link, bool *dotdot);

/* create.c: -c (and -r, -u: at t->append_fd). Returns the exit status. */
int tar_create(struct tar *t);

/* extract.c: -t, -x and -d. Returns the exit status. */
int tar_extract(struct tar *t);

/* diff.c: -W: the archive just written compared with the files, as -d.
 * Returns the exit status. */
int tar_verify(struct tar *t);

/* members.c: whether the member named name is selected by the operands
 * (all are when there are none); marks the operands that matched. */
bool members_select(struct tar *t, const char *name);
/* Whether the one name selects member, as members_select() matches them
 * (-u goes through its names so). */
bool members_match(const struct tar *t, const char *name, unsigned how, const char *member);
/* Report the operands no member matched. */
void members_report_missing(struct tar *t);

/* xattr.c: whether the attribute name is stored (archiving) or extracted
 * and listed, as GNU tar's --xattrs-include and --xattrs-exclude say (by
 * default all are stored, user.* extracted). */
bool xattr_wanted(const struct tar_opts *o, const char *name, bool archiving);

/* listing.c: one -v/-vv line for e on t->listing; the line of a volume
 * label (-V), as GNU tar lists it. */
void listing_print(struct tar *t, struct archive_entry *e, const char *name);
void listing_label(struct tar *t, const char *label, time_t mtime);

/* totals.c (--progress: src/common/progress.h) */
/* "LABEL: 10240 (10KiB, 3.2MiB/s)" on standard error, as GNU's --totals. */
void totals_print(const char *label, uint64_t bytes, const struct timespec *start);
/* --totals=SIGNAL: SIGNAL's name (HUP, QUIT, INT, USR1, USR2, with or
 * without SIG) into opt.totals_signal (1, or 0: fatal, reported); the
 * run's start, and the signal's handler; the line, when the signal came
 * since the last call, bytes of the archive moved so far. */
int totals_signal(struct tar *t, const char *name);
void totals_arm(struct tar *t);
void totals_poll(struct tar *t, uint64_t bytes, bool writing);

#endif
