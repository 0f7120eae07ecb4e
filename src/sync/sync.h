/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sync.h: sweep-sync, a local rsync (no remote shell, no daemon, no delta
 * transfer) whose source is read in disk order through libsweep, on the
 * copy engine of src/copy.
 *
 * Module map: main.c (the program, rsync's exit codes), options.c (rsync's
 * options), operands.c (SRC... DEST and rsync's trailing-slash rule),
 * decide.c (the quick check: what each entry needs, as the engine's decide
 * hook), filter.c (--exclude/--include patterns), delete.c (--delete),
 * deletepass.c (--delete-before/after), prune.c (-m), listfile.c (the files of
 * --exclude-from, --include-from, --files-from), files_from.c
 * (--files-from), limits.c (--bwlimit, --timeout), linkdest.c
 * (--link-dest), backups.c (-b, --backup-dir, --suffix), report.c (-v,
 * -i, --stats and rsync's messages), signals.c (the end by a signal),
 * prewalk.c (the destination walked beside the copy). Over a remote
 * shell: remote.c (HOST:PATH operands, the remote shell and the server it
 * starts), server.c (sweep-sync --server, the far end), send.c (the
 * sending side), recv.c (the receiving side), manifest.c (the receiver's
 * tree as the sender compares against it), wire.c (the protocol, see
 * wire.h), xattrs.c and checksum.c (-X, -A and -c on the wire).
 */
#ifndef SWEEP_SYNC_H
#define SWEEP_SYNC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "copy.h"
#include "diag.h"
#include "keymap.h"
#include "progress.h"
#include "strbuf.h"

/* rsync's exit statuses for a DEST that cannot be used, and for an error
 * in file I/O (DEST or a list file not made or read) */
#define SYNC_FILESELECT 3
#define SYNC_FILEIO 11
#define SYNC_PROTOCOL 12

enum { RULE_BOTH, RULE_SENDER, RULE_RECEIVER }; /* who a filter rule speaks for */

/* rsync's --info flags (info.c), in its order */
enum sync_info {
	INFO_BACKUP, INFO_COPY, INFO_DEL, INFO_FLIST, INFO_MISC, INFO_MOUNT, INFO_NAME,
	INFO_NONREG, INFO_PROGRESS, INFO_REMOVE, INFO_SKIP, INFO_STATS, INFO_SYMSAFE, INFO_N
};

struct sync_rule {
	char *pattern;
	bool include;   /* --include: a match is kept */
	unsigned char side; /* RULE_*: hide and show the sender's, protect and
	                       risk the receiver's (filterrule.c) */
	bool negate;    /* '!': matches what the pattern does not */
	bool perishable; /* 'p': no protection in a directory --delete removes */
	bool dir_only;  /* a trailing '/': directories only */
	bool anchored;  /* a leading '/': from the transfer's root */
	bool full;      /* a '/' or "**" inside: matched against the path */
	bool wild;      /* a '*', '?' or '[' inside: else matched byte for byte,
	                   a backslash one too (rsync's rule) */
	char *self;     /* a pattern ending in a slash and three stars: the
	                   directory itself, matched as well */
};

/* What --stats counts files by, as rsync names them. */
enum sync_kind { K_REG, K_DIR, K_LINK, K_DEV, K_SPECIAL, K_NKINDS };

struct sync_counts {
	uint64_t files[K_NKINDS], created[K_NKINDS], deleted[K_NKINDS];
	uint64_t transferred, total_size, transferred_size;
	uint64_t not_sent;      /* --append: the bytes copies had (not literal) */
};

struct sync {
	struct diag *diag;
	struct copy_opts copy;
	struct sync_rule *rules;
	size_t nrules;
	struct sync_chmod *chmod; /* --chmod's items (chmod.c) */
	size_t nchmod;
	const char **chmod_args;  /* ... as given, for the far end */
	struct id_map *usermap, *groupmap; /* --usermap, --groupmap (chown.c) */
	size_t nchmod_args;
	mode_t chmod_umask;
	bool chmod_umask_known;
	bool recursive, links, perms, times, group, owner, devices, specials;
	bool hard_links, acls, xattrs, one_fs;
	bool omit_dir_times;      /* -O */
	const char *log_path;     /* --log-file=FILE */
	FILE *log;                /* ... open, the near end's only */
	bool names_utf8;          /* the locale's characters are UTF-8 */
	bool eight_bit;           /* -8: bytes from 0x80 shown as they are */
	bool mkpath;              /* --mkpath: DEST's missing directories made */
	bool remove_source;       /* --remove-source-files (removesrc.c) */
	bool remove_sent_only;    /* --remove-sent-files: not those up to date */
	int append;               /* --append (1), --append-verify (2): a
	                             shorter copy gets the rest, in place */
	bool whole_file;          /* -W (refused with --append, as rsync) */
	bool ignore_missing;      /* --ignore-missing-args: a SRC or listed name
	                             that is not there is no error */
	bool delete_missing;      /* --delete-missing-args: ... its copy goes */
	bool arg_missing;         /* placing such a SRC's deletion now */
	const char *out_format;   /* --out-format (outformat.c), or NULL */
	const char *log_format;   /* --log-file-format, or NULL: "%i %n%L" */
	const struct stat *item_st; /* the entry being decided, for its line */
	const char *item_source;  /* ... its path at the source (%f) */
	struct strbuf removals;   /* ... waiting for the run's end (removesrc.c) */
	bool removals_wait;       /* ... all of them (-L, several SRCs,
	                             --files-from) */
	bool first_wins;          /* several SRCs: a name's first is kept */
	struct keymap first_names; /* ... the names below DEST so far, to the
	                              tree (tree_no) each came in (decide.c) */
	uint64_t tree_no;         /* the SRC being synced, counted from 1 */
	struct keymap inplace_found; /* --inplace: the copies of several names
	                              the run writes into, (st_dev, st_ino) ... */
	struct stat *inplace_stats;  /* ... to their status as found (decide.c) */
	size_t ninplace_stats, capinplace_stats;
	time_t started;           /* when the run began: -v's bytes/sec */
	int human;                /* numbers: 0 plain, 1 with separators (the
	                             default), 2 -h (units of 1000), 3 -hh (1024) */
	bool no_mounts;           /* -xx: mount points left out altogether */
	bool root;                /* run by root: owners, devices, any mode */
	int verbose;
	signed char info[INFO_N]; /* what is said: --info's levels (info.c),
	                             all 0 under -q */
	bool info_user[INFO_N];   /* ... the level --info gave: -v's not taken */
	bool info_help;           /* --info=help: said, the run ends there */
	bool quiet, dry_run, delete, checksum, size_only, ignore_times, ignore_existing, existing;
	bool usage_error;         /* sync_run() refused the operands: exit 1 */
	bool update, inplace, stats, itemize, numeric_ids;
	bool itemize_all;         /* -ii: what is unchanged said too */
	enum { DEL_DURING, DEL_BEFORE, DEL_AFTER } delete_when;
	bool delete_when_given;
	bool delete_excluded;     /* excluded names are not protected */
	bool delete_delay;        /* --delete-delay (DEL_AFTER; rsync's list
	                             goes out as it is made) */
	bool max_size_on;         /* --max-size: larger regular files are left */
	uint64_t max_size;
	uint64_t min_size;        /* --min-size: smaller ones are (0: none) */
	bool safe_links;          /* --safe-links: links out of the tree left */
	bool ignore_errors;       /* --ignore-errors: deletions go on after an
	                             error reading the source */
	int compress_level;       /* --compress-level: zlib's (0: -z's 6) */
	bool force;               /* --force: a directory in the way goes with all
	                             it holds (as under --delete) */
	bool max_delete_on;       /* --max-delete: at most max_delete deletions */
	uint64_t max_delete;
	uint64_t skipped_deletes; /* ... and those not made for it: exit 25 */
	bool deletes_stopped;     /* the far end's were (DONE_DEL_LIMIT) */
	bool from0;               /* -0: the list files' lines end in '\0' */
	bool recursive_given;     /* -r itself, not -a (--files-from) */
	/* --files-from (files_from.c): FILE, its names NUL-separated */
	const char *files_from;
	bool files_from_wire;     /* a server's: the names come on the wire */
	struct strbuf from_names;
	bool relative;            /* -R: the SRCs are such names (relative.c) */
	bool relative_off;        /* --no-relative given: not with --files-from */
	bool name_abs;            /* ... the one being sent is absolute: shown
	                             with its '/' (report_item) */
	struct strbuf relative_base; /* ... and this their one SRC */
	int cap_depth;            /* --files-from: entries this deep and deeper
	                             are not sent (1: the tree's root alone; 2:
	                             what it holds, without theirs); 0: none */
	bool copy_links;          /* -L */
	bool progress_given;      /* --progress (-P): NAME, FLIST2, PROGRESS */
	bool meter_wanted;        /* PROGRESS: --progress, --info=progress2 */
	struct progress *meter;   /* report.c: the line, on a terminal */
	uint64_t meter_files, meter_bytes;
	unsigned timeout;         /* --timeout, seconds (0: none) */
	char **files;
	int nfiles;
	char **host_made;         /* ... those that were ":PATH" after a remote
	                             SRC, made HOST:PATH (remote_free()) */
	/* the tree being synced */
	const char *prefix;     /* its root's name in rel paths ("" for SRC/) */
	const char *current_src; /* its SRC, one of files (delete.c) */
	dev_t dest_dev;         /* DEST's file system: -x deletes on it only */
	dev_t src_dev;          /* the tree's root's (its st_dev, as sent) */
	struct stat dest_top;   /* the first SRC whose contents went into DEST
	                           itself (rsync's list keeps the first "."):
	                           DEST's mode and time at the end */
	bool dest_top_set;
	bool dest_top_made;     /* ... DEST is a directory this run made */
	bool root_created;      /* its root is a directory this run made */
	struct strbuf name;     /* scratch: an entry's rel path */
	struct strbuf name2;
	struct strbuf abspath;  /* sync_abspath()'s */
	struct sync_counts n;
	/* --link-dest and its kin (linkdest.c): the DIRs as given, open (-1:
	 * missing) */
	/* --link-dest, --compare-dest, --copy-dest (one kind a run: rsync's) */
	enum alt_dest { ALT_NONE, ALT_LINK, ALT_COMPARE, ALT_COPY } alt_dest;
	const char **link_dest;
	int *link_dest_fd;
	size_t nlink_dest;
	struct keymap link_dest_first; /* -H: a group's first, to its DIR inode */
	/* -b (backups.c): --backup-dir as given, its path from here, open */
	bool backup;
	const char *backup_dir;
	bool backup_dir_said;     /* ... named (BACKUP), once */
	struct strbuf backup_path;
	int backup_fd;
	bool partial;           /* something failed: exit 23 */
	bool io_error;          /* ... reading the source: delete nothing more */
	bool io_error_data;     /* ... only opening a file for its data: the
	                           pass after the transfer deletes nothing
	                           (--delete-after), what rsync decides as
	                           it lists (during, delay) still deletes */
	bool io_error_said;     /* ... "skipping file deletion" said */
	bool vanished;          /* a source vanished: exit 24 */
	int dest_status;        /* DEST unusable (SYNC_FILESELECT) or not made
	                           (SYNC_FILEIO): the run's status */
	bool protocol_error;    /* the far end broke off or spoke wrongly: 12 */
	int shell_status;       /* ... never reached: the remote shell's 127 (no
	                           such command) or 255 (ssh failed), as rsync's;
	                           reached: its status above 12, as rsync's; a
	                           whole transfer: its status, the run's */
	/* over a remote shell (remote.c) */
	const char *rsh;        /* -e: the remote shell and its options */
	const char *remote_prog; /* --rsync-path: sweep-sync on the other host */
	bool compress;          /* -z: file data deflated on the wire */
	int contimeout;         /* seconds to wait for the greeting, 0: 30 */
	bool server, sender;    /* --server [--sender]: the far end, and its role */
	bool sender_side;       /* deciding for the sender: say and delete nothing */
	bool stream_data;       /* receiver: the entry decided has data coming */
	bool sum_differs;       /* sender, -c: the entry's checksum is not the
	                           receiver's */
	bool remote_source;     /* receiver: the source is on the other host */
	bool wire_counted;      /* over a remote shell: the bytes below are
	                           the near end's on the wire (-v's last lines) */
	uint64_t wire_sent, wire_received;
	uint64_t wire_list;     /* ... of them the entries' frames */
	bool prune_empty;       /* -m: directories with no file below left out */
	bool prune_ready;       /* ... prune_kept is made for this SRC */
	struct keymap prune_kept; /* ... the source's directories kept, by
	                           (dev, ino) (prune.c) */
	const char **src_names; /* ... --delete: the source directory's names,
	                           sorted, or NULL when it could not be read */
	size_t nsrc_names;
};

/* operands.c: where each source tree goes by rsync's rules. A tree is
 * copied by a sync_tree_fn (copy_tree() locally, recv.c's receiver from a
 * remote sender), given the copy, the source as named, the directory its
 * root goes in, its name there and how messages show it. */
typedef int (*sync_tree_fn)(void *arg, struct copy *c, const char *src, int dfd,
                            const char *name, const char *shown);
struct sync_dest {
	const char *dest;       /* DEST as given */
	int dfd;                /* its directory, -2 until opened */
	bool made;              /* made by this run */
	bool failed;            /* could not be made or opened (reported) */
	bool path_made;         /* --mkpath's directories are there */
};
/* Run the tree of src (mode: its root's, one of nsrc sources) where it goes
 * in d. Returns whether run was called. */
bool sync_place(struct sync *s, struct copy *c, struct sync_dest *d, const char *src,
                mode_t mode, int nsrc, sync_tree_fn run, void *arg);
void sync_dest_close(struct sync_dest *d);
/* Once every tree is in (and the copy engine done): DEST, when a SRC's
 * contents went into it, gets that first SRC's time (and mode, -p) again:
 * the trees after it changed it. */
void sync_dest_top(struct sync *s, struct sync_dest *d);
/* Whether a file's data could not be written at the destination: then the
 * run ends there with rsync's 11 (dest_status), as rsync's receiver exits
 * on a failed write: no later SRC, no --delete-after, no DEST times. */
bool sync_write_ended(struct sync *s, struct copy *c);
/* DEST as a directory, opened (or made) the first time. Whether it is. */
bool sync_dest_open(struct sync *s, struct sync_dest *d);
/* path made absolute (from the working directory), as rsync's sender
 * names what it could not read; valid until the next call. */
const char *sync_abspath(struct sync *s, const char *path);
/* Whether SRC... DEST are there (else said: a usage error). */
bool sync_operands_ok(struct sync *s);
/* Whether SRC stands for its directory's contents (a trailing '/'...). */
bool sync_is_contents(const char *src);
/* rsync's message for a source that cannot be stat-ed (partial); none for
 * one that is not there under --ignore-missing-args or
 * --delete-missing-args (sync_missing_ok(): err ENOENT, src not SRC/). */
void link_stat_failed(struct sync *s, const char *src, int err);
bool sync_missing_ok(const struct sync *s, const char *src, int err);
/* rsync reads every SRC before it deletes anything: one that cannot be
 * stat-ed stops deletions from the start (io_error; said at its turn), or
 * a SRC not mounted would see its copy in DEST deleted as extraneous to
 * the SRCs before it. */
void sync_sources_check(struct sync *s, char *const *srcs, int n);
/* --delete-missing-args: the copy of src, a SRC that is not there, removed
 * where the SRC would go in d (run, arg: how, where a tree is not local;
 * NULL: here). */
void sync_place_missing(struct sync *s, struct copy *c, struct sync_dest *d, const char *src,
                        int nsrc, sync_tree_fn run, void *arg);

/* prewalk.c: walk the destination name in dfd, if it is a directory, in
 * its disk order, in a thread, for the quick check to find it cached:
 * beside the copy of a source on src_dev where that costs nothing, else
 * first; end it (NULL: none was started). */
struct prewalk;
struct prewalk *sync_prewalk_start(int dfd, const char *name, dev_t src_dev);
void sync_prewalk_end(struct prewalk *p);

/* remote.c: whether an operand is HOST:PATH (then checked: a usage error
 * for what rsync refuses), and the run through the remote shell. */
bool remote_operands(struct sync *s);
void remote_free(struct sync *s);
bool remote_is_host_path(const char *arg);
/* A pull: whether the far end's tree src is one the PATHs asked for (its
 * last component theirs, or a match of their wildcards; contents for
 * contents), as rsync checks the names it receives. */
bool remote_asked_for(const struct sync *s, const char *src);
void remote_run(struct sync *s);
struct wire;
void remote_wire_options(const struct sync *s, struct wire *w);
/* The role rsync names in its --timeout message ("[sender]", ...). */
const char *remote_timeout_role(const struct sync *s);
/* server.c: sweep-sync --server, on the far end of a remote shell. */
void server_run(struct sync *s);
/* The options the far end needs, as its command-line words, into sb
 * (each shell-quoted). Returns 0 or -1. */
int sync_server_options(const struct sync *s, struct strbuf *sb);

/* checksum.c: the sum of the file open at fd (read from its start), for
 * -c over a remote shell. Returns 0 or -1 with errno. */
#define SYNC_SUM_LEN 16
int sync_checksum(int fd, unsigned char sum[SYNC_SUM_LEN]);
/* readopen.c */
int sync_open_read(int dirfd, const char *name, int flags, const struct stat *st);

struct wire;
/* send.c: send the trees of srcs (nsrc of them) to the receiver on w.
 * recv.c: receive them into dest, nsrc at most (0: as many as the sender
 * says it has). Each returns 0, or -1 when the connection failed
 * (reported). */
int send_trees(struct sync *s, struct wire *w, char **srcs, int nsrc);
int recv_trees(struct sync *s, struct wire *w, const char *dest, unsigned nsrc);

/* removesrc.c: --remove-source-files. name in dirfd (rel as messages show
 * it; read: its status when it was read), copied whole or found at DEST
 * (not DEST's own file: sync_source_done() looked), removed as rsync's
 * sender removes it. Returns 0, or -1 when it is kept (said).
 * sync_source_done() is the engine's done hook for it. */
bool sync_not_sent(const struct sweep_entry *e, const struct stat *dst);
int sync_remove_source(struct sync *s, int dirfd, const char *name, const char *rel,
                       const struct stat *read);
void sync_source_done(void *arg, const struct sweep_entry *e, const char *rel,
                      const struct stat *dst);
/* A name kept because it is the destination's own file: said, 23. */
void sync_removal_refused(struct sync *s, const char *rel);
/* decide.c: --append-verify: the copy of e (rel below its root) did not
 * hold the source's first bytes: said as rsync says it, with the line of
 * the whole file written again (the engine's append_failed hook). */
void sync_append_failed(void *arg, const struct sweep_entry *e, const char *rel);
/* decide.c: several SRCs: whether a later SRC put a directory at the name
 * (shown) an earlier one's file was copied to. */
bool sync_name_now_dir(struct sync *s, const char *shown);
/* The names whose removal waited, removed at the end of the run. */
void sync_removals_end(struct sync *s);
/* A name whose removal waits: rel below the tree at root (root ""
 * on a receiver), shown as messages show it, read: what was read of it.
 * 0, or -1 (no memory). */
int sync_removal_keep(struct sync *s, const char *root, const char *rel, const char *shown,
                      const struct stat *read);
/* Each name kept, to fn; then none is. */
typedef void (*sync_removal_fn)(void *arg, const char *root, const char *rel,
                                const char *shown, const struct stat *read);
void sync_removals_each(struct sync *s, sync_removal_fn fn, void *arg);
/* rel below the tree at src ("" for src itself), as sync_remove_source()
 * (opened a component at a time, not through a link: any length). */
void sync_remove_below(struct sync *s, const char *src, const char *rel, const char *shown,
                       const struct stat *read);

/* outformat.c: --out-format and --log-file-format. An item shown: */
struct sync_item {
	const char *code;       /* -i's letters; NULL: a deletion */
	const char *rel;        /* its name as shown */
	bool dir;
	const char *target;     /* a link's target, or a hard link's first */
	bool hard;              /* ... the latter */
	const struct stat *st;  /* the entry as sent (NULL: not known) */
	const char *op;         /* %o: "send", "recv", "del." */
	const char *source;     /* %f: its path at the source (NULL: rel) */
	bool sent;              /* its data written (%b) */
};
/* The line of it in fmt's form into f, with its newline. */
void out_format_line(struct sync *s, FILE *f, const char *fmt, const struct sync_item *it);
/* Whether fmt has the escape %letter. */
bool out_format_has(const char *fmt, char letter);
/* fmt of option refused (said: a usage error, -1) where it asks for what
 * sweep-sync does not make (checksums), else 0. */
int out_format_check(struct sync *s, const char *fmt, const char *option);

/* options.c: parse argv. Returns -1 to go on, or the exit status. */
int sync_parse_options(struct sync *s, int argc, char **argv);

/* signals.c: SIGINT, SIGTERM and SIGHUP remove the temporary file c is
 * writing (the copy being run, or NULL) and end the run with rsync's 20. */
void sync_signals_init(const char *prog);
void sync_signals_copy(struct copy *c);
/* --timeout: the watch started (seconds 0: none); sync_alive() says the
 * run did something (the engine's alive hook too). */
void sync_signals_timeout(const char *prog, unsigned seconds, const char *role);
void sync_alive(void *arg);

/* operands.c: sync every SRC to DEST. */
void sync_run(struct sync *s);

/* files_from.c: files_from_read() reads FILE (-1: said, a usage error);
 * files_from_run() transfers its names from src into dfd (DEST, shown as
 * dest; made: by this run). */
int files_from_read(struct sync *s);
/* A name's flag: absolute (-R), shown with its '/' (files_from.c) */
#define FILES_FROM_ABS 4
/* Whether path has a ".." component (a name that may leave its tree). */
bool sync_has_dotdot(const char *path);
/* One name more, as a line of FILE (an absolute one without "/./" kept
 * as such, for -R): 0, or -1 (no memory). */
int files_from_add(struct sync *s, const char *name);
/* relative.c: -R, the nsrc SRCs in srcs made names below one SRC, in
 * srcs[nsrc - 1]. 0, or -1 (said: a usage error). */
int relative_sources(struct sync *s, char **srcs, int nsrc);
void files_from_run(struct sync *s, struct copy *c, const char *src, int dfd,
                    const char *dest, bool made);
/* The names gone over: each tree to transfer (from, the source; path,
 * below DEST, "" for DEST itself when root; cap: s->cap_depth for it, with
 * s->prefix set), an implied directory rsync
 * sends once more (counted by --stats), then each directory's source
 * time to set again at the end. */
struct ff_ops {
	int (*tree)(void *arg, const char *from, const char *path, int cap, bool root);
	void (*dir_again)(void *arg);
	void (*dir_time)(void *arg, const char *path, const struct timespec *mtime);
	/* --delete-missing-args: a listed name that is not there (path below
	 * DEST, s->prefix set) */
	void (*missing)(void *arg, const char *path);
	void *arg;
};
void files_from_each(struct sync *s, const char *src, const struct ff_ops *ops);
/* DEST (dfd; -1: not there) as the trees of --files-from go in it. */
struct ff_dest {
	struct sync *s;
	int dfd;
	const char *dest;
	bool made;
	struct strbuf shown;
	struct strbuf held;       /* -H: descriptors kept open to the end */
};
void ff_dest_init(struct ff_dest *d, struct sync *s, int dfd, const char *dest, bool made);
/* Run a tree at path below DEST (DEST itself when root) through run. */
int ff_place(struct ff_dest *d, struct copy *c, const char *from, const char *path, bool root,
             sync_tree_fn run, void *arg);
void ff_dest_end(struct ff_dest *d);
/* ff_place()'s run for a listed name that is not there: its copy removed
 * (delete_missing(), shown by s->prefix; arg: the sync). */
int ff_missing(void *arg, struct copy *c, const char *src, int dfd, const char *name,
               const char *shown);
/* files_from_wire.c: a pull's names, sent to the far end, and taken
 * there (refusing any that leaves SRC). Each returns 0 or -1 (said). */
int files_from_send(struct sync *s, struct wire *w);
int files_from_recv(struct sync *s, struct wire *w);

/* decide.c: the copy engine's decide and walk_error hooks. */
enum copy_verdict sync_decide(void *arg, const struct sweep_entry *e, const char *rel, int pfd,
                              const char *name, const struct stat *dst);
void sync_walk_error(void *arg, const struct sweep_entry *e);

/* chmod.c: --chmod. Add the items of arg: 0, or -1 (reported). */
int chmod_add(struct sync *s, const char *arg);
void chmod_free(struct sync *s);
/* chown.c: --chown=USER:GROUP (-o, -g for the parts given), --usermap and
 * --groupmap (group) taken: 0, or -1 (said). chown_apply() gives st, a
 * local source's, its ids where the entry lands; id_map_find() a sender's
 * id and name (or "") the map's id for it, when a pair matches. */
int chown_option(struct sync *s, const char *arg);
int usermap_option(struct sync *s, const char *arg, bool group);
void chown_apply(struct sync *s, struct stat *st);
bool id_map_find(struct sync *s, bool group, unsigned id, const char *name, unsigned *to);
/* A map as given (NULL: none), for the far end. */
const char *id_map_arg(const struct sync *s, bool group);
void chown_free(struct sync *s);
/* the copy engine's source_view: chmod_view() */
const struct sweep_entry *sync_source_view(void *arg, const struct sweep_entry *e,
                                           struct sweep_entry *view);
/* mode changed as the items say */
mode_t chmod_apply(const struct sync *s, mode_t mode);
/* e as the sender reads it: a copy of it in view with its mode changed,
 * when there are items (e itself when none apply). */
const struct sweep_entry *chmod_view(const struct sync *s, const struct sweep_entry *e,
                                     struct sweep_entry *view);
/* rsync's "file has vanished" for path, exit 24 unless worse. */
void sync_vanished(struct sync *s, const char *path, bool dir);
/* -A/-X, a local run: 'a' and 'x' into code where the copy at pfd/name
 * differs from e in its ACLs or other attributes; whether any did */
bool sync_in_group(gid_t gid);
/* rsync's comparison of modification times under --modify-window (whole
 * seconds by default): -1, 0, 1 as a is older, the same, newer than b */
int sync_cmp_mtime(const struct sync *s, const struct timespec *a, const struct timespec *b);
bool sync_xattr_letters(const struct sync *s, const struct sweep_entry *e, int pfd,
                        const char *name, char *code);
bool sync_linked(void *arg, const struct sweep_entry *e, const char *rel, int pfd,
                 const char *name, const struct stat *dst, bool same, const char *first,
                 const char *elsewhere);
/* The entry's path as rsync shows it (rel below the source root) in
 * s->name: "." for the root of SRC/. */
const char *sync_relname(struct sync *s, const char *rel);
enum sync_kind sync_kind(mode_t mode);
/* A symbolic link's target, into sb; false when it cannot be read. */
bool sync_read_link(struct strbuf *sb, int dirfd, const char *name, off_t size);
/* rsync's attribute letters (positions 4-7: time, perms, owner, group) of
 * what differs between dst and the source st, into code; whether any. */
bool sync_attr_letters(const struct sync *s, const struct stat *st, const struct stat *dst,
                       char *code);
/* -c: whether e and name in pfd differ in their bytes. */
bool sync_bytes_differ(struct sync *s, const struct sweep_entry *e, int pfd, const char *name);

/* filter.c; filter_add_file() returns -2 when it cannot read the file
 * (said: rsync's error in file I/O, 11) */
int filter_add(struct sync *s, const char *pattern, bool include);
int filter_push(struct sync *s, const char *pattern, bool include, unsigned char side,
                bool negate);
int filter_add_file(struct sync *s, const char *path, bool include);
/* Whether the sender leaves path out (an exclude, hide); whether the
 * receiver keeps it from --delete (an exclude, protect; in a directory
 * being removed, dir_removed, one not perishable). */
bool filter_excluded(const struct sync *s, const char *path, bool dir);
bool filter_protected(const struct sync *s, const char *path, bool dir,
                      bool dir_removed);
/* Rule r as --filter takes it, into sb; bare: its pattern alone, as
 * --include or --exclude takes it. */
int filter_text(struct strbuf *sb, const struct sync_rule *r, bool bare);
void filter_free(struct sync *s);
/* filterrule.c: one --filter rule: 0; -1 when wrong (said); -2 when a
 * merge file cannot be read (said: 11) */
int filter_rule(struct sync *s, const char *text);

/* delete.c: --delete in the destination directory name in pfd (shown as
 * rel), of what its source directory sdir does not hold. */
void delete_extraneous(struct sync *s, int sdirfd, const char *sname, int pfd,
                       const char *name, const char *rel);
/* -L: whether the directory name in dirfd (rel below the top) holds a
 * link, not left out by the rules, that leads nowhere: an I/O error of
 * rsync's file list, which turns its --delete off before anything there
 * is deleted. */
bool delete_dangling_in(const struct sync *s, int dirfd, const char *name, const char *rel);
/* --delete-missing-args: name in pfd (shown as rel), the copy of a SRC that
 * is not there, removed as rsync removes it: a directory with what it
 * holds under --delete or --force, else only when empty (said when not). */
void delete_missing(struct sync *s, int pfd, const char *name, const char *rel);
/* The directory name in pfd (status st, shown as rel) removed to make way
 * for a new entry of mode, as rsync does: an empty one always; one that
 * holds something under --delete or --force, its contents deleted (and
 * said) first; else left, said ("could not make way"), the run partial.
 * Returns whether it is gone. */
bool delete_make_way(struct sync *s, int pfd, const char *name, const struct stat *st,
                     const char *rel, mode_t mode);
/* The names in the directory open at fd, NUL-separated, into sb.
 * Returns 0 or -1 with errno. */
int delete_list_names(int fd, struct strbuf *sb);

/* linkdest.c: --link-dest, --compare-dest, --copy-dest (s->alt_dest).
 * linkdest_add() takes a DIR (-1: no memory); linkdest_open() opens them
 * all, relative to DEST (to its directory when dest_is_file), saying which
 * are missing. For an entry new in DEST (below: its path there),
 * linkdest_new() says whether it took it (linked it, left it out as
 * DIR's, copied it as DIR's, or found it a basis in a DIR), with the
 * verdict; for an existing regular file, linkdest_existing() whether it
 * took it instead (linked it, removed it as DIR's, copied it again), with
 * the verdict. linkdest_option() is the kind's option name. */
int linkdest_add(struct sync *s, const char *dir);
const char *linkdest_option(enum alt_dest kind);
void linkdest_open(struct sync *s, const char *dest, bool dest_is_file);
void linkdest_free(struct sync *s);
bool linkdest_new(struct sync *s, const struct sweep_entry *e, const char *shown,
                  const char *below, int pfd, const char *name, const struct stat *dst,
                  enum copy_verdict *v);
bool linkdest_existing(struct sync *s, const struct sweep_entry *e, const char *below,
                       int pfd, const char *name, const struct stat *dst,
                       enum copy_verdict *v);
/* -H: whether a later name of a file linked from a DIR has that DIR's
 * inode there too (then, as in rsync, it is not counted as created). */
bool linkdest_follower(struct sync *s, const struct sweep_entry *e, const char *below);

/* backups.c: backups_check() says what is wrong with the options (-1);
 * backups_open() takes --backup-dir from DEST (from its directory when
 * dest_is_file); backups_dir() is the engine's backup_dir hook. A name
 * backups_protected() is never deleted (filter_protected() asks it after
 * the user's rules); backups_deleted() moves a name
 * --delete removes aside instead (false: it failed, reported). */
int backups_check(struct sync *s);
void backups_open(struct sync *s, const char *dest, bool dest_is_file);
int backups_dir(void *arg);
/* Whether name is itself a backup (-b without --backup-dir: it ends in
 * the suffix): deleted without one. */
bool backups_is_backup(const struct sync *s, const char *name);
bool backups_protected(const struct sync *s, const char *name);
bool backups_deleted(struct sync *s, int pfd, const char *name, const char *rel);
/* The engine's backed_up hook: BACKUP's "backed up" line. */
void backups_said(void *arg, const char *rel_below);
void backups_free(struct sync *s);

/* listfile.c: each line of the file at path ("-": standard input) that
 * is not empty nor (with comments) a comment, to each, which returns 0 or
 * -1 (with errno) to stop. Returns 0, or -1 with errno. */
int listfile_read(const char *path, bool nul, bool comments,
                  int (*each)(void *arg, const char *line), void *arg);

/* deletepass.c: --delete-before and --delete-after: delete_extraneous()
 * in the destination's name in dfd (the top of SRC's copy) and every
 * directory below it the transfer goes through, at once. */
void delete_pass(struct sync *s, const char *src, int dfd, const char *name);
/* --delete-before over a remote shell: the sender's look over the source
 * (s->io_error set if some directory cannot be read) before its pass. */
void delete_prescan(struct sync *s, const char *src);
/* prune.c: -m */
void prune_scan(struct sync *s, char **srcs, int nsrc);
bool prune_hides(const struct sync *s, const struct stat *st, int depth);
/* Whether the sender leaves path (st, depth below SRC) out: its rules
 * exclude it, or -m prunes it. A root that is SRC/'s "." never is: the
 * callers do not ask for it. */
bool sender_hides(const struct sync *s, const char *path, const struct stat *st, int depth);
/* latedelete.c: --delete-after over a remote shell: each directory's
 * source names kept as it is decided (rel: its path below the tree's top,
 * "" for the top), and the deletions once the tree is in (the top: name
 * in dfd). */
struct late_dir;
struct late_deletes {
	struct late_dir *dirs;
	size_t ndirs, cap;
	struct strbuf blob;     /* paths and names, NUL-terminated */
	const char **index;     /* one directory's names, split */
	size_t index_cap;
};
void late_deletes_init(struct late_deletes *l);
void late_deletes_free(struct late_deletes *l);
int late_deletes_keep(struct late_deletes *l, const char *rel, const char *const *names,
                      size_t n, const struct timespec *mtime);
void late_deletes_run(struct sync *s, struct late_deletes *l, int dfd, const char *name);
/* One directory rel's deletions, of what s->src_names (set: the source's
 * names, sorted) does not hold; then its time set to mtime, if given. */
void late_delete_dir(struct sync *s, int dfd, const char *name, const char *rel,
                     const struct timespec *mtime);
/* Whether the deletions are a pass of their own, DEL_BEFORE or
 * DEL_AFTER (when), for the tree being synced. */
bool sync_delete_pass(const struct sync *s, int when);
/* -xx: whether st (at depth) is a mount point of the source, left out. */
bool sync_mount_point(const struct sync *s, const struct stat *st, int depth);
/* Whether the directory e's contents are sent (--files-from may send it
 * alone, or without what its directories hold): else nothing is deleted
 * in it. */
bool sync_contents_sent(const struct sync *s, const struct sweep_entry *e);
/* --delete-WHEN (DEL_*): 0, or -1 after a usage error (two of them). */
int delete_when_set(struct sync *s, int when);

/* limits.c: --bwlimit (into copy.bwlimit) and --timeout. Return 0, or
 * -1 after saying what is wrong (a usage error). */
int limits_bwlimit(struct sync *s, const char *arg);
int limits_timeout(struct sync *s, const char *arg);
/* --max-size=SIZE (max) or --min-size=SIZE. Returns 0, or -1 (reported). */
int limits_size(struct sync *s, const char *arg, bool max);
/* Whether a regular file of status st (rel) is left for its size (said
 * under -vv, as rsync says it). */
bool limits_size_skips(const struct sync *s, const struct stat *st, const char *rel);
/* --max-delete=NUM. Returns 0, or -1 (reported). */
int limits_max_delete(struct sync *s, const char *arg);
/* Whether the next deletion is one past --max-delete (then counted as
 * skipped, as rsync counts each it does not make). */
bool limits_delete_stopped(struct sync *s);

/* info.c: --info=WORDS, the user's levels (0, or -1: an unknown word,
 * said, a usage error; HELP said sets info_help). */
int info_option(struct sync *s, const char *arg);
/* Once the options are read: the levels -v, --stats, --progress and -q
 * give, where --info gave none. */
void info_settle(struct sync *s);
/* The far end's --info, every level as the near end has it. */
int info_server_option(const struct sync *s, struct strbuf *sb);

/* report.c: --progress and --info=progress2: the line of progress.h on a
 * terminal, started, drawn (the engine's progress hook), ended. */
void report_progress_start(struct sync *s);
void report_progress(void *arg, uint64_t files, uint64_t bytes, uint64_t known);
void report_progress_end(struct sync *s);

/* report.c */
void report_item(struct sync *s, const char *code, const char *rel, bool dir,
                 const char *target);
void report_delete(struct sync *s, const char *rel, bool dir);
/* Whether the lines shown are -i's: every change (-i, a format with %i). */
bool report_itemized(const struct sync *s);
void report_stats(const struct sync *s);
/* -v's first line, and the summary -v and --stats end with */
void report_start(const struct sync *s);
void report_end(const struct sync *s);
/* A line of --log-file (none without it): rsync's time and process,
 * then fmt. */
void report_log(const struct sync *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* --log-file=FILE opened for appending (said where it cannot be, and
 * the run goes on without it, as rsync's), and its first line. */
void report_log_open(struct sync *s);
/* Its last line, and closed. */
void report_log_close(struct sync *s, const char *end_line);
/* rsync's warning after it: deletions --max-delete left undone. */
void report_deletes_stopped(const struct sync *s);
/* "sweep-sync: [who] fmt: strerror (errno)", as rsync says it; marks the
 * run partial. */
void report_error(struct sync *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* name with rsync's escapes (\#ooo) for what the locale cannot show (in
 * the log: every byte from 0x80 as it is, log true) */
void report_name(const struct sync *s, FILE *f, const char *name);
void report_name_as(const struct sync *s, FILE *f, const char *name, bool log);
/* n bytes as rsync writes a size: human 0 plain, 1 with separators, 2
 * and 3 in units of 1000 and 1024 (-h, -hh); buf holds 40 bytes. */
const char *report_size(char *buf, uint64_t n, int human);

#endif
