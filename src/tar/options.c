/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c: sweep-tar's command line, GNU tar's options and messages.
 *
 * Operands are taken in order (getopt's "-" mode) because -C and -T are
 * positional: "-C a x -C b y" archives a/x and a/b/y. Mistakes are usage
 * errors, reported with GNU's hint, exit status 2.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "argmatch.h"
#include "paxopt.h"
#include "tar.h"

enum {
	OPT_EXCLUDE = 256, OPT_EXCLUDE_VCS, OPT_NULL, OPT_NO_NULL, OPT_VERBATIM,
	OPT_NO_VERBATIM, OPT_TOTALS, OPT_ZSTD,
	OPT_LZMA, OPT_LZIP, OPT_LZOP, OPT_FORCE_LOCAL, OPT_RESTRICT, OPT_REMOTE_COMMAND, OPT_NO_AUTO, OPT_ONE_FS, OPT_REMOVE_FILES, OPT_SKIP_OLD, OPT_KEEP_NEWER,
	OPT_BACKUP, OPT_SUFFIX, OPT_UNQUOTE, OPT_NO_UNQUOTE, OPT_WILDCARDS_SLASH,
	OPT_NO_WILDCARDS_SLASH,
	OPT_CHECKPOINT, OPT_CHECKPOINT_ACTION, OPT_MODE, OPT_NUMERIC, OPT_OWNER, OPT_GROUP, OPT_XATTRS,
	OPT_NO_XATTRS, OPT_ACLS, OPT_NO_ACLS, OPT_SORT, OPT_MEMORY, OPT_MEMORY_ENTRIES,
	OPT_NO_SAME_PERMS, OPT_SAME_OWNER, OPT_NO_SAME_OWNER, OPT_STRIP, OPT_FULL_TIME,
	OPT_PROGRESS, OPT_WILDCARDS, OPT_NO_WILDCARDS, OPT_ANCHORED, OPT_NO_ANCHORED,
	OPT_IGNORE_CASE, OPT_NO_IGNORE_CASE,
	OPT_POSIX, OPT_RECORD_SIZE, OPT_WARNING, OPT_RECURSION, OPT_NO_RECURSION, OPT_MTIME,
	OPT_CLAMP_MTIME, OPT_IGNORE_FAILED_READ, OPT_KEEP_DIR_SYMLINK, OPT_NEWER_MTIME,
	OPT_EXCLUDE_CACHES, OPT_EXCLUDE_CACHES_UNDER, OPT_EXCLUDE_CACHES_ALL, OPT_EXCLUDE_TAG,
	OPT_EXCLUDE_TAG_UNDER, OPT_EXCLUDE_TAG_ALL, OPT_EXCLUDE_BACKUPS, OPT_HELP,
	OPT_USAGE, OPT_TRANSFORM, OPT_SHOW_TRANSFORMED, OPT_OVERWRITE, OPT_OVERWRITE_DIR,
	OPT_NO_OVERWRITE_DIR, OPT_RECURSIVE_UNLINK, OPT_LEVEL, OPT_DELETE, OPT_TO_COMMAND,
	OPT_INDEX_FILE, OPT_OCCURRENCE, OPT_ONE_TOP_LEVEL, OPT_HARD_DEREF, OPT_ATIME_PRESERVE, OPT_PAX_OPTION,
	OPT_XATTRS_INCLUDE, OPT_XATTRS_EXCLUDE, OPT_SELINUX, OPT_NO_SELINUX, OPT_IGNORE_COMMAND_ERROR, OPT_NO_IGNORE_COMMAND_ERROR,
	OPT_VERSION, OPT_UTC, OPT_CHECK_DEVICE, OPT_NO_CHECK_DEVICE, OPT_ADD_FILE,
	OPT_ACCEPTED, /* options that change nothing here (see accepted_option) */
	OPT_HOLE_DETECTION, OPT_SPARSE_VERSION, OPT_QUOTING_STYLE, OPT_QUOTE_CHARS,
	OPT_NO_QUOTE_CHARS,
};

static const struct option long_options[] = {
	{ "create", no_argument, NULL, 'c' },
	{ "list", no_argument, NULL, 't' },
	{ "extract", no_argument, NULL, 'x' },
	{ "get", no_argument, NULL, 'x' },
	{ "append", no_argument, NULL, 'r' },
	{ "update", no_argument, NULL, 'u' },
	{ "catenate", no_argument, NULL, 'A' },
	{ "concatenate", no_argument, NULL, 'A' },
	{ "delete", no_argument, NULL, OPT_DELETE },
	{ "diff", no_argument, NULL, 'd' },
	{ "compare", no_argument, NULL, 'd' },
	{ "verify", no_argument, NULL, 'W' },
	{ "ignore-zeros", no_argument, NULL, 'i' },
	{ "label", required_argument, NULL, 'V' },
	{ "to-command", required_argument, NULL, OPT_TO_COMMAND },
	{ "ignore-command-error", no_argument, NULL, OPT_IGNORE_COMMAND_ERROR },
	{ "no-ignore-command-error", no_argument, NULL, OPT_NO_IGNORE_COMMAND_ERROR },
	{ "index-file", required_argument, NULL, OPT_INDEX_FILE },
	{ "occurrence", optional_argument, NULL, OPT_OCCURRENCE },
	{ "one-top-level", optional_argument, NULL, OPT_ONE_TOP_LEVEL },
	{ "hard-dereference", no_argument, NULL, OPT_HARD_DEREF },
	{ "atime-preserve", optional_argument, NULL, OPT_ATIME_PRESERVE },
	{ "pax-option", required_argument, NULL, OPT_PAX_OPTION },
	{ "xattrs-include", required_argument, NULL, OPT_XATTRS_INCLUDE },
	{ "xattrs-exclude", required_argument, NULL, OPT_XATTRS_EXCLUDE },
	{ "selinux", no_argument, NULL, OPT_SELINUX },
	{ "no-selinux", no_argument, NULL, OPT_NO_SELINUX },
	{ "file", required_argument, NULL, 'f' },
	{ "directory", required_argument, NULL, 'C' },
	{ "files-from", required_argument, NULL, 'T' },
	{ "null", no_argument, NULL, OPT_NULL },
	{ "no-null", no_argument, NULL, OPT_NO_NULL },
	{ "verbatim-files-from", no_argument, NULL, OPT_VERBATIM },
	{ "no-verbatim-files-from", no_argument, NULL, OPT_NO_VERBATIM },
	{ "verbose", no_argument, NULL, 'v' },
	{ "totals", optional_argument, NULL, OPT_TOTALS },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "checkpoint", optional_argument, NULL, OPT_CHECKPOINT },
	{ "checkpoint-action", required_argument, NULL, OPT_CHECKPOINT_ACTION },
	{ "blocking-factor", required_argument, NULL, 'b' },
	{ "record-size", required_argument, NULL, OPT_RECORD_SIZE },
	{ "gzip", no_argument, NULL, 'z' },
	{ "gunzip", no_argument, NULL, 'z' },
	{ "ungzip", no_argument, NULL, 'z' },
	{ "bzip2", no_argument, NULL, 'j' },
	{ "xz", no_argument, NULL, 'J' },
	{ "zstd", no_argument, NULL, OPT_ZSTD },
	{ "lzma", no_argument, NULL, OPT_LZMA },
	{ "lzip", no_argument, NULL, OPT_LZIP },
	{ "lzop", no_argument, NULL, OPT_LZOP },
	{ "force-local", no_argument, NULL, OPT_FORCE_LOCAL },
	{ "restrict", no_argument, NULL, OPT_RESTRICT },
	{ "rsh-command", required_argument, NULL, OPT_REMOTE_COMMAND },
	{ "rmt-command", required_argument, NULL, OPT_REMOTE_COMMAND },
	{ "check-links", no_argument, NULL, 'l' },
	{ "compress", no_argument, NULL, 'Z' },
	{ "uncompress", no_argument, NULL, 'Z' },
	{ "auto-compress", no_argument, NULL, 'a' },
	{ "use-compress-program", required_argument, NULL, 'I' },
	{ "no-auto-compress", no_argument, NULL, OPT_NO_AUTO },
	{ "format", required_argument, NULL, 'H' },
	{ "posix", no_argument, NULL, OPT_POSIX },
	{ "old-archive", no_argument, NULL, 'o' },
	{ "portability", no_argument, NULL, 'o' },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-from", required_argument, NULL, 'X' },
	{ "exclude-vcs", no_argument, NULL, OPT_EXCLUDE_VCS },
	{ "exclude-caches", no_argument, NULL, OPT_EXCLUDE_CACHES },
	{ "exclude-caches-under", no_argument, NULL, OPT_EXCLUDE_CACHES_UNDER },
	{ "exclude-caches-all", no_argument, NULL, OPT_EXCLUDE_CACHES_ALL },
	{ "exclude-tag", required_argument, NULL, OPT_EXCLUDE_TAG },
	{ "exclude-tag-under", required_argument, NULL, OPT_EXCLUDE_TAG_UNDER },
	{ "exclude-tag-all", required_argument, NULL, OPT_EXCLUDE_TAG_ALL },
	{ "exclude-backups", no_argument, NULL, OPT_EXCLUDE_BACKUPS },
	{ "wildcards", no_argument, NULL, OPT_WILDCARDS },
	{ "no-wildcards", no_argument, NULL, OPT_NO_WILDCARDS },
	{ "wildcards-match-slash", no_argument, NULL, OPT_WILDCARDS_SLASH },
	{ "no-wildcards-match-slash", no_argument, NULL, OPT_NO_WILDCARDS_SLASH },
	{ "anchored", no_argument, NULL, OPT_ANCHORED },
	{ "no-anchored", no_argument, NULL, OPT_NO_ANCHORED },
	{ "ignore-case", no_argument, NULL, OPT_IGNORE_CASE },
	{ "no-ignore-case", no_argument, NULL, OPT_NO_IGNORE_CASE },
	{ "one-file-system", no_argument, NULL, OPT_ONE_FS },
	{ "remove-files", no_argument, NULL, OPT_REMOVE_FILES },
	{ "ignore-failed-read", no_argument, NULL, OPT_IGNORE_FAILED_READ },
	{ "recursion", no_argument, NULL, OPT_RECURSION },
	{ "no-recursion", no_argument, NULL, OPT_NO_RECURSION },
	{ "numeric-owner", no_argument, NULL, OPT_NUMERIC },
	{ "mtime", required_argument, NULL, OPT_MTIME },
	{ "listed-incremental", required_argument, NULL, 'g' },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "incremental", no_argument, NULL, 'G' },
	{ "newer", required_argument, NULL, 'N' },
	{ "after-date", required_argument, NULL, 'N' },
	{ "newer-mtime", required_argument, NULL, OPT_NEWER_MTIME },
	{ "clamp-mtime", no_argument, NULL, OPT_CLAMP_MTIME },
	{ "owner", required_argument, NULL, OPT_OWNER },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "dereference", no_argument, NULL, 'h' },
	{ "sparse", no_argument, NULL, 'S' },
	{ "xattrs", no_argument, NULL, OPT_XATTRS },
	{ "no-xattrs", no_argument, NULL, OPT_NO_XATTRS },
	{ "acls", no_argument, NULL, OPT_ACLS },
	{ "no-acls", no_argument, NULL, OPT_NO_ACLS },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "memory-bound", required_argument, NULL, OPT_MEMORY },
	{ "memory-entries", required_argument, NULL, OPT_MEMORY_ENTRIES },
	{ "absolute-names", no_argument, NULL, 'P' },
	{ "preserve-permissions", no_argument, NULL, 'p' },
	{ "same-permissions", no_argument, NULL, 'p' },
	{ "no-same-permissions", no_argument, NULL, OPT_NO_SAME_PERMS },
	{ "same-owner", no_argument, NULL, OPT_SAME_OWNER },
	{ "no-same-owner", no_argument, NULL, OPT_NO_SAME_OWNER },
	{ "keep-old-files", no_argument, NULL, 'k' },
	{ "skip-old-files", no_argument, NULL, OPT_SKIP_OLD },
	{ "keep-newer-files", no_argument, NULL, OPT_KEEP_NEWER },
	{ "backup", optional_argument, NULL, OPT_BACKUP },
	{ "unquote", no_argument, NULL, OPT_UNQUOTE },
	{ "no-unquote", no_argument, NULL, OPT_NO_UNQUOTE },
	{ "suffix", required_argument, NULL, OPT_SUFFIX },
	{ "unlink-first", no_argument, NULL, 'U' },
	{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
	{ "overwrite-dir", no_argument, NULL, OPT_OVERWRITE_DIR },
	{ "no-overwrite-dir", no_argument, NULL, OPT_NO_OVERWRITE_DIR },
	{ "recursive-unlink", no_argument, NULL, OPT_RECURSIVE_UNLINK },
	{ "keep-directory-symlink", no_argument, NULL, OPT_KEEP_DIR_SYMLINK },
	{ "strip-components", required_argument, NULL, OPT_STRIP },
	{ "to-stdout", no_argument, NULL, 'O' },
	{ "touch", no_argument, NULL, 'm' },
	{ "full-time", no_argument, NULL, OPT_FULL_TIME },
	{ "warning", required_argument, NULL, OPT_WARNING },
	{ "transform", required_argument, NULL, OPT_TRANSFORM },
	{ "xform", required_argument, NULL, OPT_TRANSFORM },
	{ "show-transformed-names", no_argument, NULL, OPT_SHOW_TRANSFORMED },
	{ "show-stored-names", no_argument, NULL, OPT_SHOW_TRANSFORMED },
	{ "utc", no_argument, NULL, OPT_UTC },
	{ "check-device", no_argument, NULL, OPT_CHECK_DEVICE },
	{ "no-check-device", no_argument, NULL, OPT_NO_CHECK_DEVICE },
	{ "add-file", required_argument, NULL, OPT_ADD_FILE },
	/* accepted, and nothing to do: libarchive reads whole records from
	 * a pipe (-B); members are found in any order (-s); directories get
	 * their times at the end anyway; holes are found with SEEK_DATA;
	 * sparse members are written in the posix format; an archive file is
	 * seeked where it can be */
	{ "read-full-records", no_argument, NULL, 'B' },
	{ "same-order", no_argument, NULL, 's' },
	{ "preserve-order", no_argument, NULL, 's' },
	{ "delay-directory-restore", no_argument, NULL, OPT_ACCEPTED },
	{ "no-delay-directory-restore", no_argument, NULL, OPT_ACCEPTED },
	{ "seek", no_argument, NULL, OPT_ACCEPTED },
	{ "no-seek", no_argument, NULL, OPT_ACCEPTED },
	{ "hole-detection", required_argument, NULL, OPT_HOLE_DETECTION },
	{ "quoting-style", required_argument, NULL, OPT_QUOTING_STYLE },
	{ "quote-chars", required_argument, NULL, OPT_QUOTE_CHARS },
	{ "no-quote-chars", required_argument, NULL, OPT_NO_QUOTE_CHARS },
	{ "sparse-version", required_argument, NULL, OPT_SPARSE_VERSION },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char short_options[] = "-ctxruAdWiV:f:C:T:vb:zjJZaI:H:oX:hSPpkUOmN:g:GBsl";

/* The version-control names GNU tar's --exclude-vcs leaves out. */
static const char *const vcs_names[] = {
	"CVS", ".cvsignore", "RCS", "SCCS", ".svn", ".git", ".gitignore", ".gitattributes",
	".gitmodules", ".arch-ids", "{arch}", "=RELEASE-ID", "=meta-update", "=update",
	".bzr", ".bzrignore", ".bzrtags", ".hg", ".hgignore", ".hgtags", "_darcs", NULL,
};

/* What the options said before they are checked against each other. */
struct parse_state {
	bool ok;
	bool old_option;       /* -o: v7 on create, --no-same-owner otherwise */
	unsigned excl_flags;   /* --anchored, --wildcards for later --exclude */
	bool files_from;       /* -T: an empty list makes an empty archive */
	bool list_stdin;       /* -T -: the list is standard input */
	bool unanchored;       /* --no-anchored last: for the names that follow */
	bool casefold;         /* --ignore-case last: likewise */
	size_t marked;         /* the names added_names() has seen */
	int archives;          /* -f options seen */
	bool same_order;       /* -s: refused with -c, as GNU refuses it */
	struct tar *t;
	const char *reading;   /* the -T list being read, NULL: the command line */
	struct list_read *lists; /* every -T list read */
	size_t nlists;
	bool named;            /* a name came */
	struct strbuf trailing; /* positional options after the last name, each
	                          option NUL argument NUL ("" for none) */
};

static void usage(const char *prog)
{
	printf("Usage: %s [OPTION...] [FILE]...\n", prog);
	fputs("Create, list or extract tar archives; create reads the tree in disk order.\n\n"
	      "Examples:\n"
	      "  sweep-tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.\n"
	      "  sweep-tar -tvf archive.tar         # List all files in archive.tar verbosely.\n"
	      "  sweep-tar -xf archive.tar          # Extract all files from archive.tar.\n\n"
	      " Main operation mode:\n"
	      "  -c, --create               create a new archive\n"
	      "  -t, --list                 list the contents of an archive\n"
	      "  -x, --extract, --get       extract files from an archive\n"
	      "  -r, --append               append files to the end of an archive\n"
	      "  -u, --update               append files newer than their copy in the archive\n"
	      "  -A, --catenate, --concatenate  append archives to an archive\n"
	      "      --delete               delete members from an archive file\n"
	      "  -d, --diff, --compare      find differences between archive and files\n"
	      "  -W, --verify               compare the archive after writing it\n\n"
	      " Archive and names:\n"
	      "  -f, --file=ARCHIVE         use archive file ARCHIVE ('-': standard in/out)\n"
	      "  -C, --directory=DIR        change to directory DIR (also between names)\n"
	      "  -T, --files-from=FILE      get names to create or extract from FILE\n"
	      "      --null                 -T reads null-terminated names\n"
	      "      --verbatim-files-from  -T reads lines that start with '-' as names\n"
	      "  -b, --blocking-factor=N    N x 512 bytes per record (default 20)\n"
	      "  -i, --ignore-zeros         zero blocks do not end the archive\n"
	      "  -V, --label=TEXT           a volume label (create), or its pattern\n"
	      "      --index-file=FILE      send verbose output to FILE\n"
	      "      --quoting-style=STYLE  show names in STYLE: literal, shell, shell-always,\n"
	      "                             shell-escape, shell-escape-always, c, c-maybe,\n"
	      "                             escape (the default), locale, clocale\n"
	      "      --quote-chars=STRING   escape the characters of STRING too\n"
	      "      --no-quote-chars=STRING  but not those of STRING\n"
	      "  -l, --check-links          say the files not stored under all their names\n"
	      "      --force-local          an archive name with a colon is a local file\n"
	      "                             (else HOST:FILE is refused: no remote archives)\n"
	      "      --rsh-command=COMMAND, --rmt-command=COMMAND\n"
	      "                             taken, unused: no remote archives\n"
	      "      --restrict             disable the options that run commands from\n"
	      "                             prompts (there are none here: no volumes)\n"
	      "  -H, --format=FORMAT        gnu (default), posix, pax, ustar or v7\n"
	      "      --pax-option=LIST      posix extended headers: delete=PATTERN, KEY=VALUE,\n"
	      "                             KEY:=VALUE, exthdr.name=, globexthdr.name=\n"
	      "  -z, -j, -J, --zstd, --lzma, --lzip, --lzop, -Z  compress with gzip, bzip2,\n"
	      "                             xz, zstd...\n"
	      "  -a, --auto-compress        choose the compressor from the archive's suffix\n"
	      "  -I, --use-compress-program=PROG  filter through PROG ('zstd -T0'; must\n"
	      "                             accept -d to decompress)\n\n"
	      " Create:\n"
	      "      --exclude=PATTERN      leave out files matching PATTERN\n"
	      "  -X, --exclude-from=FILE    leave out patterns listed in FILE\n"
	      "      --exclude-vcs          leave out version control directories\n"
	      "      --exclude-backups      leave out backup files (*~, #*#, .#*)\n"
	      "      --exclude-caches[-under|-all]  leave out the contents of (all\n"
	      "                             under, or) directories with a CACHEDIR.TAG\n"
	      "      --exclude-tag[-under|-all]=FILE  the same for directories with FILE\n"
	      "      --one-file-system      stay in the file system of each name\n"
	      "      --no-recursion         directories without their contents\n"
	      "      --ignore-failed-read   unreadable files are warnings, not errors\n"
	      "      --remove-files         remove files after adding them to the archive\n"
	      "  -h, --dereference          archive what symlinks point to\n"
	      "  -S, --sparse               store holes of sparse files efficiently\n"
	      "      --hard-dereference     store every name of a file with its data\n"
	      "      --atime-preserve[=replace|system]  keep access times of files read\n"
	      "      --xattrs-include=PATTERN, --xattrs-exclude=PATTERN  which attributes\n"
	      "      --selinux, --no-selinux  SELinux contexts (none: SELinux is off)\n"
	      "      --xattrs, --acls       store extended attributes, POSIX ACLs\n"
	      "      --numeric-owner        store numbers only, no user or group names\n"
	      "      --mtime=DATE           store DATE as every member's time (@SECONDS,\n"
	      "                             YYYY-MM-DD[ HH:MM[:SS]][ UTC], or a file's)\n"
	      "      --clamp-mtime          only for members newer than DATE\n"
	      "  -N, --newer=DATE, --after-date=DATE  only files whose data or status\n"
	      "                             changed since DATE (or the file DATE names)\n"
	      "      --newer-mtime=DATE     only files whose data changed since DATE\n"
	      "      --owner=NAME[:UID], --group=NAME[:GID]  force owner or group\n"
	      "      --mode=CHANGES         force (symbolic or octal) mode CHANGES\n"
	      "      --sort=ORDER           disk (default), inode, name, none\n"
	      "      --memory-bound=SIZE    memory for the disk-order queue (default 64M)\n"
	      "  -g, --listed-incremental=FILE  incremental dump: only what changed since\n"
	      "                             the dump FILE describes; FILE is updated\n"
	      "      --level=0              a full dump, whatever FILE says\n"
	      "  -P, --absolute-names       keep leading '/' and '..' in member names\n"
	      "      --no-unquote           take names as given (by default \\\\, \\n, \\t,\n"
	      "                             \\NNN and the like in them are unquoted)\n"
	      "      --transform=EXPRESSION, --xform=EXPRESSION  edit names with sed's\n"
	      "                             s/REGEX/REPLACEMENT/[FLAGS] (also on extract)\n\n"
	      " Extract:\n"
	      "  -p, --same-permissions     restore permissions exactly (default as root)\n"
	      "      --same-owner           restore owners (default as root)\n"
	      "      --no-same-owner, --no-same-permissions\n"
	      "  -k, --keep-old-files       do not replace existing files\n"
	      "      --skip-old-files       do not replace existing files, in silence\n"
	      "      --keep-newer-files     do not replace files newer than their member\n"
	      "  -G, --incremental          extract incremental dumps: remove what the\n"
	      "                             dump says is gone (also -g FILE)\n"
	      "  -U, --unlink-first         remove each file before extracting over it\n"
	      "      --recursive-unlink     -U, directories with all they hold\n"
	      "      --overwrite            write over existing files, in place\n"
	      "      --no-overwrite-dir     keep existing directories' modes and owners\n"
	      "      --backup[=CONTROL]     rename a file aside before replacing it (and the\n"
	      "                             archive -c writes over): CONTROL none, off,\n"
	      "                             numbered, t, existing, nil, simple, never\n"
	      "                             (default VERSION_CONTROL, else existing)\n"
	      "      --suffix=STRING        --backup with a simple backup's suffix STRING\n"
	      "                             (default SIMPLE_BACKUP_SUFFIX, else '~')\n"
	      "      --overwrite-dir        set them (default)\n"
	      "      --keep-directory-symlink  keep links to directories in their place\n"
	      "      --strip-components=N   drop N leading components of member names\n"
	      "  -O, --to-stdout            extract file contents to standard output\n"
	      "      --to-command=COMMAND   pipe file contents to COMMAND\n"
	      "      --ignore-command-error  a failing COMMAND is no error\n"
	      "      --one-top-level[=DIR]  extract below DIR (the archive's name)\n"
	      "  -m, --touch                do not restore modification times\n"
	      "      --wildcards            names on the command line are patterns\n"
	      "      --ignore-case          names and patterns after it match either case\n"
	      "                             (--no-ignore-case: until this)\n"
	      "      --no-wildcards-match-slash  wildcards of the --exclude patterns after\n"
	      "                             it do not match '/' (--wildcards-match-slash:\n"
	      "                             they do, the default)\n\n"
	      " Output:\n"
	      "  -v, --verbose              list files processed (twice: long listing)\n"
	      "      --full-time            print times to the second\n"
	      "      --show-transformed-names, --show-stored-names  list names as\n"
	      "                             --transform made them\n"
	      "      --totals[=SIGNAL]      print the bytes moved at the end, or when\n"
	      "                             SIGNAL comes (HUP, QUIT, INT, USR1, USR2)\n"
	      "      --progress             a one-line progress display on a terminal\n"
	      "      --checkpoint[=[.]N]    a checkpoint every N records (10); .N: dots\n"
	      "      --checkpoint-action=ACTION  at each: dot, echo[=STRING] (%u: its\n"
	      "                             number), ttyout=STRING, exec=COMMAND\n"
	      "      --warning=[no-]KEYWORD  timestamp, file-changed, file-shrank,\n"
	      "                             file-removed, file-ignored, all, none\n"
	      "      --help, --version\n", stdout);
}

static bool set_mode(struct tar *t, enum tar_mode mode)
{
	if (t->opt.mode != MODE_NONE && t->opt.mode != mode) {
		tar_warn(t, 0, "You may not specify more than one '-Acdtrux', '--delete' or "
		               " '--test-label' option");
		return false;
	}
	t->opt.mode = mode;
	return true;
}

/* A whole number in [min, max]; -1 when arg is not one. */
static intmax_t parse_number(const char *arg, intmax_t min, intmax_t max)
{
	char *end;
	errno = 0;
	intmax_t v = strtoimax(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return -1;
	return v;
}

/* A size with an optional K, M or G suffix (powers of 1024); 0 when bad. */
static size_t parse_size(const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || arg[0] == '-')
		return 0;
	unsigned shift = 0;
	if (*end)
		shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 99;
	if (shift == 99 || (*end && end[1] && strcmp(end + 1, "iB") != 0 && strcmp(end + 1, "B") != 0))
		return 0;
	if (v > (SIZE_MAX >> shift))
		return 0;
	return (size_t)v << shift;
}

/* The id of a user or group name. */
static bool lookup_id(bool user, const char *name, intmax_t *id)
{
	if (user) {
		struct passwd *pw = getpwnam(name);
		if (pw)
			*id = pw->pw_uid;
		return pw != NULL;
	}
	struct group *gr = getgrnam(name);
	if (gr)
		*id = gr->gr_gid;
	return gr != NULL;
}

/* --owner=NAME[:ID] and --group=NAME[:ID]: a name, a number, or both. */
static bool parse_id(struct tar *t, const char *arg, bool user, intmax_t *id, char **name)
{
	const char *colon = strrchr(arg, ':');
	intmax_t n = parse_number(colon ? colon + 1 : arg, 0, UINT32_MAX - 1);
	free(*name);
	*name = NULL;
	if (colon) {
		/* GNU tar: a bad ID ends the run; no NAME is the ID's own name */
		if (n < 0) {
			tar_fatal(t, 0, "%s: Invalid owner or group ID", tq(t, 0, colon + 1));
			return false;
		}
		*id = n;
		if (colon > arg)
			*name = strndup(arg, (size_t)(colon - arg));
		else if (user && getpwuid((uid_t)n))
			*name = strdup(getpwuid((uid_t)n)->pw_name);
		else if (!user && getgrgid((gid_t)n))
			*name = strdup(getgrgid((gid_t)n)->gr_name);
		else
			return true; /* a number with no name here: stored so */
		if (!*name)
			goto bad;
		return true;
	}
	if (n >= 0) {
		*id = n;
		return true;
	}
	if (*arg && strspn(arg, "0123456789") == strlen(arg)) { /* GNU's: a number too big */
		tar_fatal(t, 0, "%s: Invalid owner or group ID", tq(t, 0, arg));
		return false;
	}
	if (!(*name = strdup(arg)))
		goto bad;
	/* GNU tar stores a name this system does not know (an archive for
	 * another system's users), or an empty one, with each file's own id */
	if (!*arg || !lookup_id(user, arg, id))
		*id = -1;
	return true;
bad:
	tar_warn(t, 0, "%s: Invalid %s", tq(t, 0, arg), user ? "owner" : "group");
	return false;
}

static bool parse_format(struct tar *t, const char *arg)
{
	static const char *const words[] = { "gnu", "oldgnu", "posix", "pax", "ustar", "v7", NULL };
	static const int values[] = { FMT_GNU, FMT_GNU, FMT_PAX, FMT_PAX, FMT_USTAR, FMT_V7 };
	int i = argmatch(arg, words, values);
	if (i < 0) {
		tar_warn(t, 0, "%s: Invalid archive format", tq(t, 0, arg));
		return false;
	}
	t->opt.format = (enum tar_format)values[i];
	return true;
}

static bool parse_sort(struct tar *t, const char *arg)
{
	static const char *const words[] = { "disk", "inode", "name", "none", NULL };
	static const int values[] = { SWEEP_ORDER_DISK, SWEEP_ORDER_INODE, SWEEP_ORDER_NAME,
	                              SWEEP_ORDER_NONE };
	int i = argmatch(arg, words, values);
	if (i < 0) {
		argmatch_report(t->diag, "--sort", arg, i, words, values);
		return false;
	}
	t->opt.order = (enum sweep_order)sweep_order_parse(words[i]);
	return true;
}

static bool add_exclude_file(struct tar *t, const char *file, unsigned flags)
{
	if (exclude_add_file(&t->opt.exclude, file, flags, '\n') == 0)
		return true;
	/* GNU tar says only the reason, not "Cannot open" */
	tar_fatal(t, errno, "%s", tq(t, 0, file));
	return false;
}

/* Exact names, without "and everything below": on create the walk leaves
 * the directory out whole; on extract GNU tar drops only the members of
 * these very names, and so does sweep-tar. */
static bool add_vcs(struct tar *t)
{
	for (int i = 0; vcs_names[i]; i++)
		if (exclude_add(&t->opt.exclude, vcs_names[i], EXCL_LITERAL) < 0)
			return false;
	return true;
}

/* GNU tar's backup file names: "~" at the end, "#" around, ".#" before. */
static bool add_backups(struct tar *t)
{
	static const char *const patterns[] = { "*~", "#*#", ".#*" };
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (exclude_add(&t->opt.exclude, patterns[i], 0) < 0)
			return false;
	return true;
}

static bool add_tag(struct tar *t, const char *name, enum tag_scope scope, bool cachedir)
{
	if (tags_add(&t->opt, name, scope, cachedir) == 0)
		return true;
	tar_fatal(t, ENOMEM, "memory exhausted");
	return false;
}

/* --warning=KEYWORD or no-KEYWORD; GNU's keywords sweep-tar never needs are
 * accepted and do nothing. */
static bool set_warning(struct tar *t, const char *arg)
{
	static const struct { const char *word; unsigned bit; } table[] = {
		{ "timestamp", WARN_TIMESTAMP }, { "file-changed", WARN_FILE_CHANGED },
		{ "file-shrank", WARN_FILE_SHRANK }, { "file-removed", WARN_FILE_REMOVED },
		{ "file-ignored", WARN_FILE_IGNORED }, { "unknown-keyword", WARN_UNKNOWN_KEYWORD },
		{ "bad-dumpdir", WARN_BAD_DUMPDIR },
		{ "all", ~0u },
	};
	bool no = strncmp(arg, "no-", 3) == 0;
	const char *word = no ? arg + 3 : arg;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(word, table[i].word) != 0)
			continue;
		if (no)
			t->opt.quiet |= table[i].bit;
		else
			t->opt.quiet &= ~table[i].bit;
		return true;
	}
	if (strcmp(word, "none") == 0)
		t->opt.quiet = no ? 0 : ~0u;
	return true;
}

/* A -T list read: the file, and who asked for it (a list's name, or
 * NULL: the command line). */
struct list_read {
	dev_t dev;
	ino_t ino;
	char *from;
};

/* Whether list st was read before: then said, as GNU tar says it (a list
 * that names itself would be read without end). Else it is noted. */
static bool read_before(struct tar *t, struct parse_state *ps, const char *file,
                        const struct stat *st)
{
	for (size_t i = 0; i < ps->nlists; i++) {
		const struct list_read *l = &ps->lists[i];
		if (l->dev != st->st_dev || l->ino != st->st_ino)
			continue;
		tar_error(t, 0, "%s: file list requested from %s already read from %s", tq(t, 0, file),
		          ps->reading ? tq(t, 1, ps->reading) : "command line",
		          l->from ? tq(t, 2, l->from) : "command line");
		return true;
	}
	struct list_read *v = reallocarray(ps->lists, ps->nlists + 1, sizeof(*v));
	if (v) {
		ps->lists = v;
		v[ps->nlists++] = (struct list_read){ st->st_dev, st->st_ino,
		                                      ps->reading ? strdup(ps->reading) : NULL };
	}
	return false;
}

/* -T FILE: GNU tar looks at the file before it opens it, and says which
 * failed. */
static bool add_names_file(struct tar *t, struct parse_state *ps, const char *file,
                           const struct names_hooks *h)
{
	struct stat st;
	bool is_stdin = strcmp(file, "-") == 0;
	if (!is_stdin && stat(file, &st) < 0) {
		tar_fatal(t, errno, "%s: Cannot stat", tq(t, 0, file));
		return false;
	}
	if (!is_stdin && read_before(t, ps, file, &st))
		return true;
	const char *outer = ps->reading;
	ps->reading = file;
	int r = names_add_file(t, file, h);
	ps->reading = outer;
	if (r == 0)
		return true;
	tar_fatal(t, errno, "%s: Cannot open", tq(t, 0, file));
	return false;
}

/* -b: a number of 512-byte blocks */
static bool set_blocking(struct tar *t, const char *arg)
{
	intmax_t n = parse_number(arg, 1, (intmax_t)(SIZE_MAX / 512 / 1024));
	if (n < 0) {
		tar_warn(t, 0, "%s: Invalid blocking factor", tq(t, 0, arg));
		return false;
	}
	t->opt.record_size = (size_t)n * 512;
	return true;
}

/* A decimal number with one of GNU tar's size letters after it (its
 * TAR_SIZE_SUFFIXES: b 512, c 1, w 2, B k K 1024, and the powers of 1024
 * M m G g T t P); false when arg is none, or too large. */
static bool tar_size(const char *arg, uintmax_t *out)
{
	static const char letters[] = "bcwBkKMmGgTtP";
	static const unsigned long long scale[] = {
		512, 1, 2, 1ULL << 10, 1ULL << 10, 1ULL << 10, 1ULL << 20, 1ULL << 20,
		1ULL << 30, 1ULL << 30, 1ULL << 40, 1ULL << 40, 1ULL << 50,
	};
	char *end;
	errno = 0;
	uintmax_t v = strtoumax(arg, &end, 10);
	if (errno || end == arg || strchr(arg, '-'))
		return false;
	const char *l = *end ? strchr(letters, *end) : NULL;
	if (*end && (!l || end[1]))
		return false;
	unsigned long long m = l ? scale[l - letters] : 1;
	if (v > SIZE_MAX / 1024 / m)
		return false;
	*out = v * m;
	return true;
}

/* GNU tar holds a whole record in memory, and a record that cannot be
 * held ends the run: sweep-tar pads its records as it writes them, and
 * would write such a one out as zeros until the disk is full. */
static bool record_fits(struct tar *t)
{
	void *record = malloc(t->opt.record_size);
	if (!record) {
		tar_fatal(t, 0, "memory exhausted");
		return false;
	}
	free(record);
	return true;
}

/* --record-size=NUMBER[SUFFIX], in GNU tar's words when it is wrong */
static bool set_record_size(struct tar *t, const char *arg)
{
	uintmax_t v;
	if (!tar_size(arg, &v)) {
		tar_warn(t, 0, "%s: Invalid record size", tq(t, 0, arg));
		return false;
	}
	if (v % 512) {
		tar_warn(t, 0, "Record size must be a multiple of 512.");
		return false;
	}
	if (v == 0) {
		tar_fatal(t, 0, "Invalid value for record_size");
		return false;
	}
	t->opt.record_size = (size_t)v;
	return true;
}

/* --atime-preserve[=replace|system] */
static bool set_atime_preserve(struct tar *t, const char *arg)
{
	static const char *const words[] = { "replace", "system", NULL };
	static const int values[] = { ATIME_REPLACE, ATIME_SYSTEM };
	if (!arg) {
		t->opt.atime_preserve = ATIME_REPLACE;
		return true;
	}
	int i = argmatch(arg, words, values);
	if (i < 0) {
		/* GNU tar ends here, with no hint */
		argmatch_report(t->diag, "--atime-preserve", arg, i, words, values);
		diag_fail(t->diag, TAR_FAILURE);
		t->fatal = true;
		return false;
	}
	t->opt.atime_preserve = (enum atime_preserve)values[i];
	return true;
}


/* GNU tar anchors a name as the last --anchored or --no-anchored before
 * it says, and matches its case as the last --[no-]ignore-case says, and
 * takes it for a pattern as the last --[no-]wildcards says: mark the names added since the last call (ok: they were).
 * Returns ok. */
static int added_names(struct tar_opts *o, struct parse_state *ps, int ok)
{
	for (; ps->marked < o->names.n; ps->marked++) {
		struct tar_name *n = &o->names.v[ps->marked];
		n->unanchored = ps->unanchored && !n->chdir;
		n->casefold = ps->casefold && !n->chdir;
		n->wildcards = o->wildcards && !n->chdir;
		n->no_slash = (ps->excl_flags & EXCL_PATHNAME) && !n->chdir;
		n->nexclude = o->exclude.n;
		n->ntags = o->ntags;
		n->no_recursion = o->no_recursion;
		if (!n->chdir) {
			ps->named = true;
			sb_reset(&ps->trailing);
		}
	}
	return ok;
}

/* GNU tar's position-sensitive options: they act on the names after them
 * (creating), and are the options a -T list may hold. */
static bool positional(int c)
{
	switch (c) {
	case 'C': case 'T': case 'X': case OPT_EXCLUDE: case OPT_EXCLUDE_VCS:
	case OPT_EXCLUDE_BACKUPS: case OPT_EXCLUDE_CACHES: case OPT_EXCLUDE_CACHES_UNDER:
	case OPT_EXCLUDE_CACHES_ALL: case OPT_EXCLUDE_TAG: case OPT_EXCLUDE_TAG_UNDER:
	case OPT_EXCLUDE_TAG_ALL: case OPT_ANCHORED: case OPT_NO_ANCHORED: case OPT_IGNORE_CASE:
	case OPT_NO_IGNORE_CASE: case OPT_WILDCARDS: case OPT_NO_WILDCARDS: case OPT_NULL:
	case OPT_NO_NULL: case OPT_VERBATIM: case OPT_NO_VERBATIM: case OPT_RECURSION:
	case OPT_NO_RECURSION: case OPT_UNQUOTE: case OPT_NO_UNQUOTE: case OPT_WILDCARDS_SLASH:
	case OPT_NO_WILDCARDS_SLASH:
		return true;
	}
	return false;
}

/* A positional option (c, arg) after the last name, noted for the warning
 * of check_trailing() (the names of a -T list reset it: -T is not one). */
static void note_trailing(struct parse_state *ps, int c, const char *arg)
{
	const char *name = c == 'C' ? "-C" : NULL;
	for (const struct option *lo = long_options; !name && lo->name; lo++)
		if (lo->val == c)
			name = lo->name;
	if (c == 'T' || !name)
		return;
	if ((c != 'C' && sb_addstr(&ps->trailing, "--") < 0) ||
	    sb_add(&ps->trailing, name, strlen(name) + 1) < 0 ||
	    sb_add(&ps->trailing, arg ? arg : "", arg ? strlen(arg) + 1 : 1) < 0)
		sb_reset(&ps->trailing); /* no memory: no warning */
}

static int main_option(struct tar *t, struct parse_state *ps, int c);
static int create_option(struct tar *t, struct parse_state *ps, int c);

/* The long option of a list named by name (len bytes: whole, or a prefix
 * of one only), or NULL. */
static const struct option *list_long(const char *name, size_t len)
{
	const struct option *found = NULL;
	for (const struct option *lo = long_options; lo->name; lo++) {
		if (strncmp(lo->name, name, len) != 0 || !positional(lo->val))
			continue;
		if (lo->name[len] == 0)
			return lo;
		if (found && found->val != lo->val)
			return NULL; /* ambiguous */
		found = lo;
	}
	return found;
}

/* One option of a -T list, its value (or NULL) into *arg, from words[*i]
 * on (*i moved past what it took). Returns its code, or -1. */
static int list_word(char **words, size_t n, size_t *i, char **arg)
{
	char *w = words[(*i)++];
	*arg = NULL;
	if (w[0] == '-' && w[1] && strchr("CTX", w[1])) {
		*arg = w[2] ? w + 2 : *i < n ? words[(*i)++] : NULL;
		return *arg ? w[1] : -1;
	}
	if (w[0] != '-' || w[1] != '-')
		return -1;
	char *eq = strchr(w + 2, '=');
	const struct option *lo = list_long(w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
	if (!lo || (eq && lo->has_arg == no_argument))
		return -1;
	if (lo->has_arg == required_argument)
		*arg = eq ? eq + 1 : *i < n ? words[(*i)++] : NULL;
	return lo->has_arg == required_argument && !*arg ? -1 : lo->val;
}

/* The options of a -T list line (names_hooks.option). One after the
 * list's last name acts on nothing, as on the command line, but GNU tar
 * says nothing of it. */
static int list_option(void *arg, char **words, size_t n)
{
	struct parse_state *ps = arg;
	int ok = 1;
	for (size_t i = 0; i < n;) {
		char *value;
		int c = list_word(words, n, &i, &value);
		if (c < 0)
			return -1;
		optarg = value;
		int r = main_option(ps->t, ps, c);
		if (r < 0)
			r = create_option(ps->t, ps, c);
		if (r <= 0)
			ok = 0;
	}
	return ok;
}

static void list_added(void *arg)
{
	struct parse_state *ps = arg;
	added_names(&ps->t->opt, ps, 1);
}

/* Creating, GNU tar's warning for positional options after the last name:
 * they act on nothing (the run goes on, and fails at its end). */
static void check_trailing(struct tar *t, struct parse_state *ps)
{
	enum tar_mode m = t->opt.mode;
	if (!ps->named || !ps->trailing.len ||
	    (m != MODE_CREATE && m != MODE_APPEND && m != MODE_UPDATE))
		return;
	tar_error(t, 0, "The following options were used after any non-optional arguments in "
	                "archive create or update mode.  These options are positional and affect "
	                "only arguments that follow them.  Please, rearrange them properly.");
	for (const char *p = ps->trailing.s; p < ps->trailing.s + ps->trailing.len;) {
		const char *arg = p + strlen(p) + 1;
		if (*arg)
			tar_error(t, 0, "%s %s has no effect", p, tquote(t, 0, arg));
		else
			tar_error(t, 0, "%s has no effect", p);
		p = arg + strlen(arg) + 1;
	}
}

/* The argument of an option accepted with nothing to do: --hole-detection
 * (seek, raw) and --sparse-version (a number, or MAJOR.MINOR), checked as
 * GNU tar checks them. Returns 1, or 0 (reported). */
static int accepted_arg(struct tar *t, const char *option, const char *arg)
{
	static const char *const holes[] = { "raw", "seek", NULL };
	static const int values[] = { 0, 1 };
	if (strcmp(option, "--hole-detection") == 0) {
		int i = argmatch(arg, holes, values);
		if (i >= 0)
			return 1;
		/* GNU tar ends here, with no hint */
		argmatch_report(t->diag, option, arg, i, holes, values);
		diag_fail(t->diag, TAR_FAILURE);
		t->fatal = true;
		return 0;
	}
	char *end;
	errno = 0;
	(void)strtoul(arg, &end, 10);
	if (*end == '.')
		(void)strtoul(end + 1, &end, 10);
	if (end != arg && !*end && !errno)
		return 1;
	tar_warn(t, 0, "Invalid sparse version value");
	return 0;
}

/* The options that choose what to do and with which archive. Returns 1 when
 * c was one of them and went well, 0 when it went wrong, -1 when c is not
 * one of them. */
static int main_option(struct tar *t, struct parse_state *ps, int c)
{
	struct tar_opts *o = &t->opt;
	switch (c) {
	case OPT_BACKUP:
		o->backup_wanted = true;
		o->backup_control = optarg ? optarg : o->backup_control;
		return 1;
	case OPT_SUFFIX: o->backup_wanted = true; o->backup_suffix = optarg; return 1;
	case OPT_UNQUOTE: o->no_unquote = false; return 1;
	case OPT_NO_UNQUOTE: o->no_unquote = true; return 1;
	case 'c': return set_mode(t, MODE_CREATE);
	case 't': return set_mode(t, MODE_LIST);
	case 'x': return set_mode(t, MODE_EXTRACT);
	case 'r': return set_mode(t, MODE_APPEND);
	case 'u': return set_mode(t, MODE_UPDATE);
	case 'A': return set_mode(t, MODE_CATENATE);
	case OPT_DELETE: return set_mode(t, MODE_DELETE);
	case 'd': return set_mode(t, MODE_DIFF);
	case 'W': o->verify = true; return 1;
	case 'i': o->ignore_zeros = true; return 1;
	case 'V':
		o->label = optarg;
		if (strlen(optarg) < 100)
			return 1;
		tar_warn(t, 0, "%s: Volume label is too long (limit is 99 bytes)", tq(t, 0, optarg));
		return 0;
	case OPT_INDEX_FILE: o->index_file = optarg; return 1;
	case OPT_ATIME_PRESERVE: return set_atime_preserve(t, optarg);
	case OPT_SELINUX: o->selinux = true; o->format = FMT_PAX; return 1;
	case OPT_NO_SELINUX: o->selinux = false; return 1;
	case OPT_XATTRS_INCLUDE:
	case OPT_XATTRS_EXCLUDE:
		/* GNU tar: they mean --xattrs, and so the posix format */
		o->xattrs = true;
		o->format = FMT_PAX;
		return exclude_add(c == OPT_XATTRS_INCLUDE ? &o->xattr_include : &o->xattr_exclude,
		                   optarg, EXCL_ANCHORED) == 0;
	case OPT_PAX_OPTION: return paxopt_add(t, optarg);
	case 'f': o->archive = optarg; ps->archives++; return 1;
	case 'C': return names_add(&o->names, optarg, true) == 0;
	case 'T': {
		const struct names_hooks h = { list_option, list_added, ps };
		if (strcmp(optarg, "-") == 0 && ps->list_stdin) {
			tar_warn(t, 0, "Options '-T' and '-T' both want standard input");
			return 0;
		}
		ps->list_stdin |= strcmp(optarg, "-") == 0;
		ps->files_from = true;
		return added_names(o, ps, add_names_file(t, ps, optarg, &h));
	}
	case OPT_NULL: o->null = true; return 1;
	case OPT_NO_NULL: o->null = false; return 1;
	case OPT_VERBATIM: o->verbatim_files_from = true; return 1;
	case OPT_NO_VERBATIM: o->verbatim_files_from = false; return 1;
	case 'v': o->verbose++; return 1;
	case OPT_TOTALS: o->totals = true; return optarg ? totals_signal(t, optarg) : 1;
	case OPT_PROGRESS: o->progress = true; return 1;
	case OPT_CHECKPOINT: return checkpoint_set(t, optarg);
	case OPT_CHECKPOINT_ACTION: return checkpoint_action(t, optarg);
	case OPT_FULL_TIME: o->full_time = true; return 1;
	case OPT_WARNING: return set_warning(t, optarg);
	case 'b': return set_blocking(t, optarg);
	case OPT_RECORD_SIZE: return set_record_size(t, optarg);
	case 'z': o->filter = FLT_GZIP; return 1;
	case 'j': o->filter = FLT_BZIP2; return 1;
	case 'J': o->filter = FLT_XZ; return 1;
	case OPT_ZSTD: o->filter = FLT_ZSTD; return 1;
	case OPT_LZMA: o->filter = FLT_LZMA; return 1;
	case OPT_LZIP: o->filter = FLT_LZIP; return 1;
	case OPT_LZOP: o->filter = FLT_LZOP; return 1;
	case OPT_FORCE_LOCAL: o->force_local = true; return 1;
	/* (no volume prompts to restrict; no remote archives to reach) */
	case OPT_RESTRICT:
	case OPT_REMOTE_COMMAND: return 1;
	case 'l': o->check_links = true; return 1;
	case 'Z': o->filter = FLT_COMPRESS; return 1;
	case 'a': o->auto_compress = true; return 1;
	case 'I': o->filter = FLT_PROGRAM; o->compress_program = optarg; return 1;
	case OPT_NO_AUTO: o->auto_compress = false; return 1;
	case 'H': return parse_format(t, optarg);
	case OPT_POSIX: o->format = FMT_PAX; return 1;
	case 'o': ps->old_option = true; return 1;
	case OPT_TRANSFORM: return xform_add(t, optarg);
	case OPT_SHOW_TRANSFORMED: o->xform.show = true; return 1;
	case OPT_UTC: o->utc = true; return 1;
	case 's': ps->same_order = true; return 1;
	case 'B': case OPT_ACCEPTED: return 1;
	case OPT_HOLE_DETECTION: return accepted_arg(t, "--hole-detection", optarg);
	case OPT_QUOTING_STYLE: return qstyle_parse(t, optarg) ? 1 : 0;
	case OPT_QUOTE_CHARS: o->quote_chars = optarg; return 1;
	case OPT_NO_QUOTE_CHARS: o->no_quote_chars = optarg; return 1;
	case OPT_SPARSE_VERSION: return accepted_arg(t, "--sparse-version", optarg);
	case OPT_ADD_FILE: /* a name, whatever it starts with */
	case 1: return added_names(o, ps, names_add_name(t, optarg, false) == 0);
	}
	return -1;
}

/* The options of -c; as main_option(). */
static int create_option(struct tar *t, struct parse_state *ps, int c)
{
	struct tar_opts *o = &t->opt;
	switch (c) {
	case OPT_EXCLUDE: return exclude_add(&o->exclude, optarg, ps->excl_flags) == 0;
	case 'X': return add_exclude_file(t, optarg, ps->excl_flags);
	case OPT_EXCLUDE_VCS: return add_vcs(t);
	case OPT_EXCLUDE_BACKUPS: return add_backups(t);
	case OPT_EXCLUDE_CACHES: return add_tag(t, "CACHEDIR.TAG", TAG_CONTENTS, true);
	case OPT_EXCLUDE_CACHES_UNDER: return add_tag(t, "CACHEDIR.TAG", TAG_UNDER, true);
	case OPT_EXCLUDE_CACHES_ALL: return add_tag(t, "CACHEDIR.TAG", TAG_ALL, true);
	case OPT_EXCLUDE_TAG: return add_tag(t, optarg, TAG_CONTENTS, false);
	case OPT_EXCLUDE_TAG_UNDER: return add_tag(t, optarg, TAG_UNDER, false);
	case OPT_EXCLUDE_TAG_ALL: return add_tag(t, optarg, TAG_ALL, false);
	case OPT_ANCHORED: ps->excl_flags |= EXCL_ANCHORED; ps->unanchored = false; return 1;
	case OPT_NO_ANCHORED: ps->excl_flags &= ~EXCL_ANCHORED; ps->unanchored = true; return 1;
	case OPT_IGNORE_CASE: ps->excl_flags |= EXCL_CASEFOLD; ps->casefold = true; return 1;
	case OPT_NO_IGNORE_CASE: ps->excl_flags &= ~EXCL_CASEFOLD; ps->casefold = false; return 1;
	case OPT_WILDCARDS_SLASH: ps->excl_flags &= ~EXCL_PATHNAME; return 1;
	case OPT_NO_WILDCARDS_SLASH: ps->excl_flags |= EXCL_PATHNAME; return 1;
	/* for the member names, and the --exclude options after them */
	case OPT_WILDCARDS:
		o->wildcards = o->wildcards_set = true;
		ps->excl_flags &= ~EXCL_LITERAL;
		return 1;
	case OPT_NO_WILDCARDS:
		o->wildcards = false;
		o->wildcards_set = true;
		ps->excl_flags |= EXCL_LITERAL;
		return 1;
	case OPT_ONE_FS: o->one_fs = true; return 1;
	case OPT_REMOVE_FILES: o->remove_files = true; return 1;
	case OPT_IGNORE_FAILED_READ: o->ignore_failed_read = true; return 1;
	case OPT_RECURSION: o->no_recursion = false; return 1;
	case OPT_NO_RECURSION: o->no_recursion = true; return 1;
	case OPT_NUMERIC: o->numeric_owner = true; return 1;
	case OPT_MTIME: return mtime_parse(t, optarg);
	case 'N': return newer_parse(t, optarg, false);
	case OPT_NEWER_MTIME: return newer_parse(t, optarg, true);
	case OPT_CLAMP_MTIME: o->clamp_mtime = true; return 1;
	case 'g': o->listed_incremental = optarg; return 1;
	case OPT_CHECK_DEVICE: o->no_check_device = false; return 1;
	case OPT_NO_CHECK_DEVICE: o->no_check_device = true; return 1;
	case OPT_LEVEL: {
		intmax_t n = parse_number(optarg, 0, INT32_MAX);
		if (n < 0)
			tar_warn(t, 0, "%s: Invalid incremental level value", tq(t, 0, optarg));
		o->level = (int)n;
		return n >= 0;
	}
	case OPT_MODE: return modechg_set(t, optarg);
	case OPT_HARD_DEREF: o->hard_dereference = true; return 1;
	case OPT_OWNER: return parse_id(t, optarg, true, &o->owner_id, &o->owner_name);
	case OPT_GROUP: return parse_id(t, optarg, false, &o->group_id, &o->group_name);
	case 'h': o->dereference = true; return 1;
	case 'S': o->sparse = true; return 1;
	case OPT_XATTRS: o->xattrs = true; return 1;
	case OPT_NO_XATTRS: o->xattrs = false; return 1;
	case OPT_ACLS: o->acls = true; return 1;
	case OPT_NO_ACLS: o->acls = false; return 1;
	case OPT_SORT: return parse_sort(t, optarg);
	case OPT_MEMORY: return (o->mem_bytes = parse_size(optarg)) != 0 ||
	                        (tar_warn(t, 0, "%s: Invalid size", tq(t, 0, optarg)), 0);
	case OPT_MEMORY_ENTRIES:
		return (o->mem_entries = parse_size(optarg)) != 0 ||
		       (tar_warn(t, 0, "%s: Invalid number", tq(t, 0, optarg)), 0);
	case 'P': o->absolute = true; return 1;
	}
	return -1;
}

/* What to do with files already there: one way only, as in GNU tar, which
 * names the options long however they were given. Returns 1, or 0
 * (reported). */
static int old_files(struct tar *t, const char *name)
{
	const char *before = t->opt.old_files;
	if (before && strcmp(before, name) != 0) {
		tar_warn(t, 0, "'--%s' cannot be used with '--%s'", name, before);
		return 0;
	}
	t->opt.old_files = name;
	return 1;
}

/* The options of -t and -x; as main_option(). */
static int extract_option(struct tar *t, int c)
{
	struct tar_opts *o = &t->opt;
	switch (c) {
	case 'p': o->same_perms = 1; return 1;
	case OPT_NO_SAME_PERMS: o->same_perms = 0; return 1;
	case OPT_SAME_OWNER: o->same_owner = 1; return 1;
	case OPT_NO_SAME_OWNER: o->same_owner = 0; return 1;
	case 'k': o->keep_old = true; return old_files(t, "keep-old-files");
	case OPT_SKIP_OLD: o->skip_old = true; return old_files(t, "skip-old-files");
	case OPT_KEEP_NEWER: o->keep_newer = true; return old_files(t, "keep-newer-files");
	case 'U': o->unlink_first = true; return old_files(t, "unlink-first");
	case OPT_OVERWRITE: o->overwrite = true; return old_files(t, "overwrite");
	case OPT_OVERWRITE_DIR: o->no_overwrite_dir = false; return old_files(t, "overwrite-dir");
	case OPT_NO_OVERWRITE_DIR: o->no_overwrite_dir = true; return old_files(t, "no-overwrite-dir");
	case OPT_RECURSIVE_UNLINK: o->recursive_unlink = true; return 1;
	case OPT_KEEP_DIR_SYMLINK: o->keep_directory_symlink = true; return 1;
	case 'G': o->incremental = true; return 1;
	case 'O': o->to_stdout = true; return 1;
	case OPT_TO_COMMAND: o->to_command = optarg; return 1;
	case OPT_IGNORE_COMMAND_ERROR: o->ignore_command_error = true; return 1;
	case OPT_NO_IGNORE_COMMAND_ERROR: o->ignore_command_error = false; return 1;
	case OPT_ONE_TOP_LEVEL: o->one_top_level = optarg ? optarg : ""; return 1;
	case OPT_OCCURRENCE: {
		intmax_t n = optarg ? parse_number(optarg, 0, INTMAX_MAX) : 1;
		if (n < 0)
			tar_fatal(t, 0, "%s: Invalid number", tq(t, 0, optarg));
		o->occurrence = n < 0 ? 0 : (uintmax_t)n;
		return n >= 0;
	}
	case 'm': o->touch = true; return 1;
	case OPT_STRIP: {
		intmax_t n = parse_number(optarg, 0, INT32_MAX);
		if (n < 0)
			tar_warn(t, 0, "%s: Invalid number of elements", tq(t, 0, optarg));
		o->strip = (int)n;
		return n >= 0;
	}
	}
	return -1;
}

/* The operations on an archive file (-r, -u, -A, --delete) and -W, with
 * what GNU tar refuses them. Returns false after a usage error (reported). */
static bool check_archive_ops(struct tar *t)
{
	struct tar_opts *o = &t->opt;
	bool updating = o->mode == MODE_APPEND || o->mode == MODE_UPDATE || o->mode == MODE_DELETE;
	bool compressed = o->filter != FLT_NONE;
	if (updating && compressed) {
		tar_warn(t, 0, "Cannot update compressed archives");
		return false;
	}
	if (o->mode == MODE_CATENATE && compressed) {
		tar_warn(t, 0, "Cannot concatenate compressed archives");
		return false;
	}
	if (o->verify && compressed) {
		tar_warn(t, 0, "Cannot verify compressed archives");
		return false;
	}
	if (o->verify && o->mode != MODE_CREATE && o->mode != MODE_APPEND && o->mode != MODE_UPDATE) {
		static const char *const names[] = { [MODE_LIST] = "-t", [MODE_EXTRACT] = "-x",
		                                     [MODE_CATENATE] = "-A", [MODE_DELETE] = "--delete",
		                                     [MODE_DIFF] = "-d" };
		tar_warn(t, 0, "'--verify' cannot be used with '%s'", names[o->mode]);
		return false;
	}
	const char *archive = o->archive;
	if (!archive) {
		const char *tape = getenv("TAPE");
		archive = tape && *tape ? tape : "-";
	}
	bool on_stdio = strcmp(archive, "-") == 0;
	if ((o->mode == MODE_APPEND || o->mode == MODE_UPDATE || o->mode == MODE_CATENATE) &&
	    on_stdio) {
		tar_warn(t, 0, "Options '-Aru' are incompatible with '-f -'");
		return false;
	}
	return true;
}

/* --one-top-level without DIR: the archive's name without its directory
 * and its ".tar" and compression suffixes, as GNU tar deduces it. NULL
 * when there is none to strip. */
static char *top_level_name(const char *archive)
{
	static const char *const suffixes[] = {
		"tar", "gz", "tgz", "taz", "Z", "taZ", "bz2", "tbz", "tbz2", "tz2", "lz",
		"lzma", "tlz", "lzo", "xz", "txz", "zst", "tzst", NULL,
	};
	const char *base = strrchr(archive, '/');
	base = base ? base + 1 : archive;
	const char *dot = strrchr(base, '.');
	int i;
	for (i = 0; dot && suffixes[i]; i++)
		if (strcmp(dot + 1, suffixes[i]) == 0)
			break;
	if (!dot || !suffixes[i])
		return NULL;
	size_t len = (size_t)(dot - base);
	/* a ".tar" before an outer suffix that does not itself begin with 't' */
	if (i > 0 && suffixes[i][0] != 't' && len > 4 && strncmp(dot - 4, ".tar", 4) == 0)
		len -= 4;
	return len ? strndup(base, len) : NULL;
}

static bool check_top_level(struct tar *t)
{
	struct tar_opts *o = &t->opt;
	if (!o->one_top_level)
		return true;
	if (o->absolute) {
		tar_warn(t, 0, "'--one-top-level' cannot be used with '--absolute-names'");
		return false;
	}
	if (*o->one_top_level)
		return true;
	const char *archive = o->archive ? o->archive : getenv("TAPE");
	char *dir = top_level_name(archive && *archive ? archive : "-");
	if (!dir) {
		tar_warn(t, 0, "Cannot deduce top-level directory name; please set it explicitly "
		               "with --one-top-level=DIR");
		return false;
	}
	o->top_level_dir = dir;
	o->one_top_level = dir;
	return true;
}

/* --occurrence: with names, to list, extract, compare or delete, as GNU
 * tar's. Returns false after a usage error (reported). */
static bool check_occurrence(struct tar *t, const struct parse_state *ps)
{
	static const char *const modes[] = { [MODE_CREATE] = "-c", [MODE_APPEND] = "-r",
	                                     [MODE_UPDATE] = "-u", [MODE_CATENATE] = "-A" };
	enum tar_mode m = t->opt.mode;
	if (!names_any(&t->opt.names) && !ps->files_from) {
		tar_warn(t, 0, "--occurrence is meaningless without a file list");
		return false;
	}
	if (m == MODE_CREATE || m == MODE_APPEND || m == MODE_UPDATE || m == MODE_CATENATE) {
		tar_warn(t, 0, "'--occurrence' cannot be used with '%s'", modes[m]);
		return false;
	}
	return true;
}

/* Settle what depends on more than one option. Returns false after a usage
 * error (reported). */
/* GNU tar takes HOST:FILE (a colon after the first character, no '/'
 * before it) for an archive on another machine, reached through rmt;
 * there are none here: refused, rather than a local file of that name
 * made or read in its place (--force-local asks for that). */
static bool archive_local(struct tar *t)
{
	const char *name = t->opt.archive, *colon = name ? strchr(name, ':') : NULL;
	if (t->opt.force_local || !colon || colon == name || memchr(name, '/', (size_t)(colon - name)))
		return true;
	tar_fatal(t, 0, "%s: Cannot open: remote archives are not supported (--force-local: "
	          "the local file of that name)", tq(t, 0, name));
	return false;
}

static bool check_options(struct tar *t, struct parse_state *ps)
{
	struct tar_opts *o = &t->opt;
	if (ps->archives > 1) {
		tar_warn(t, 0, "Multiple archive files require '-M' option");
		return false;
	}
	if (o->mode == MODE_NONE) {
		tar_warn(t, 0, "You must specify one of the '-Acdtrux', '--delete' or "
		               "'--test-label' options");
		return false;
	}
	if (o->mode == MODE_CREATE && ps->same_order) {
		tar_warn(t, 0, "'--same-order' cannot be used with '-c'");
		return false;
	}
	if (o->mode == MODE_CREATE && !names_any(&o->names) && !ps->files_from) {
		tar_warn(t, 0, "Cowardly refusing to create an empty archive");
		return false;
	}
	if (o->occurrence && !check_occurrence(t, ps))
		return false;
	bool reads = o->mode == MODE_LIST || o->mode == MODE_EXTRACT || o->mode == MODE_DIFF ||
	             o->mode == MODE_DELETE;
	if (reads && ps->list_stdin && o->archive && strcmp(o->archive, "-") == 0) {
		tar_warn(t, 0, "Options '-f' and '-T' both want standard input");
		return false;
	}
	if (o->mode == MODE_CREATE && o->sparse && o->format == FMT_GNU)
		tar_warn(t, 0, "--sparse: sparse members are written in the posix format, "
		               "not --format=gnu");
	/* only pax has a place for them: GNU tar refuses rather than drop
	 * them in silence */
	bool posix = o->format == FMT_DEFAULT || o->format == FMT_PAX;
	if (o->pax && o->format == FMT_DEFAULT)
		o->format = FMT_PAX;
	bool writes = o->mode == MODE_CREATE || o->mode == MODE_APPEND ||
	              o->mode == MODE_UPDATE || o->mode == MODE_CATENATE || o->mode == MODE_DELETE;
	if (o->pax && writes && o->format != FMT_PAX) {
		tar_warn(t, 0, "--pax-option can be used only on POSIX archives");
		return false;
	}
	if (!paxopt_check_mode(t))
		return false;
	if (o->mode == MODE_CREATE && o->selinux && o->format != FMT_PAX) {
		tar_warn(t, 0, "--selinux can be used only on POSIX archives");
		return false;
	}
	if (o->mode == MODE_CREATE && !posix && (o->acls || o->xattrs)) {
		tar_warn(t, 0, "--%s can be used only on POSIX archives", o->acls ? "acls" : "xattrs");
		return false;
	}
	/* GNU tar's check: what only gnu (or posix) can hold */
	if (o->mode == MODE_CREATE && (o->format == FMT_USTAR || o->format == FMT_V7) &&
	    (o->sparse || o->listed_incremental || o->incremental)) {
		tar_warn(t, 0, "GNU features wanted on incompatible archive format");
		return false;
	}
	/* the 'D' members are written raw, in the gnu format (dumpdir.c) */
	if (o->listed_incremental && o->mode == MODE_CREATE &&
	    ((o->format != FMT_DEFAULT && o->format != FMT_GNU) || o->xattrs || o->acls ||
	     o->sparse)) {
		tar_warn(t, 0, "--listed-incremental: sweep-tar writes incremental archives "
		               "in the gnu format only (no --xattrs, --acls, --sparse)");
		return false;
	}
	/* on extract GNU tar reads no snapshot file: -g is -G */
	if (o->listed_incremental && o->mode != MODE_CREATE)
		o->incremental = true;
	if (o->incremental && o->mode == MODE_CREATE && !o->listed_incremental) {
		tar_warn(t, 0, "--incremental: sweep-tar writes incremental archives with "
		               "--listed-incremental only");
		return false;
	}
	if (!check_archive_ops(t) || !check_top_level(t))
		return false;
	if (ps->old_option) {
		if (o->mode == MODE_CREATE)
			o->format = FMT_V7;
		else
			o->same_owner = 0;
	}
	if (!o->archive) {
		const char *tape = getenv("TAPE");
		o->archive = tape && *tape ? tape : "-";
	}
	/* GNU tar: --recursive-unlink is -U, whatever else was said */
	if (o->recursive_unlink) {
		o->unlink_first = true;
		o->keep_old = o->skip_old = o->keep_newer = false;
		o->overwrite = o->no_overwrite_dir = false;
	}
	if (o->same_owner < 0)
		o->same_owner = geteuid() == 0;
	if (o->same_perms < 0)
		o->same_perms = geteuid() == 0;
	return true;
}

static void parse_state_free(struct parse_state *ps)
{
	sb_free(&ps->trailing);
	for (size_t i = 0; i < ps->nlists; i++)
		free(ps->lists[i].from);
	free(ps->lists);
}

/* --help, --usage, --version: said, and TAR_OK; -1 for any other c. */
static int informative(struct tar *t, int c)
{
	switch (c) {
	case OPT_HELP:
		usage(t->diag->prog);
		return TAR_OK;
	case OPT_USAGE:
		printf("Usage: %s [-ctxvzjJaSPphkUOm] [-f ARCHIVE] [-C DIR] [-T FILE] "
		       "[-b N] [-H FORMAT] [FILE]...\n", t->diag->prog);
		return TAR_OK;
	case OPT_VERSION:
		printf("sweep-tar (sweep) %s\n", PACKAGE_VERSION);
		return TAR_OK;
	}
	return -1;
}

int tar_parse_options(struct tar *t, int argc, char **argv)
{
	/* GNU tar's patterns also exclude what lies below a match. */
	struct parse_state ps = { .ok = true, .excl_flags = EXCL_LEADING_DIR, .t = t,
	                          .trailing = STRBUF_INIT };
	struct tar_opts *o = &t->opt;
	o->same_perms = o->same_owner = -1;
	o->owner_id = o->group_id = -1;
	o->record_size = 20 * 512;
	o->order = SWEEP_ORDER_DISK;
	o->xform.scopes = XFORM_ALL;
	o->level = -1;
	int c;
	bool bad_getopt = false;
	/* getopt's own messages ("invalid option -- 'q'") name argv[0]. */
	argv[0] = (char *)t->diag->prog;
	optind = 0; /* getopt starts afresh, "-" mode included, on each call */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		int r = main_option(t, &ps, c);
		if (r < 0)
			r = create_option(t, &ps, c);
		if (r < 0)
			r = extract_option(t, c);
		int done = r < 0 ? informative(t, c) : -1;
		if (done >= 0 || t->fatal) {
			parse_state_free(&ps);
			return done >= 0 ? done : TAR_FAILURE;
		}
		if (r <= 0)
			ps.ok = false;
		else if (positional(c))
			note_trailing(&ps, c, optarg);
		/* getopt's complaints end in EX_USAGE, as GNU tar's argp's do. */
		if (c == '?')
			bad_getopt = true;
	}
	/* getopt stops at "--": every word after it is a name, as GNU tar's
	 * argp takes it ("-C" there names a file) */
	for (int i = optind; i < argc && ps.ok; i++) {
		optarg = argv[i];
		if (main_option(t, &ps, 1) <= 0)
			ps.ok = false;
	}
	bool ok = ps.ok && check_options(t, &ps);
	if (ok)
		check_trailing(t, &ps);
	parse_state_free(&ps);
	/* (a CONTROL naming nothing: GNU's list of words, no "Try") */
	if (ok && !tar_backup_resolve(t))
		return TAR_FAILURE;
	if (ok && !record_fits(t))
		return TAR_FAILURE;
	if (ok && !archive_local(t))
		return TAR_FAILURE;
	if (!ok) {
		fprintf(stderr, "Try '%s --help' or '%s --usage' for more information.\n",
		        t->diag->prog, t->diag->prog);
		return bad_getopt ? TAR_USAGE : TAR_FAILURE;
	}
	return -1;
}

void tar_free_options(struct tar_opts *opt)
{
	exclude_free(&opt->exclude);
	names_free(&opt->names);
	free(opt->owner_name);
	free(opt->group_name);
	free(opt->tags);
	xform_free(&opt->xform);
	paxopt_free(opt->pax);
	free(opt->top_level_dir);
	exclude_free(&opt->xattr_include);
	exclude_free(&opt->xattr_exclude);
}
