/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c: sweep-du's command line, GNU du's options and messages.
 *
 * Like GNU du, most mistakes are reported and parsing goes on, so that one
 * run shows every bad option; the usage hint and status 1 come at the end.
 * -B, -t and a bad --time-style stop at once, as they do in GNU du.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "argmatch.h"
#include "du.h"
#include "human.h"
#include "walkenv.h"

enum {
	OPT_APPARENT = 256, OPT_EXCLUDE, OPT_FILES0, OPT_INODES, OPT_SI, OPT_TIME,
	OPT_TIME_STYLE, OPT_HELP, OPT_VERSION,
};

/* In GNU du's order, which shows in the "ambiguous option" message. */
static const struct option long_options[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "apparent-size", no_argument, NULL, 'A' },
	{ "block-size", required_argument, NULL, 'B' },
	{ "bytes", no_argument, NULL, 'b' },
	{ "count-links", no_argument, NULL, 'l' },
	{ "dereference", no_argument, NULL, 'L' },
	{ "dereference-args", no_argument, NULL, 'D' },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-from", required_argument, NULL, 'X' },
	{ "files0-from", required_argument, NULL, OPT_FILES0 },
	{ "human-readable", no_argument, NULL, 'h' },
	{ "inodes", no_argument, NULL, OPT_INODES },
	{ "si", no_argument, NULL, OPT_SI },
	{ "max-depth", required_argument, NULL, 'd' },
	{ "null", no_argument, NULL, '0' },
	{ "no-dereference", no_argument, NULL, 'P' },
	{ "one-file-system", no_argument, NULL, 'x' },
	{ "separate-dirs", no_argument, NULL, 'S' },
	{ "summarize", no_argument, NULL, 's' },
	{ "total", no_argument, NULL, 'c' },
	{ "threshold", required_argument, NULL, 't' },
	{ "time", optional_argument, NULL, OPT_TIME },
	{ "time-style", required_argument, NULL, OPT_TIME_STYLE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char *const time_words[] = { "atime", "access", "use", "ctime", "status", NULL };
static const int time_kinds[] = { DU_ATIME, DU_ATIME, DU_ATIME, DU_CTIME, DU_CTIME };

/* What the options said before they are checked against each other. */
struct parse_state {
	bool ok;
	bool summarize;
	bool depth_given;
	bool units_given;
	const char *time_style;
	const char *files0;
	int longind;
};

static void usage(const char *prog)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	       "  or:  %s [OPTION]... --files0-from=F\n", prog, prog);
	fputs("Summarize device usage of the set of FILEs, recursively for directories,\n"
	      "reading the tree in disk order. Options and output are GNU du's.\n\n"
	      "  -0, --null            end each output line with NUL, not newline\n"
	      "  -a, --all             write counts for all files, not just directories\n"
	      "  -A, --apparent-size   print apparent sizes rather than device usage\n"
	      "  -B, --block-size=SIZE  scale sizes by SIZE before printing them\n"
	      "  -b, --bytes           equivalent to '--apparent-size --block-size=1'\n"
	      "  -c, --total           produce a grand total\n"
	      "  -D, --dereference-args  dereference only symlinks on the command line\n"
	      "  -d, --max-depth=N     print totals only N or fewer levels below an argument\n"
	      "      --files0-from=F   summarize the NUL-terminated file names in F\n"
	      "  -H                    equivalent to --dereference-args (-D)\n"
	      "  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)\n"
	      "      --inodes          list inode usage information instead of block usage\n"
	      "  -k                    like --block-size=1K\n"
	      "  -L, --dereference     dereference all symbolic links\n"
	      "  -l, --count-links     count sizes many times if hard linked\n"
	      "  -m                    like --block-size=1M\n"
	      "  -P, --no-dereference  don't follow any symbolic links (the default)\n"
	      "  -S, --separate-dirs   for directories do not include size of subdirectories\n"
	      "      --si              like -h, but use powers of 1000 not 1024\n"
	      "  -s, --summarize       display only a total for each argument\n"
	      "  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,\n"
	      "                          or entries greater than SIZE if negative\n"
	      "      --time[=WORD]     show the newest modification (WORD: atime, access,\n"
	      "                          use, ctime or status) time in each directory\n"
	      "      --time-style=STYLE  full-iso, long-iso, iso, or +FORMAT\n"
	      "  -X, --exclude-from=FILE  exclude files that match any pattern in FILE\n"
	      "      --exclude=PATTERN    exclude files that match PATTERN\n"
	      "  -x, --one-file-system    skip directories on different file systems\n"
	      "      --help     display this help and exit\n"
	      "      --version  output version information and exit\n\n"
	      "Lines come in depth-first order, siblings sorted by name. The environment\n"
	      "variable SWEEP_ORDER (disk, inode, name, none) overrides the walk order.\n",
	      stdout);
}

/* The option as GNU names it in messages: "-B" or "--block-size". */
static void option_name(const struct parse_state *ps, int c, char *buf, size_t size)
{
	if (ps->longind >= 0)
		snprintf(buf, size, "--%s", long_options[ps->longind].name);
	else
		snprintf(buf, size, "-%c", c);
}

static int parse_threshold(struct du_opts *opt, const struct parse_state *ps,
                           const char *arg, struct diag *d)
{
	char name[32];
	option_name(ps, 't', name, sizeof(name));
	const char *p = arg + strspn(arg, " \t\n\v\f\r");
	bool neg = *p == '-';
	uintmax_t v = 0;
	/* a digit right after the sign, as strtoimax() wants one ("- 4" and
	 * "-K" are invalid: GNU's); the most negative number is one */
	int err = neg && !isdigit((unsigned char)p[1]) ? UNITS_INVALID
	          : units_scaled(neg ? p + 1 : arg, "kKmMGTPEZY0", &v);
	bool most_negative = neg && v == (uintmax_t)INTMAX_MAX + 1;
	if (!err && v > (uintmax_t)INTMAX_MAX && !most_negative)
		err = UNITS_OVERFLOW;
	if (err) {
		units_error(d, err, name, arg);
		return 1;
	}
	if (*arg == '-' && v == 0) { /* (GNU looks at the first character only) */
		diag_error(d, 0, "invalid --threshold argument '-0'");
		return 1;
	}
	opt->threshold = most_negative ? INTMAX_MIN : neg ? -(intmax_t)v : (intmax_t)v;
	return -1;
}

static void parse_depth(struct du_opts *opt, struct parse_state *ps, const char *arg,
                        struct diag *d)
{
	char *end;
	errno = 0;
	intmax_t v = strtoimax(arg, &end, 0);
	if (errno || end == arg || *end || v < 0) {
		diag_error(d, 0, "invalid maximum depth %s", diag_quote_style(d, 0, QUOTE_LOCALE, arg));
		ps->ok = false;
		return;
	}
	opt->max_depth = v;
	ps->depth_given = true;
}

static int parse_time(struct du_opts *opt, const char *arg, struct diag *d)
{
	opt->show_time = true;
	if (!arg)
		return -1;
	int i = argmatch(arg, time_words, time_kinds);
	if (i < 0) {
		argmatch_report(d, "--time", arg, i, time_words, time_kinds);
		diag_try_help(d);
		return 1;
	}
	opt->time_kind = (enum du_time)time_kinds[i];
	return -1;
}

static void set_units(struct du_opts *opt, struct parse_state *ps, uint64_t bs, unsigned human)
{
	opt->block_size = bs;
	opt->human = human;
	ps->units_given = true;
}

static int parse_block_size(struct du_opts *opt, struct parse_state *ps, const char *arg,
                            struct diag *d)
{
	char name[32];
	option_name(ps, 'B', name, sizeof(name));
	int err = units_parse(arg, &opt->block_size, &opt->human);
	if (err) {
		units_error(d, err, name, arg);
		return 1;
	}
	ps->units_given = true;
	return -1;
}

static void add_exclude_file(struct du_opts *opt, struct parse_state *ps, const char *file,
                             struct diag *d)
{
	if (exclude_add_file(&opt->exclude, file, 0, '\n') == 0)
		return;
	diag_error(d, errno, "%s", diag_quote_style(d, 0, QUOTE_SHELL_COLON, file));
	ps->ok = false;
}

/* One option; -1 to go on, or an exit status. */
static int parse_one(struct du_opts *opt, struct parse_state *ps, int c, const char *arg,
                     struct diag *d)
{
	switch (c) {
	case '0': opt->null = true; break;
	case 'a': opt->all = true; break;
	case 'A': opt->apparent = true; break;
	case 'b': opt->apparent = true; set_units(opt, ps, 1, 0); break;
	case 'B': return parse_block_size(opt, ps, arg, d);
	case 'c': opt->total = true; break;
	case 'd': parse_depth(opt, ps, arg, d); break;
	case 'D': case 'H': opt->follow = SWEEP_FOLLOW_ROOTS; break;
	case 'L': opt->follow = SWEEP_FOLLOW_ALL; break;
	case 'P': opt->follow = SWEEP_FOLLOW_NONE; break;
	case 'h': set_units(opt, ps, 1, HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024); break;
	case OPT_SI: set_units(opt, ps, 1, HUMAN_AUTOSCALE | HUMAN_SUFFIX); break;
	case 'k': set_units(opt, ps, 1024, 0); break;
	case 'm': set_units(opt, ps, 1024 * 1024, 0); break;
	case OPT_INODES: opt->inodes = true; break;
	case 'l': opt->count_links = true; break;
	case 's': ps->summarize = true; break;
	case 'S': opt->separate_dirs = true; break;
	case 't': return parse_threshold(opt, ps, arg, d);
	case 'x': opt->xdev = true; break;
	case 'X': add_exclude_file(opt, ps, arg, d); break;
	case OPT_EXCLUDE:
		if (exclude_add(&opt->exclude, arg, 0) < 0) {
			diag_error(d, errno, "%s", "--exclude");
			return 1;
		}
		break;
	case OPT_FILES0: ps->files0 = arg; break;
	case OPT_TIME: return parse_time(opt, arg, d);
	case OPT_TIME_STYLE: ps->time_style = arg; break;
	case OPT_HELP: usage(d->prog); return 0;
	case OPT_VERSION: printf("%s (sweep) %s\n", d->prog, PACKAGE_VERSION); return 0;
	default: ps->ok = false; break;
	}
	return -1;
}

/* The options that depend on each other. -1 to go on, or an exit status. */
static int check_options(struct du_opts *opt, struct parse_state *ps, struct diag *d)
{
	if (!ps->ok) {
		diag_try_help(d);
		return 1;
	}
	if (opt->all && ps->summarize) {
		diag_error(d, 0, "cannot both summarize and show all entries");
		diag_try_help(d);
		return 1;
	}
	if (ps->summarize && ps->depth_given && opt->max_depth == 0)
		diag_warn(d, 0, "warning: summarizing is the same as using --max-depth=0");
	if (ps->summarize && ps->depth_given && opt->max_depth != 0) {
		diag_error(d, 0, "warning: summarizing conflicts with --max-depth=%jd",
		           opt->max_depth);
		diag_try_help(d);
		return 1;
	}
	if (ps->summarize)
		opt->max_depth = 0;
	if (opt->inodes) {
		if (opt->apparent)
			diag_warn(d, 0, "warning: options --apparent-size and -b are "
			                "ineffective with --inodes");
		opt->block_size = 1;
	}
	if (opt->show_time)
		return timefmt_choose(opt, ps->time_style, d);
	return -1;
}

/* Names from --files0-from: NUL-terminated, "-" for standard input. */
static int read_files0(struct du_opts *opt, const char *file, struct diag *d)
{
	bool is_stdin = strcmp(file, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(file, "re");
	if (!fp) {
		diag_error(d, errno, "cannot open %s for reading",
		           diag_quote_style(d, 0, QUOTE_SHELL_ALWAYS, file));
		return 1;
	}
	struct strbuf sb = STRBUF_INIT;
	char chunk[8192];
	size_t n;
	int status = -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		if (sb_add(&sb, chunk, n) < 0)
			break;
	if (ferror(fp) || n > 0) {
		diag_error(d, errno, "%s: read error", diag_quote_style(d, 0, QUOTE_SHELL_COLON, file));
		status = 1;
		goto out;
	}
	size_t count = 0;
	for (size_t i = 0; i < sb.len; i++)
		count += sb.s[i] == 0;
	count += sb.len && sb.s[sb.len - 1] != 0;
	opt->roots = calloc(count + 1, sizeof(*opt->roots));
	if (!opt->roots) {
		diag_error(d, errno, "memory exhausted");
		status = 1;
		goto out;
	}
	opt->roots_owned = true;
	size_t k = 0;
	for (size_t i = 0; i < sb.len; i += strlen(sb.s + i) + 1)
		if (!(opt->roots[k++] = strdup(sb.s + i))) {
			diag_error(d, errno, "memory exhausted");
			status = 1;
			goto out;
		}
out:
	if (!is_stdin)
		fclose(fp);
	sb_free(&sb);
	return status;
}

/* Trailing slashes of each root cut to one, as GNU du's fts cuts them:
 * "a//" is walked, and said, as "a/", "///" as "/" ("//" stays: POSIX
 * leaves its meaning to the system). */
static void one_trailing_slash(char **roots)
{
	for (; *roots; roots++) {
		char *r = *roots;
		size_t n = strlen(r);
		if (n > 2 && strspn(r, "/") == n)
			r[1] = 0;
		while (n > 2 && r[n - 1] == '/' && r[n - 2] == '/')
			r[--n] = 0;
	}
}

static int take_operands(struct du_opts *opt, struct parse_state *ps, int argc, char **argv,
                         struct diag *d)
{
	static char *dot[] = { ".", NULL };
	if (ps->files0) {
		if (optind < argc) {
			diag_error(d, 0, "extra operand %s",
			           diag_quote_style(d, 0, QUOTE_LOCALE, argv[optind]));
			fputs("file operands cannot be combined with --files0-from\n", stderr);
			diag_try_help(d);
			return 1;
		}
		opt->hash_all = true;
		opt->files0 = ps->files0;
		int r = read_files0(opt, ps->files0, d);
		if (opt->roots)
			one_trailing_slash(opt->roots);
		return r;
	}
	opt->roots = optind < argc ? argv + optind : dot;
	one_trailing_slash(opt->roots);
	opt->hash_all = argc - optind > 1;
	return -1;
}

int du_parse_options(struct du_opts *opt, int argc, char **argv, struct diag *d)
{
	*opt = (struct du_opts){ .max_depth = -1, .order = SWEEP_ORDER_AUTO };
	struct parse_state ps = { .ok = true };
	argv[0] = (char *)d->prog; /* getopt's messages name argv[0] */
	int c;
	while ((ps.longind = -1,
	        c = getopt_long(argc, argv, "0Aabd:chHklmst:xB:DLPSX:", long_options,
	                        &ps.longind)) != -1) {
		int status = parse_one(opt, &ps, c, optarg, d);
		if (status >= 0)
			return status;
	}
	if (!ps.units_given && units_parse(NULL, &opt->block_size, &opt->human) != 0)
		opt->block_size = 1024;
	int status = check_options(opt, &ps, d);
	if (status >= 0)
		return status;
	if (opt->follow == SWEEP_FOLLOW_ALL)
		opt->hash_all = true;
	walkenv_read(&opt->order, &opt->warm);
	status = take_operands(opt, &ps, argc, argv, d);
	if (opt->follow == SWEEP_FOLLOW_ALL)
		opt->hash_all = true;
	return status;
}

void du_free_options(struct du_opts *opt)
{
	if (opt->roots_owned) {
		for (size_t i = 0; opt->roots[i]; i++)
			free(opt->roots[i]);
		free(opt->roots);
	}
	free(opt->time_format);
	exclude_free(&opt->exclude);
}
