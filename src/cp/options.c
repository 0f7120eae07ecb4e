/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c: sweep-cp's command line: GNU cp's options, their meaning and
 * their messages. Mistakes are usage errors, reported with GNU's hint,
 * exit status 1 as GNU cp's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "argmatch.h"
#include "cp.h"
#include "scaled.h"
#include "walkenv.h"

enum {
	OPT_ATTRIBUTES_ONLY = 256, OPT_BACKUP, OPT_NO_PRESERVE, OPT_PARENTS, OPT_PRESERVE,
	OPT_REFLINK, OPT_REMOVE_DESTINATION, OPT_SPARSE, OPT_STRIP_TRAILING_SLASHES,
	OPT_PROGRESS, OPT_WRITE_BATCH, OPT_WRITE_BEHIND,
	OPT_NO_WRITE_THREAD, OPT_HELP, OPT_VERSION,
};

static const struct option long_options[] = {
	{ "archive", no_argument, NULL, 'a' },
	{ "attributes-only", no_argument, NULL, OPT_ATTRIBUTES_ONLY },
	{ "backup", optional_argument, NULL, OPT_BACKUP },
	{ "dereference", no_argument, NULL, 'L' },
	{ "force", no_argument, NULL, 'f' },
	{ "interactive", no_argument, NULL, 'i' },
	{ "link", no_argument, NULL, 'l' },
	{ "no-clobber", no_argument, NULL, 'n' },
	{ "no-dereference", no_argument, NULL, 'P' },
	{ "no-preserve", required_argument, NULL, OPT_NO_PRESERVE },
	{ "no-target-directory", no_argument, NULL, 'T' },
	{ "one-file-system", no_argument, NULL, 'x' },
	{ "parents", no_argument, NULL, OPT_PARENTS },
	{ "preserve", optional_argument, NULL, OPT_PRESERVE },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "recursive", no_argument, NULL, 'R' },
	{ "reflink", optional_argument, NULL, OPT_REFLINK },
	{ "remove-destination", no_argument, NULL, OPT_REMOVE_DESTINATION },
	{ "sparse", required_argument, NULL, OPT_SPARSE },
	{ "strip-trailing-slashes", no_argument, NULL, OPT_STRIP_TRAILING_SLASHES },
	{ "suffix", required_argument, NULL, 'S' },
	{ "symbolic-link", no_argument, NULL, 's' },
	{ "target-directory", required_argument, NULL, 't' },
	{ "update", no_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "write-batch", required_argument, NULL, OPT_WRITE_BATCH },
	{ "write-behind", no_argument, NULL, OPT_WRITE_BEHIND },
	{ "no-write-thread", no_argument, NULL, OPT_NO_WRITE_THREAD },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char short_options[] = "abdfHilLnprst:uvxPRS:T";

static const char *const sparse_words[] = { "never", "auto", "always", NULL };
static const int sparse_values[] = { COPY_SPARSE_NEVER, COPY_SPARSE_AUTO, COPY_SPARSE_ALWAYS };
static const char *const reflink_words[] = { "auto", "always", "never", NULL };
static const int reflink_values[] = { COPY_REFLINK_AUTO, COPY_REFLINK_ALWAYS,
	                              COPY_REFLINK_NEVER };
enum { P_MODE, P_TIMESTAMPS, P_OWNERSHIP, P_LINKS, P_CONTEXT, P_XATTR, P_ALL };
static const char *const preserve_words[] = { "mode", "timestamps", "ownership", "links",
	                                      "context", "xattr", "all", NULL };
static const int preserve_values[] = { P_MODE, P_TIMESTAMPS, P_OWNERSHIP, P_LINKS,
	                               P_CONTEXT, P_XATTR, P_ALL };

static void usage(const char *prog)
{
	printf("Usage: %s [OPTION]... [-T] SOURCE DEST\n"
	       "  or:  %s [OPTION]... SOURCE... DIRECTORY\n"
	       "  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n", prog, prog, prog);
	fputs("Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY, reading each\n"
	      "source tree in the order of its disk (libsweep).\n"
	      "\n"
	      "  -a, --archive                same as -dR --preserve=all\n"
	      "      --attributes-only        don't copy the file data, just the attributes\n"
	      "      --backup[=CONTROL]       make a backup of each existing destination file\n"
	      "  -b                           like --backup but does not accept an argument\n"
	      "  -d                           same as --no-dereference --preserve=links\n"
	      "  -f, --force                  if an existing destination file cannot be\n"
	      "                                 opened, remove it and try again\n"
	      "  -i, --interactive            prompt before overwrite (overrides a previous -n)\n"
	      "  -H                           follow command-line symbolic links in SOURCE\n"
	      "  -l, --link                   hard link files instead of copying\n"
	      "  -L, --dereference            always follow symbolic links in SOURCE\n"
	      "  -n, --no-clobber             do not overwrite an existing file (overrides a\n"
	      "                                 previous -i option)\n"
	      "  -P, --no-dereference         never follow symbolic links in SOURCE\n"
	      "  -p                           same as --preserve=mode,ownership,timestamps\n"
	      "      --preserve[=ATTR_LIST]   preserve the specified attributes (default:\n"
	      "                                 mode,ownership,timestamps), if possible\n"
	      "                                 additional attributes: context, links, xattr,\n"
	      "                                 all\n"
	      "      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n"
	      "      --parents                use full source file name under DIRECTORY\n"
	      "      --progress               show files and bytes copied, the rate and the\n"
	      "                                 time left on standard error, if a terminal\n"
	      "  -R, -r, --recursive          copy directories recursively\n"
	      "      --reflink[=WHEN]         control clone/CoW copies. See below\n"
	      "      --remove-destination     remove each existing destination file before\n"
	      "                                 attempting to open it (contrast with --force)\n"
	      "      --sparse=WHEN            control creation of sparse files. See below\n"
	      "      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n"
	      "                                 argument\n"
	      "  -s, --symbolic-link          make symbolic links instead of copying\n"
	      "  -S, --suffix=SUFFIX          override the usual backup suffix\n"
	      "  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n"
	      "  -T, --no-target-directory    treat DEST as a normal file\n"
	      "  -u, --update                 copy only when the SOURCE file is newer\n"
	      "                                 than the destination file or when the\n"
	      "                                 destination file is missing\n"
	      "  -v, --verbose                explain what is being done\n"
	      "      --write-batch=SIZE       read SIZE bytes (K, M, G), then write them\n"
	      "                                 out before reading on; 0: leave it to\n"
	      "                                 the kernel's writeback; auto (the\n"
	      "                                 default): batches onto a disk that seeks\n"
	      "      --write-behind           write a batch out while reading the next\n"
	      "                                 (auto onto another disk than the source)\n"
	      "      --no-write-thread        copy every file's data on the walk's own\n"
	      "                                 thread, not a second one\n"
	      "  -x, --one-file-system        stay on this file system\n"
	      "      --help        display this help and exit\n"
	      "      --version     output version information and exit\n"
	      "\n"
	      "--sparse=auto (the default) keeps the holes of sparse SOURCE files;\n"
	      "--sparse=always also makes holes of runs of zero blocks; --sparse=never\n"
	      "writes every byte. --reflink (--reflink=always) clones the data, or fails;\n"
	      "--reflink=auto (the default) clones where it can and copies elsewhere.\n"
	      "\n"
	      "The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.\n"
	      "The version control method may be selected via the --backup option or through\n"
	      "the VERSION_CONTROL environment variable.  Here are the values:\n"
	      "\n"
	      "  none, off       never make backups (even if --backup is given)\n"
	      "  numbered, t     make numbered backups\n"
	      "  existing, nil   numbered if numbered backups exist, simple otherwise\n"
	      "  simple, never   always make simple backups\n"
	      "\n"
	      "SWEEP_ORDER (disk, inode, name, none, block, auto), SWEEP_WARM (on, off,\n"
	      "auto) and SWEEP_DEPTH (on) choose the walk's order, its helper threads and\n"
	      "its directory reads in flight.\n", stdout);
}

/* A word from a list, or a usage error. Returns the value or -1. */
static int choose(struct cp *cp, const char *context, const char *arg,
                  const char *const *words, const int *values)
{
	int i = argmatch(arg, words, values);
	if (i >= 0)
		return values[i];
	argmatch_report(cp->diag, context, arg, i, words, values);
	diag_try_help(cp->diag);
	return -1;
}

/* --write-batch=SIZE|auto. Returns 0 or -1 (reported). */
static int write_batch(struct cp *cp, const char *arg)
{
	cp->copy.write_batch_auto = strcmp(arg, "auto") == 0;
	if (cp->copy.write_batch_auto)
		return 0;
	uintmax_t v;
	int err = units_scaled(arg, "kKMGT", &v);
	if (!err && v > UINT64_MAX)
		err = UNITS_OVERFLOW;
	if (err) {
		units_error(cp->diag, err, "--write-batch", arg);
		diag_try_help(cp->diag);
		return -1;
	}
	cp->copy.write_batch = v;
	return 0;
}

/* --preserve=LIST and --no-preserve=LIST. Returns 0 or -1 (reported). */
static int preserve_list(struct cp *cp, const char *list, bool on)
{
	struct copy_opts *o = &cp->copy;
	char *copy = strdup(list ? list : "mode,ownership,timestamps"), *rest = copy;
	int r = copy ? 0 : -1;
	/* (an empty word, "" or "mode,,links", is GNU's "ambiguous argument") */
	for (char *w = copy ? strsep(&rest, ",") : NULL; w && r == 0; w = strsep(&rest, ",")) {
		int v = choose(cp, on ? "--preserve" : "--no-preserve", w, preserve_words,
		               preserve_values);
		if (v < 0)
			r = -1;
		if (v == P_MODE || v == P_ALL) {
			o->preserve_mode = on;
			o->no_preserve_mode = !on;
		}
		if (v == P_TIMESTAMPS || v == P_ALL)
			o->preserve_times = on;
		if (v == P_OWNERSHIP || v == P_ALL)
			o->preserve_owner = on;
		if (v == P_LINKS || v == P_ALL)
			o->preserve_links = on;
		if (v == P_XATTR || v == P_ALL)
			o->preserve_xattr = on;
		if (v == P_XATTR)
			o->require_xattr = on;
		if (v == P_CONTEXT)
			cp->context = on;
	}
	free(copy);
	return r;
}

/* The backup method from --backup's argument or VERSION_CONTROL. */
static int backup_method(struct cp *cp, const char *arg)
{
	/* (a bad value is said as coming from where it came) */
	const char *context = arg && *arg ? "backup type" : "$VERSION_CONTROL";
	arg = backup_control(arg);
	return arg ? choose(cp, context, arg, backup_words, backup_values) : BACKUP_EXISTING;
}

/* One option. Returns 0, or -1 after a usage error (reported). */
static int take_option(struct cp *cp, int c, const char *arg)
{
	struct copy_opts *o = &cp->copy;
	int v = 0;
	switch (c) {
	case 'a':
		o->recursive = true;
		o->follow = SWEEP_FOLLOW_NONE;
		cp->follow_set = true;
		o->preserve_mode = o->preserve_owner = o->preserve_times = true;
		o->preserve_links = o->preserve_xattr = o->require_preserve = true;
		o->no_preserve_mode = false;
		break;
	case 'd':
		o->follow = SWEEP_FOLLOW_NONE;
		cp->follow_set = true;
		o->preserve_links = true;
		break;
	case 'p':
		o->preserve_mode = o->preserve_owner = o->preserve_times = true;
		o->require_preserve = true;
		o->no_preserve_mode = false;
		break;
	case OPT_PRESERVE:
		o->require_preserve = true;
		return preserve_list(cp, arg, true);
	case OPT_NO_PRESERVE:
		return preserve_list(cp, arg, false);
	case 'P': case 'H': case 'L':
		o->follow = c == 'P' ? SWEEP_FOLLOW_NONE : c == 'H' ? SWEEP_FOLLOW_ROOTS
		                                                    : SWEEP_FOLLOW_ALL;
		cp->follow_set = true;
		break;
	case 'r': case 'R': o->recursive = true; break;
	case 'f': o->force = true; break;
	case 'i': o->exist = COPY_INTERACTIVE; break;
	case 'n': o->exist = COPY_NO_CLOBBER; break;
	case 'u': o->update = true; break;
	case 'v': o->verbose = true; break;
	case 'x': o->one_fs = true; break;
	case 'l': o->hard_link = true; break;
	case 's': o->symbolic_link = true; break;
	case 't': cp->target_dir = arg; break;
	case 'T': cp->no_target_dir = true; break;
	/* backups asked for; of which kind, the last --backup=CONTROL says
	 * once all options are in (whatever comes first: GNU's way) */
	case 'S': o->suffix = arg; cp->backups = true; break;
	case 'b': cp->backups = true; break;
	case OPT_BACKUP: cp->backups = true; cp->backup_control = arg ? arg : cp->backup_control;
		break;
	case OPT_PARENTS: cp->parents = true; break;
	case OPT_ATTRIBUTES_ONLY: o->attributes_only = true; break;
	case OPT_REMOVE_DESTINATION: o->remove_destination = true; break;
	case OPT_STRIP_TRAILING_SLASHES: cp->strip_slashes = true; break;
	case OPT_PROGRESS: cp->progress_wanted = true; break;
	case OPT_WRITE_BATCH: v = write_batch(cp, arg); break;
	case OPT_WRITE_BEHIND: cp->copy.write_behind = true; break;
	case OPT_NO_WRITE_THREAD: cp->copy.no_write_thread = true; break;
	case OPT_SPARSE:
		v = choose(cp, "--sparse", arg, sparse_words, sparse_values);
		o->sparse = v < 0 ? COPY_SPARSE_AUTO : (enum copy_sparse)v;
		break;
	case OPT_REFLINK:
		v = arg ? choose(cp, "--reflink", arg, reflink_words, reflink_values)
		        : COPY_REFLINK_ALWAYS;
		o->reflink = v < 0 ? COPY_REFLINK_NEVER : (enum copy_reflink)v;
		break;
	default:
		diag_try_help(cp->diag);
		return -1;
	}
	return v < 0 ? -1 : 0;
}

/* What GNU cp refuses once all options are in. Returns 0 or -1. */
static int check_options(struct cp *cp)
{
	struct copy_opts *o = &cp->copy;
	if (cp->target_dir && cp->no_target_dir) {
		diag_error(cp->diag, 0, "cannot combine --target-directory (-t) and "
		                        "--no-target-directory (-T)");
		return -1;
	}
	if (o->hard_link && o->symbolic_link) {
		diag_error(cp->diag, 0, "cannot make both hard and symbolic links");
		diag_try_help(cp->diag);
		return -1;
	}
	if (o->backup && o->exist == COPY_NO_CLOBBER) {
		diag_error(cp->diag, 0, "options --backup and --no-clobber are mutually exclusive");
		diag_try_help(cp->diag);
		return -1;
	}
	if (o->reflink == COPY_REFLINK_ALWAYS && o->sparse != COPY_SPARSE_AUTO) {
		diag_error(cp->diag, 0, "--reflink can be used only with --sparse=auto");
		diag_try_help(cp->diag);
		return -1;
	}
	if (cp->context) {
		diag_error(cp->diag, 0, "cannot preserve security context without an "
		                        "SELinux-enabled kernel");
		return -1;
	}
	return 0;
}

int cp_parse_options(struct cp *cp, int argc, char **argv)
{
	struct copy_opts *o = &cp->copy;
	o->reflink = COPY_REFLINK_AUTO; /* GNU cp's default since 9.0 */
	o->write_batch_auto = true;
	o->suffix = backup_suffix_env();
	int c;
	/* getopt's own messages name the program as GNU's do */
	argv[0] = (char *)cp->diag->prog;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == OPT_HELP) {
			usage(cp->diag->prog);
			return 0;
		}
		if (c == OPT_VERSION) {
			printf("%s (sweep) %s\n", cp->diag->prog, PACKAGE_VERSION);
			return 0;
		}
		if (take_option(cp, c, optarg) < 0)
			return 1;
	}
	int v = cp->backups ? backup_method(cp, cp->backup_control) : BACKUP_NONE;
	if (v < 0)
		return 1;
	o->backup = (enum backup_type)v;
	if (check_options(cp) < 0)
		return 1;
	if (!cp->follow_set)
		o->follow = o->recursive && !o->hard_link ? SWEEP_FOLLOW_NONE : SWEEP_FOLLOW_ALL;
	walkenv_read(&o->order, &o->warm);
	o->ask = cp_ask;
	o->arg = cp;
	cp->files = argv + optind;
	cp->nfiles = argc - optind;
	return -1;
}
