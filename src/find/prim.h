/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prim.h: the parsers of sweep-find's primaries, for the table in
 * primaries.c, and the helpers they share. Each parser reads its arguments
 * through the parser, fills in the expression and returns 0, or reports the
 * mistake and returns the exit status.
 */
#ifndef SWEEP_FIND_PRIM_H
#define SWEEP_FIND_PRIM_H

#include "find.h"

/* ptests.c */
parse_fn parse_name, parse_iname, parse_path, parse_ipath, parse_regex, parse_iregex,
	parse_lname, parse_ilname, parse_type, parse_xtype, parse_size, parse_empty,
	parse_newer, parse_anewer, parse_cnewer, parse_amin, parse_cmin, parse_mmin,
	parse_atime, parse_ctime, parse_mtime, parse_user, parse_group, parse_uid,
	parse_gid, parse_nouser, parse_nogroup, parse_perm, parse_links, parse_inum,
	parse_samefile, parse_readable, parse_writable, parse_executable, parse_true,
	parse_false, parse_newerxy, parse_used, parse_regextype;

/* context.c */
parse_fn parse_context;

/* fstype.c */
parse_fn parse_fstype;

/* files0.c */
parse_fn parse_files0_from;
/* The starting points -files0-from names, into f->roots; the operands
 * given before the expression (first of them, n) are refused. Returns -1 to
 * go on, or the exit status (reported). */
int files0_roots(struct find *f, char **operands, int n);

/* actions.c */
parse_fn parse_print, parse_print0, parse_printf, parse_fprint, parse_fprint0,
	parse_fprintf, parse_ls, parse_fls, parse_delete, parse_quit, parse_prune;

/* exec.c */
parse_fn parse_exec, parse_execdir, parse_ok, parse_okdir;

/* args.c */
/* "[+-]N": a comparison and an unsigned integer (N as GNU reads it: spaces
 * and a plus sign may lead); false when it is not. */
bool args_cmp_uint(const char *s, enum cmp *cmp, uintmax_t *n);
/* The -mtime/-mmin family: fills x->a.time from s. */
bool args_time(struct find *f, const char *s, char which, bool days, struct time_arg *t);
/* "invalid argument `ARG' to `PRIM'" */
int args_invalid(struct parser *p, const char *arg, const char *prim);
/* stat of a reference file (-newer, -samefile), following links under -H
 * and -L; reports the failure and returns an exit status, or 0. */
int args_stat_ref(struct parser *p, const char *file, struct stat *st);

/* times.c: time which ('a', 'c' or 'm') of st; timespec comparison (-1 0 1) */
struct timespec stat_time(const struct stat *st, char which);
int ts_cmp(struct timespec a, struct timespec b);

/* mode.c: an octal or symbolic mode as -perm reads it, for non-directories
 * and directories; false when it is not a mode. */
bool mode_parse(const char *s, mode_t out[2]);

#endif
