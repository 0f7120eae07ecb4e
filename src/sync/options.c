/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c: sweep-sync's command line: the rsync options of a local
 * transfer it implements (see sweep-sync(1)), and what they ask of the copy
 * engine. A mistake is a usage error, exit status 1 as rsync's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"
#include "walkenv.h"

enum {
	OPT_DELETE = 256, OPT_EXCLUDE, OPT_INCLUDE, OPT_SIZE_ONLY, OPT_IGNORE_EXISTING,
	OPT_EXISTING, OPT_INPLACE, OPT_NUMERIC_IDS, OPT_STATS, OPT_DEVICES, OPT_SPECIALS,
	OPT_RSYNC_PATH, OPT_SERVER, OPT_SENDER, OPT_CONTIMEOUT,
	OPT_HELP, OPT_VERSION, OPT_LINK_DEST, OPT_COMPARE_DEST, OPT_COPY_DEST, OPT_BACKUP_DIR, OPT_SUFFIX, OPT_DELETE_BEFORE,
	OPT_DELETE_DURING, OPT_DELETE_AFTER, OPT_DELETE_EXCLUDED, OPT_EXCLUDE_FROM,
	OPT_INCLUDE_FROM, OPT_FILES_FROM, OPT_PARTIAL, OPT_PROGRESS, OPT_INFO, OPT_BWLIMIT,
	OPT_TIMEOUT, OPT_FILES_FROM_WIRE, OPT_DELETE_DELAY, OPT_NOOP, OPT_MAX_DELETE,
	OPT_MAX_SIZE, OPT_MIN_SIZE, OPT_MKPATH, OPT_FSYNC, OPT_CHMOD, OPT_FORCE, OPT_LOG_FILE,
	OPT_IGNORE_ERRORS, OPT_COMPRESS_LEVEL, OPT_OUTBUF, OPT_CHOWN, OPT_SAFE_LINKS,
	OPT_REMOVE_SOURCE, OPT_REMOVE_SENT, OPT_NO_MOTD, OPT_OUT_FORMAT, OPT_LOG_FILE_FORMAT, OPT_IGNORE_MISSING,
	OPT_DELETE_MISSING, OPT_USERMAP, OPT_GROUPMAP, OPT_APPEND, OPT_APPEND_VERIFY,
	OPT_PREALLOCATE, OPT_PARTIAL_DIR,
	/* --no-OPTION: OPT_NO plus the code of the option it turns off */
	OPT_NO = 1024,
};

static const struct option long_options[] = {
	{ "archive", no_argument, NULL, 'a' },
	{ "recursive", no_argument, NULL, 'r' },
	{ "links", no_argument, NULL, 'l' },
	{ "perms", no_argument, NULL, 'p' },
	{ "times", no_argument, NULL, 't' },
	{ "group", no_argument, NULL, 'g' },
	{ "owner", no_argument, NULL, 'o' },
	{ "devices", no_argument, NULL, OPT_DEVICES },
	{ "specials", no_argument, NULL, OPT_SPECIALS },
	{ "hard-links", no_argument, NULL, 'H' },
	{ "prune-empty-dirs", no_argument, NULL, 'm' },
	{ "no-prune-empty-dirs", no_argument, NULL, OPT_NO + 'm' },
	{ "no-m", no_argument, NULL, OPT_NO + 'm' },
	{ "acls", no_argument, NULL, 'A' },
	{ "xattrs", no_argument, NULL, 'X' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "delete", no_argument, NULL, OPT_DELETE },
	{ "delete-before", no_argument, NULL, OPT_DELETE_BEFORE },
	{ "delete-during", no_argument, NULL, OPT_DELETE_DURING },
	{ "del", no_argument, NULL, OPT_DELETE_DURING },
	{ "delete-after", no_argument, NULL, OPT_DELETE_AFTER },
	{ "delete-excluded", no_argument, NULL, OPT_DELETE_EXCLUDED },
	{ "exclude-from", required_argument, NULL, OPT_EXCLUDE_FROM },
	{ "include-from", required_argument, NULL, OPT_INCLUDE_FROM },
	{ "from0", no_argument, NULL, '0' },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "partial", no_argument, NULL, OPT_PARTIAL },
	{ "partial-dir", required_argument, NULL, OPT_PARTIAL_DIR },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "info", required_argument, NULL, OPT_INFO },
	{ "copy-links", no_argument, NULL, 'L' },
	{ "sparse", no_argument, NULL, 'S' },
	{ "bwlimit", required_argument, NULL, OPT_BWLIMIT },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "filter", required_argument, NULL, 'f' },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "checksum", no_argument, NULL, 'c' },
	{ "size-only", no_argument, NULL, OPT_SIZE_ONLY },
	{ "ignore-times", no_argument, NULL, 'I' },
	{ "no-ignore-times", no_argument, NULL, OPT_NO + 'I' },
	{ "no-I", no_argument, NULL, OPT_NO + 'I' },
	{ "modify-window", required_argument, NULL, '@' },
	{ "ignore-existing", no_argument, NULL, OPT_IGNORE_EXISTING },
	{ "existing", no_argument, NULL, OPT_EXISTING },
	{ "ignore-non-existing", no_argument, NULL, OPT_EXISTING },
	{ "update", no_argument, NULL, 'u' },
	{ "inplace", no_argument, NULL, OPT_INPLACE },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "preallocate", no_argument, NULL, OPT_PREALLOCATE },
	{ "append-verify", no_argument, NULL, OPT_APPEND_VERIFY },
	{ "one-file-system", no_argument, NULL, 'x' },
	{ "numeric-ids", no_argument, NULL, OPT_NUMERIC_IDS },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "itemize-changes", no_argument, NULL, 'i' },
	{ "rsh", required_argument, NULL, 'e' },
	{ "rsync-path", required_argument, NULL, OPT_RSYNC_PATH },
	{ "compress", no_argument, NULL, 'z' },
	{ "contimeout", required_argument, NULL, OPT_CONTIMEOUT },
	{ "server", no_argument, NULL, OPT_SERVER },
	{ "sender", no_argument, NULL, OPT_SENDER },
	/* a server's --files-from: the names come on the connection (a name
	 * older servers refuse, rather than read their standard input) */
	{ "files-from-wire", no_argument, NULL, OPT_FILES_FROM_WIRE },
	{ "link-dest", required_argument, NULL, OPT_LINK_DEST },
	{ "compare-dest", required_argument, NULL, OPT_COMPARE_DEST },
	{ "copy-dest", required_argument, NULL, OPT_COPY_DEST },
	{ "backup", no_argument, NULL, 'b' },
	{ "backup-dir", required_argument, NULL, OPT_BACKUP_DIR },
	{ "suffix", required_argument, NULL, OPT_SUFFIX },
	{ "omit-dir-times", no_argument, NULL, 'O' },
	{ "8-bit-output", no_argument, NULL, '8' },
	{ "no-8-bit-output", no_argument, NULL, OPT_NO + '8' },
	{ "no-8", no_argument, NULL, OPT_NO + '8' },
	{ "human-readable", no_argument, NULL, 'h' },
	{ "no-human-readable", no_argument, NULL, OPT_NO + 'h' },
	{ "no-h", no_argument, NULL, OPT_NO + 'h' },
	{ "delete-delay", no_argument, NULL, OPT_DELETE_DELAY },
	{ "max-delete", required_argument, NULL, OPT_MAX_DELETE },
	{ "mkpath", no_argument, NULL, OPT_MKPATH },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "remove-source-files", no_argument, NULL, OPT_REMOVE_SOURCE },
	{ "remove-sent-files", no_argument, NULL, OPT_REMOVE_SENT },
	{ "no-motd", no_argument, NULL, OPT_NO_MOTD },
	{ "out-format", required_argument, NULL, OPT_OUT_FORMAT },
	{ "ignore-missing-args", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "delete-missing-args", no_argument, NULL, OPT_DELETE_MISSING },
	{ "log-format", required_argument, NULL, OPT_OUT_FORMAT }, /* rsync's old name */
	{ "log-file-format", required_argument, NULL, OPT_LOG_FILE_FORMAT },
	{ "log-file", required_argument, NULL, OPT_LOG_FILE },
	{ "ignore-errors", no_argument, NULL, OPT_IGNORE_ERRORS },
	{ "no-ignore-errors", no_argument, NULL, OPT_NO + OPT_IGNORE_ERRORS },
	{ "compress-level", required_argument, NULL, OPT_COMPRESS_LEVEL },
	{ "zl", required_argument, NULL, OPT_COMPRESS_LEVEL },
	/* each file's data is compressed alike, which none of these change
	 * but in time */
	{ "skip-compress", required_argument, NULL, OPT_NOOP },
	{ "outbuf", required_argument, NULL, OPT_OUTBUF },
	{ "blocking-io", no_argument, NULL, OPT_NOOP },
	{ "no-blocking-io", no_argument, NULL, OPT_NOOP },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "relative", no_argument, NULL, 'R' },
	{ "no-relative", no_argument, NULL, OPT_NO + 'R' },
	{ "no-R", no_argument, NULL, OPT_NO + 'R' },
	{ "no-force", no_argument, NULL, OPT_NO + OPT_FORCE },
	{ "chmod", required_argument, NULL, OPT_CHMOD },
	{ "chown", required_argument, NULL, OPT_CHOWN },
	{ "usermap", required_argument, NULL, OPT_USERMAP },
	{ "groupmap", required_argument, NULL, OPT_GROUPMAP },
	{ "safe-links", no_argument, NULL, OPT_SAFE_LINKS },
	{ "no-mkpath", no_argument, NULL, OPT_NO + OPT_MKPATH },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "min-size", required_argument, NULL, OPT_MIN_SIZE },
	/* whole files are all sweep-sync sends, and every word sent to the far
	 * end is quoted for its shell: these ask for what is always so */
	{ "whole-file", no_argument, NULL, 'W' },
	{ "protect-args", no_argument, NULL, 's' },
	{ "secluded-args", no_argument, NULL, 's' },
	/* libsweep opens every file it reads with O_NOATIME where the kernel
	 * lets it (the file's owner, or root), with or without the option */
	{ "open-noatime", no_argument, NULL, OPT_NOOP },
	/* rsync's --no-OPTION, for the options scripts turn off after -a */
	{ "no-recursive", no_argument, NULL, OPT_NO + 'r' },
	{ "no-r", no_argument, NULL, OPT_NO + 'r' },
	{ "no-links", no_argument, NULL, OPT_NO + 'l' },
	{ "no-l", no_argument, NULL, OPT_NO + 'l' },
	{ "no-perms", no_argument, NULL, OPT_NO + 'p' },
	{ "no-p", no_argument, NULL, OPT_NO + 'p' },
	{ "no-times", no_argument, NULL, OPT_NO + 't' },
	{ "no-t", no_argument, NULL, OPT_NO + 't' },
	{ "no-group", no_argument, NULL, OPT_NO + 'g' },
	{ "no-g", no_argument, NULL, OPT_NO + 'g' },
	{ "no-owner", no_argument, NULL, OPT_NO + 'o' },
	{ "no-o", no_argument, NULL, OPT_NO + 'o' },
	{ "no-D", no_argument, NULL, OPT_NO + 'D' },
	{ "no-devices", no_argument, NULL, OPT_NO + OPT_DEVICES },
	{ "no-specials", no_argument, NULL, OPT_NO + OPT_SPECIALS },
	{ "no-hard-links", no_argument, NULL, OPT_NO + 'H' },
	{ "no-H", no_argument, NULL, OPT_NO + 'H' },
	{ "no-acls", no_argument, NULL, OPT_NO + 'A' },
	{ "no-A", no_argument, NULL, OPT_NO + 'A' },
	{ "no-xattrs", no_argument, NULL, OPT_NO + 'X' },
	{ "no-X", no_argument, NULL, OPT_NO + 'X' },
	{ "no-verbose", no_argument, NULL, OPT_NO + 'v' },
	{ "no-v", no_argument, NULL, OPT_NO + 'v' },
	{ "no-checksum", no_argument, NULL, OPT_NO + 'c' },
	{ "no-c", no_argument, NULL, OPT_NO + 'c' },
	{ "no-one-file-system", no_argument, NULL, OPT_NO + 'x' },
	{ "no-x", no_argument, NULL, OPT_NO + 'x' },
	{ "no-itemize-changes", no_argument, NULL, OPT_NO + 'i' },
	{ "no-i", no_argument, NULL, OPT_NO + 'i' },
	{ "no-sparse", no_argument, NULL, OPT_NO + 'S' },
	{ "no-S", no_argument, NULL, OPT_NO + 'S' },
	{ "no-compress", no_argument, NULL, OPT_NO + 'z' },
	{ "no-z", no_argument, NULL, OPT_NO + 'z' },
	{ "no-omit-dir-times", no_argument, NULL, OPT_NO + 'O' },
	{ "no-O", no_argument, NULL, OPT_NO + 'O' },
	{ "no-partial", no_argument, NULL, OPT_NO + OPT_PARTIAL },
	{ "no-progress", no_argument, NULL, OPT_NO + OPT_PROGRESS },
	{ "no-inplace", no_argument, NULL, OPT_NO + OPT_INPLACE },
	{ "no-numeric-ids", no_argument, NULL, OPT_NO + OPT_NUMERIC_IDS },
	{ "no-backup", no_argument, NULL, OPT_NO + 'b' },
	{ "no-whole-file", no_argument, NULL, OPT_NOOP },
	{ "no-W", no_argument, NULL, OPT_NOOP },
	{ "no-protect-args", no_argument, NULL, OPT_NOOP },
	{ "no-s", no_argument, NULL, OPT_NOOP },
	{ "old-args", no_argument, NULL, OPT_NOOP },
	{ "no-inc-recursive", no_argument, NULL, OPT_NOOP },
	{ "no-i-r", no_argument, NULL, OPT_NOOP },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char short_options[] = "arlptgoDHAXvqncuxib0PLSe:zOWsh8R@:f:FmI";

static void usage(const char *prog)
{
	printf("Usage: %s [OPTION]... SRC [SRC]... DEST\n"
	       "  or   %s [OPTION]... SRC [SRC]... [USER@]HOST:DEST\n"
	       "  or   %s [OPTION]... [USER@]HOST:SRC [HOST:SRC]... DEST\n", prog, prog, prog);
	fputs("Make DEST a copy of SRC, as rsync does on one machine, reading each source\n"
	      "tree in the order of its disk (libsweep). A SRC ending in '/' copies the\n"
	      "contents of the directory, not the directory itself.\n"
	      "\n"
	      "  -a, --archive            archive mode is -rlptgoD (no -A,-X,-H)\n"
	      "  -r, --recursive          recurse into directories\n"
	      "  -R, --relative           use relative path names\n"
	      "  -l, --links              copy symlinks as symlinks\n"
	      "  -L, --copy-links         transform symlink into referent file/dir\n"
	      "      --safe-links         ignore symlinks that point outside the tree\n"
	      "  -p, --perms              preserve permissions\n"
	      "  -t, --times              preserve modification times\n"
	      "  -O, --omit-dir-times     omit directories from --times\n"
	      "      --chmod=CHMOD        affect file and/or directory permissions\n"
	      "      --usermap=STRING     custom username mapping\n"
	      "      --groupmap=STRING    custom groupname mapping\n"
	      "      --chown=USER:GROUP   simple username/groupname mapping\n"
	      "  -g, --group              preserve group\n"
	      "  -o, --owner              preserve owner (super-user only)\n"
	      "  -D                       same as --devices --specials\n"
	      "  -H, --hard-links         preserve hard links\n"
	      "  -A, --acls               preserve ACLs (implies --perms)\n"
	      "  -X, --xattrs             preserve extended attributes\n"
	      "  -v, --verbose            increase verbosity\n"
	      "  -q, --quiet              suppress non-error messages\n"
	      "  -S, --sparse             turn sequences of nulls into sparse blocks\n"
	      "  -n, --dry-run            perform a trial run with no changes made\n"
	      "      --delete             delete extraneous files from dest directories\n"
	      "      --delete-before      receiver deletes before transfer, not during\n"
	      "      --delete-during      receiver deletes during the transfer\n"
	      "      --delete-after       receiver deletes after transfer, not during\n"
	      "      --delete-delay       find deletions during, delete after\n"
	      "      --delete-excluded    also delete excluded files from dest dirs\n"
	      "      --max-delete=NUM     don't delete more than NUM files\n"
	      "  -@, --modify-window=NUM  set the accuracy for mod-time comparisons\n"
	      "      --force              force deletion of dirs even if not empty\n"
	      "      --ignore-errors      delete even if there are I/O errors\n"
	      "  -f, --filter=RULE        add a file-filtering RULE (not dir-merge)\n"
	      "      --exclude=PATTERN    exclude files matching PATTERN\n"
	      "      --exclude-from=FILE  read exclude patterns from FILE\n"
	      "      --include=PATTERN    don't exclude files matching PATTERN\n"
	      "      --include-from=FILE  read include patterns from FILE\n"
	      "      --files-from=FILE    read list of source-file names from FILE\n"
	      "  -0, --from0              all *-from/filter files are delimited by 0s\n"
	      "  -c, --checksum           skip based on checksum, not mod-time & size\n"
	      "      --size-only          skip files that match in size\n"
	      "  -I, --ignore-times       don't skip files that match size and time\n"
	      "      --ignore-existing    skip updating files that exist on receiver\n"
	      "      --existing           skip creating new files on receiver\n"
	      "      --mkpath             create destination's missing path components\n"
	      "      --max-size=SIZE      don't transfer any file larger than SIZE\n"
	      "      --min-size=SIZE      don't transfer any file smaller than SIZE\n"
	      "  -u, --update             skip files that are newer on the receiver\n"
	      "      --inplace            update destination files in-place\n"
	      "      --append             append data onto shorter files\n"
	      "      --preallocate        allocate dest files before writing them\n"
	      "      --append-verify      --append w/old data in file checksum\n"
	      "      --fsync              fsync every written file\n"
	      "      --remove-source-files sender removes synchronized files (non-dir)\n"
	      "      --remove-sent-files   the same, but not those found up to date\n"
	      "      --no-motd             (a daemon's greeting: taken, does nothing)\n"
	      "      --ignore-missing-args ignore missing source args without error\n"
	      "      --delete-missing-args delete missing source args from destination\n"
	      "  -x, --one-file-system    don't cross filesystem boundaries\n"
	      "  -m, --prune-empty-dirs   prune empty directory chains from file-list\n"
	      "      --timeout=SECONDS    set I/O timeout in seconds\n"
	      "      --bwlimit=RATE       limit the rate data is written at (KiB/s)\n"
	      "      --numeric-ids        don't map uid/gid values by user/group name\n"
	      "      --partial            keep partially transferred files\n"
	      "      --partial-dir=DIR    put a partially transferred file into DIR\n"
	      "      --stats              give some file-transfer stats\n"
	      "      --log-file=FILE      log what we're doing to the specified FILE\n"
	      "      --log-file-format=FMT log updates using the specified FMT\n"
	      "      --out-format=FORMAT  output updates using the specified FORMAT\n"
	      "  -h, --human-readable     output numbers in a human-readable format\n"
	      "      --progress           show progress during transfer (on a terminal)\n"
	      "  -P                       same as --partial --progress\n"
	      "      --info=FLAGS         fine-grained informational verbosity\n"
	      "                           (--info=help lists them)\n"
	      "  -i, --itemize-changes    output a change-summary for all updates\n"
	      "  -8, --8-bit-output       leave high-bit chars unescaped in output\n"
	      "  -e, --rsh=COMMAND        specify the remote shell to use (default ssh)\n"
	      "      --rsync-path=PROGRAM specify the sweep-sync to run on the remote machine\n"
	      "  -z, --compress           compress file data during the transfer\n"
	      "      --compress-level=NUM explicitly set compression level\n"
	      "      --skip-compress=LIST taken; every file is compressed alike\n"
	      "      --outbuf=N|L|B       set out buffering to None, Line, or Block\n"
	      "      --blocking-io        taken; the remote shell's pipes block\n"
	      "      --contimeout=SECONDS wait at most this long for the remote side's greeting\n"
	      "      --compare-dest=DIR   also compare destination files relative to DIR\n"
	      "      --copy-dest=DIR      ... and include copies of unchanged files\n"
	      "      --link-dest=DIR      hardlink to files in DIR when unchanged\n"
	      "  -b, --backup             make backups (see --suffix & --backup-dir)\n"
	      "      --backup-dir=DIR     make backups into hierarchy based in DIR\n"
	      "      --suffix=SUFFIX      backup suffix (default ~ w/o --backup-dir)\n"
	      "  -W, --whole-file         copy files whole (always so here)\n"
	      "  -s, --protect-args       no space-splitting of remote names (always so)\n"
	      "      --open-noatime       avoid changing the atime on opened files (always\n"
	      "                           so where the kernel allows it)\n"
	      "      --no-OPTION          turn off an implied OPTION (e.g. --no-D)\n"
	      "      --help               show this help\n"
	      "      --version            print the version\n"
	      "\n"
	      "SWEEP_ORDER (disk, inode, name, none, block, auto), SWEEP_WARM (on, off,\n"
	      "auto) and SWEEP_DEPTH (on) choose the walk's order, its helper threads and\n"
	      "its directory reads in flight.\n", stdout);
}

/* --modify-window=NUM (-@): times that many seconds apart are the same;
 * below 0, to the nanosecond (rsync 3.1.3's). Returns 0 or -1 (said). */
static int modify_window(struct sync *s, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < INT_MIN || v > INT_MAX) {
		diag_error(s->diag, 0, "--modify-window=%s: invalid numeric value", arg);
		return -1;
	}
	s->copy.mtime_window = (int)v;
	return 0;
}

static int contimeout(struct sync *s, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > 86400) {
		diag_error(s->diag, 0, "--contimeout=%s: not a number of seconds from 0 to 86400",
		           arg);
		return -1;
	}
	s->contimeout = (int)v;
	return 0;
}

/* --compress-level=NUM: zlib's level (below 0 its default, above 9 its
 * best); not 0, it means -z too, as in rsync. Returns 0 or -1 (said). */
static int compress_level(struct sync *s, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno) {
		diag_error(s->diag, 0, "--compress-level=%s: invalid numeric value", arg);
		return -1;
	}
	s->compress_level = v < 0 ? 6 : v > 9 ? 9 : (int)v;
	s->compress = v != 0;
	return 0;
}

/* --outbuf=N|L|B: standard output unbuffered, by lines or by blocks, as
 * rsync reads it (the first letter). Returns 0 or -1 (said). */
static int outbuf(struct sync *s, const char *arg)
{
	int mode = toupper((unsigned char)*arg) == 'N' ? _IONBF
	           : toupper((unsigned char)*arg) == 'L' ? _IOLBF
	           : toupper((unsigned char)*arg) == 'B' ? _IOFBF : -1;
	if (mode < 0) {
		diag_error(s->diag, 0, "Invalid --outbuf setting -- specify N, L, or B.");
		return -1;
	}
	(void)s;
	return setvbuf(stdout, NULL, mode, 0) == 0 ? 0 : -1;
}

/* --link-dest, --compare-dest, --copy-dest: DIR, of the one kind a run
 * may have, as rsync's. 0, or -1 (said). */
static int alt_dest(struct sync *s, enum alt_dest kind, const char *dir)
{
	if (s->alt_dest && s->alt_dest != kind) {
		diag_error(s->diag, 0, "ERROR: the --%s option conflicts with the --%s option",
		           linkdest_option(kind), linkdest_option(s->alt_dest));
		return -1;
	}
	s->alt_dest = kind;
	if (linkdest_add(s, dir) < 0) {
		diag_error(s->diag, 0, "memory exhausted");
		return -1;
	}
	return 0;
}

/* --partial-dir=DIR: --partial, the part kept in DIR/NAME. DIR is one
 * name, made in NAME's directory (rsync's takes a path, or an absolute
 * one: not taken here). Returns 0 or -1 (said). */
static int partial_dir(struct sync *s, const char *arg)
{
	if (!*arg || strchr(arg, '/') || strcmp(arg, ".") == 0 || strcmp(arg, "..") == 0 ||
	    strlen(arg) > NAME_MAX) {
		diag_error(s->diag, 0, "--partial-dir=%s is not supported (one name, made in each "
		                       "file's directory)", arg);
		return -1;
	}
	s->copy.partial_dir = arg;
	s->copy.keep_partial = true;
	return 0;
}

/* The option of code c, one that turns something on (and --no-OPTION
 * off, on false). Returns whether c is such an option. */
static bool switch_option(struct sync *s, int c, bool on)
{
	switch (c) {
	case 'r': s->recursive = s->recursive_given = on; break;
	case 'l': s->links = on; break;
	case 'p': s->perms = on; break;
	case 't': s->times = on; break;
	case 'O': s->omit_dir_times = on; break;
	case '8': s->eight_bit = on; break;
	case 'g': s->group = on; break;
	case 'o': s->owner = on; break;
	case 'D': s->devices = s->specials = on; break;
	case OPT_DEVICES: s->devices = on; break;
	case OPT_SPECIALS: s->specials = on; break;
	case 'H': s->hard_links = on; break;
	case 'm': s->prune_empty = on; break;
	case 'A': s->acls = on; s->perms |= on; break; /* --no-A leaves -p */
	case 'X': s->xattrs = on; break;
	case 'v': s->verbose = on ? s->verbose + 1 : 0; break;
	case 'h': s->human = on ? s->human + (s->human < 3) : 0; break;
	case 'c': s->checksum = on; break;
	case 'I': s->ignore_times = on; break;
	case 'x': s->no_mounts = on && s->one_fs; s->one_fs = on; break; /* -xx */
	case 'i': s->itemize_all = on && s->itemize; s->itemize = on; break;
	case 'S': s->copy.sparse = on ? COPY_SPARSE_ALWAYS : COPY_SPARSE_AUTO; break;
	case 'z': s->compress = on; break;
	case 'b': s->backup = on; s->backup_dir = on ? s->backup_dir : NULL; break;
	case OPT_PARTIAL: s->copy.keep_partial = on; break;
	case OPT_PROGRESS: s->progress_given = on; break;
	case OPT_INPLACE: s->inplace = on; break;
	case OPT_APPEND: s->append = on; s->inplace |= on; break;
	case OPT_PREALLOCATE: s->copy.preallocate = on; break;
	case OPT_APPEND_VERIFY: s->append = on ? 2 : 0; s->inplace |= on; break;
	case OPT_NUMERIC_IDS: s->numeric_ids = on; break;
	case OPT_MKPATH: s->mkpath = on; break;
	case OPT_FSYNC: s->copy.fsync_files = on; break;
	case OPT_REMOVE_SOURCE: s->remove_source = on; s->remove_sent_only = false; break;
	/* rsync's older spelling, which leaves a file found up to date */
	case OPT_REMOVE_SENT: s->remove_source = s->remove_sent_only = on; break;
	case OPT_NO_MOTD: break; /* (a daemon's greeting: none here) */
	case OPT_IGNORE_MISSING: s->ignore_missing = on; break;
	case OPT_DELETE_MISSING: s->delete_missing = on; break;
	case OPT_FORCE: s->force = on; break;
	case OPT_IGNORE_ERRORS: s->ignore_errors = on; break;
	case OPT_SAFE_LINKS: s->safe_links = on; break;
	case 'R': s->relative = on; s->relative_off = !on; break;
	default: return false;
	}
	return true;
}

/* One option. Returns 0, or -1 after a usage error (-2: 11). */
static int take_option(struct sync *s, int c, const char *arg)
{
	if (c >= OPT_NO)
		return switch_option(s, c - OPT_NO, false) ? 0 : -1;
	if (switch_option(s, c, true))
		return 0;
	switch (c) {
	case 'a':
		s->recursive = s->links = s->perms = s->times = true;
		s->group = s->owner = s->devices = s->specials = true;
		break;
	case 'q': s->quiet = true; break;
	case 'n': s->dry_run = true; break;
	case 'u': s->update = true; break;
	case OPT_BACKUP_DIR: s->backup = true; s->backup_dir = arg; break;
	case OPT_SUFFIX: s->copy.suffix = arg; break;
	case OPT_DELETE: s->delete = true; break;
	case OPT_DELETE_BEFORE: return delete_when_set(s, DEL_BEFORE);
	case OPT_DELETE_DURING: return delete_when_set(s, DEL_DURING);
	case OPT_DELETE_AFTER: return delete_when_set(s, DEL_AFTER);
	/* rsync finds the deletions during the transfer and makes them after
	 * it: what is deleted, and when, is --delete-after's (but a file's data
	 * not read, met after they were found, does not stop them) */
	case OPT_DELETE_DELAY: s->delete_delay = true; return delete_when_set(s, DEL_AFTER);
	case 'W': s->whole_file = true; break;
	case 's': case OPT_NOOP: break;
	case OPT_DELETE_EXCLUDED: s->delete = s->delete_excluded = true; break;
	case '0': s->from0 = true; break;
	case 'L': s->copy_links = true; break;
	case 'P': s->copy.keep_partial = s->progress_given = true; break;
	case OPT_INFO: return info_option(s, arg);
	case OPT_BWLIMIT: return limits_bwlimit(s, arg);
	case OPT_TIMEOUT: return limits_timeout(s, arg);
	case OPT_MAX_DELETE: return limits_max_delete(s, arg);
	case '@': return modify_window(s, arg);
	case OPT_CHMOD: return chmod_add(s, arg);
	case OPT_CHOWN: return chown_option(s, arg);
	case OPT_USERMAP: return usermap_option(s, arg, false);
	case OPT_GROUPMAP: return usermap_option(s, arg, true);
	case OPT_LOG_FILE: s->log_path = arg; break;
	case OPT_OUT_FORMAT: /* (an empty one: an empty line an item, as rsync's) */
		s->out_format = arg;
		return out_format_check(s, arg, "--out-format");
	case OPT_LOG_FILE_FORMAT:
		s->log_format = arg;
		return out_format_check(s, arg, "--log-file-format");
	case OPT_COMPRESS_LEVEL: return compress_level(s, arg);
	case OPT_OUTBUF: return outbuf(s, arg);
	case OPT_MAX_SIZE: return limits_size(s, arg, true);
	case OPT_MIN_SIZE: return limits_size(s, arg, false);
	case OPT_FILES_FROM: s->files_from = arg; break;
	case OPT_PARTIAL_DIR: return partial_dir(s, arg);
	case 'f': return filter_rule(s, arg);
	case 'F': return filter_rule(s, ": /.rsync-filter");
	case OPT_EXCLUDE_FROM:
	case OPT_INCLUDE_FROM:
		return filter_add_file(s, arg, c == OPT_INCLUDE_FROM);
	case OPT_SIZE_ONLY: s->size_only = true; break;
	case OPT_IGNORE_EXISTING: s->ignore_existing = true; break;
	case OPT_EXISTING: s->existing = true; break;
	case OPT_STATS: s->stats = true; break;
	case 'e': s->rsh = arg; break;
	case OPT_RSYNC_PATH: s->remote_prog = arg; break;
	case OPT_SERVER: s->server = true; break;
	case OPT_SENDER: s->sender = true; break;
	case OPT_FILES_FROM_WIRE: s->files_from = "-"; s->files_from_wire = true; break;
	case OPT_CONTIMEOUT:
		if (contimeout(s, arg) < 0)
			return -1;
		break;
	case OPT_LINK_DEST:
	case OPT_COMPARE_DEST:
	case OPT_COPY_DEST:
		return alt_dest(s, c == OPT_LINK_DEST ? ALT_LINK : c == OPT_COMPARE_DEST ? ALT_COMPARE
		                                                                   : ALT_COPY, arg);
	case OPT_EXCLUDE:
	case OPT_INCLUDE:
		if (filter_add(s, arg, c == OPT_INCLUDE) < 0) {
			diag_error(s->diag, 0, "memory exhausted");
			return -1;
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/* What the options ask of the copy engine. */
static void engine_options(struct sync *s)
{
	struct copy_opts *o = &s->copy;
	o->follow = s->copy_links ? SWEEP_FOLLOW_ALL : SWEEP_FOLLOW_NONE;
	o->recursive = true;
	o->write_error_ends = true;
	o->one_fs = s->one_fs;
	o->preserve_mode = s->perms;
	o->preserve_owner = s->owner || s->group;
	/* as rsync: -o is for root; a user would chown every unchanged file,
	 * in vain, on every run (and move its ctime) */
	s->root = geteuid() == 0;
	o->no_uid = !s->owner || !s->root;
	o->no_gid = !s->group;
	o->preserve_times = s->times;
	o->preserve_links = s->hard_links;
	o->preserve_xattr = s->xattrs;
	o->acls_apart = true;
	o->preserve_acl = s->acls;
	o->require_preserve = true;
	o->require_xattr = s->xattrs;
	o->reflink = COPY_REFLINK_AUTO;
	info_settle(s);
	s->meter_wanted = s->info[INFO_PROGRESS] >= 1;
	/* (its lines said from the walk's thread, as the other lines) */
	o->backed_up = backups_said;
	if (s->info[INFO_BACKUP] >= 1)
		o->no_write_thread = true;
	o->progress = s->meter_wanted ? report_progress : NULL;
	o->alive = s->timeout ? sync_alive : NULL;
	o->decide = sync_decide;
	o->source_view = s->nchmod || s->usermap || s->groupmap ? sync_source_view : NULL;
	o->walk_error = sync_walk_error;
	o->linked = sync_linked;
	o->done = s->remove_source ? sync_source_done : NULL;
	o->arg = s;
	o->dry_run = s->dry_run;
	o->temp_rename = !s->inplace && !s->append; /* (--no-inplace: still in place) */
	o->append = s->append > 0;
	o->append_verify = s->append == 2;
	o->append_failed = sync_append_failed;
	o->backup = s->backup ? BACKUP_SIMPLE : BACKUP_NONE;
	/* as rsync: backups beside the files change their directories' times */
	o->omit_dir_times = s->omit_dir_times || (s->backup && !s->backup_dir);
	o->only_changed = true;
	o->listed_size = true;
	o->replace_nondir = true;
	o->open_dirs = true;
	o->keep_dest_mode = true;
	o->keep_setid = true;
	o->backup_copy = s->inplace;
	walkenv_read(&o->order, &o->warm);
}

int sync_parse_options(struct sync *s, int argc, char **argv)
{
	int c;
	s->human = 1;
	s->names_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	argv[0] = (char *)s->diag->prog;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == OPT_HELP) {
			usage(s->diag->prog);
			return 0;
		}
		if (c == OPT_VERSION) {
			printf("%s (sweep) %s\n", s->diag->prog, PACKAGE_VERSION);
			return 0;
		}
		int r = take_option(s, c, optarg);
		if (r < 0)
			return r == -2 ? SYNC_FILEIO : 1;
		if (s->info_help)
			return 0;
	}
	/* --files-from: -a does not imply -r; -d is implied */
	if (s->files_from) {
		/* the engine names a backup below its tree's top: one name's */
		if (s->backup_dir) {
			diag_error(s->diag, 0, "--files-from with --backup-dir is not supported");
			return 1;
		}
		/* its names are placed by their paths below DEST, always */
		if (s->relative_off) {
			diag_error(s->diag, 0, "--files-from with --no-relative is not supported");
			return 1;
		}
		/* -m scans the tree of a SRC, not the names of a list */
		if (s->prune_empty && !s->relative) {
			diag_error(s->diag, 0, "--files-from with --prune-empty-dirs is not supported");
			return 1;
		}
		s->recursive = s->recursive_given;
		/* (":FILE": rsync's for the far end's FILE) */
		if (remote_is_host_path(s->files_from) || s->files_from[0] == ':') {
			diag_error(s->diag, 0, "--files-from=HOST:FILE or :FILE is not supported "
			                       "(the list is read where sweep-sync runs)");
			return 1;
		}
		/* a server's names come over the connection (files_from_wire.c) */
		if (!s->files_from_wire && files_from_read(s) < 0)
			return 1;
	}
	/* -R: the SRCs become --files-from's names, below one SRC, whose
	 * implied directories -m's scan of whole trees does not know */
	if (s->relative && s->prune_empty) {
		diag_error(s->diag, 0, "-R with --prune-empty-dirs is not supported");
		return 1;
	}
	/* --files-from's transfer deletes as it goes: a pass before or after
	 * it (the safer --delete-after) would silently not be one */
	if (s->relative && !s->files_from && s->delete && s->delete_when != DEL_DURING) {
		diag_error(s->diag, 0, "-R with --delete-before, --delete-after or --delete-delay "
		                       "is not supported (-R deletes during the transfer)");
		return 1;
	}
	if (s->relative && !s->files_from && argc - optind >= 2) {
		if (relative_sources(s, argv + optind, argc - optind - 1) < 0)
			return 1;
		optind = argc - 2; /* the one SRC left, and DEST */
	}
	if (s->delete && !s->recursive && !s->files_from) {
		diag_error(s->diag, 0, "--delete does not work without --recursive (-r) or --dirs (-d).");
		return 1;
	}
	if (backups_check(s) < 0)
		return 1;
	if (s->append && s->whole_file) {
		diag_error(s->diag, 0, "--append cannot be used with --whole-file");
		return 1;
	}
	/* as rsync: the parts' directories are neither sent nor deleted, a
	 * rule after the user's ("-p DIR/") */
	if (s->copy.partial_dir) {
		struct strbuf rule = STRBUF_INIT;
		int r = sb_printf(&rule, "-p %s/", s->copy.partial_dir) < 0 ? -1 : filter_rule(s, rule.s);
		sb_free(&rule);
		if (r < 0)
			return 1;
	}
	engine_options(s);
	s->files = argv + optind;
	s->nfiles = argc - optind;
	/* a push's changes are the far end's to know */
	if (s->log_path && s->nfiles > 1 && remote_is_host_path(s->files[s->nfiles - 1])) {
		diag_error(s->diag, 0, "--log-file with a push to HOST:DEST is not supported");
		return 1;
	}
	return -1;
}
