/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests.c: tests on what stat tells: -type, -xtype, -size, -empty, -links,
 * -inum, -perm, -user, -group, -uid, -gid, -nouser, -nogroup, -samefile,
 * -readable, -writable, -executable, -true, -false.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "prim.h"

static const char type_letters[] = "bcdpflsD";

static unsigned type_bit(mode_t mode)
{
	const char *p;
	switch (mode & S_IFMT) {
	case S_IFBLK: p = "b"; break;
	case S_IFCHR: p = "c"; break;
	case S_IFDIR: p = "d"; break;
	case S_IFIFO: p = "p"; break;
	case S_IFREG: p = "f"; break;
	case S_IFLNK: p = "l"; break;
	case S_IFSOCK: p = "s"; break;
	default: return 0;
	}
	return 1u << (strchr(type_letters, *p) - type_letters);
}

static bool cmp_num(enum cmp cmp, uintmax_t have, uintmax_t want)
{
	return cmp == CMP_GT ? have > want : cmp == CMP_LT ? have < want : have == want;
}

static bool eval_type(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)f;
	return (x->a.types & type_bit(e->st.st_mode)) != 0;
}

/* -xtype: the type seen the other way: through a link under -P, of the link
 * itself under -L. A dangling link is a link; one that loops is an error,
 * as in GNU find. */
static bool eval_xtype(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	struct stat st;
	bool followed = entry_follows(f, e);
	if (!followed && !S_ISLNK(e->st.st_mode))
		return eval_type(x, f, e);
	int flags = followed ? AT_SYMLINK_NOFOLLOW : 0;
	if (fstatat(e->dirfd, e->name, &st, flags) == 0)
		return (x->a.types & type_bit(st.st_mode)) != 0;
	if (errno == ENOENT || errno == ENOTDIR)
		return (x->a.types & type_bit(S_IFLNK)) != 0;
	diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, e->path));
	return false;
}

static int type_arg(struct parser *p, struct expr *x, eval_fn *eval)
{
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	struct diag *d = p->f->diag;
	if (!*s) {
		diag_error(d, 0, "Arguments to %s should contain at least one letter", x->name);
		return 1;
	}
	for (const char *c = s; *c; c += 2) {
		const char *at = strchr(type_letters, *c);
		if (!at || !*c) {
			diag_error(d, 0, "Unknown argument to %s: %c", x->name, *c);
			return 1;
		}
		if (*c == 'D') { /* (GNU's words, on Linux) */
			diag_error(d, 0, "%s D is not supported because Solaris doors are not "
			                 "supported on the platform find was compiled on.", x->name);
			return 1;
		}
		unsigned bit = 1u << (at - type_letters);
		if (x->a.types & bit) {
			diag_error(d, 0, "Duplicate file type '%c' in the argument list to %s.", *c,
			           x->name);
			return 1;
		}
		x->a.types |= bit;
		if (c[1] == 0)
			break;
		if (c[1] != ',') {
			diag_error(d, 0, "Must separate multiple arguments to %s using: ','", x->name);
			return 1;
		}
		if (c[2] == 0) {
			diag_error(d, 0, "Last file type in list argument to %s is missing, i.e., "
			                 "list is ending on: ','", x->name);
			return 1;
		}
	}
	x->eval = eval;
	x->needs = NEED_TYPE;
	return 0;
}

int parse_type(struct parser *p, struct expr *x)
{
	return type_arg(p, x, eval_type);
}

int parse_xtype(struct parser *p, struct expr *x)
{
	return type_arg(p, x, eval_xtype);
}

static bool eval_size(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	if (!st)
		return false;
	uintmax_t size = st->st_size > 0 ? (uintmax_t)st->st_size : 0;
	uintmax_t unit = x->a.num.unit;
	return cmp_num(x->a.num.cmp, size / unit + (size % unit != 0), x->a.num.n);
}

int parse_size(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, "-size");
	if (!s)
		return 1;
	static const char units[] = "bcwkMG";
	static const uintmax_t bytes[] = { 512, 1, 2, 1024, 1024 * 1024, 1024 * 1024 * 1024 };
	size_t len = strlen(s);
	char last = len ? s[len - 1] : 0;
	if (!len) {
		diag_error(p->f->diag, 0, "invalid null argument to -size");
		return 1;
	}
	x->a.num.unit = 512;
	char *num = strdup(s);
	if (!num) {
		diag_error(p->f->diag, errno, "-size");
		return 1;
	}
	if (last && (last < '0' || last > '9')) {
		const char *u = strchr(units, last);
		if (!u) {
			diag_error(p->f->diag, 0, "invalid -size type `%c'", last);
			free(num);
			return 1;
		}
		x->a.num.unit = bytes[u - units];
		num[len - 1] = 0;
	}
	bool ok = args_cmp_uint(num, &x->a.num.cmp, &x->a.num.n);
	free(num);
	if (!ok) {
		diag_error(p->f->diag, 0, "Invalid argument `%s' to -size", s);
		return 1;
	}
	x->eval = eval_size;
	x->needs = NEED_STAT;
	return 0;
}

/* A directory is empty when reading it finds nothing but "." and "..". */
static bool dir_is_empty(struct find *f, const struct sweep_entry *e)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
	if (!entry_follows(f, e))
		flags |= O_NOFOLLOW;
	int fd = openat(e->dirfd, e->name, flags);
	if (fd < 0) {
		diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, e->path));
		return false;
	}
	char buf[4096];
	bool empty = true;
	ssize_t n;
	while (empty && (n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n; ) {
			const struct dirent64 *de = (const void *)(buf + off);
			off += de->d_reclen;
			const char *nm = de->d_name;
			if (!(nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0))))
				empty = false;
		}
	}
	close(fd);
	return empty;
}

static bool eval_empty(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x;
	if (S_ISREG(e->st.st_mode)) {
		const struct stat *st = entry_stat(f, e);
		return st && st->st_size == 0;
	}
	return S_ISDIR(e->st.st_mode) && dir_is_empty(f, e);
}

int parse_empty(struct parser *p, struct expr *x)
{
	(void)p;
	x->eval = eval_empty;
	x->needs = NEED_STAT;
	return 0;
}

static bool eval_links(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	return st && cmp_num(x->a.num.cmp, st->st_nlink, x->a.num.n);
}

static bool eval_inum(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)f;
	return cmp_num(x->a.num.cmp, e->st.st_ino, x->a.num.n);
}

static bool eval_uid(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	return st && cmp_num(x->a.num.cmp, st->st_uid, x->a.num.n);
}

static bool eval_gid(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	return st && cmp_num(x->a.num.cmp, st->st_gid, x->a.num.n);
}

static int num_arg(struct parser *p, struct expr *x, eval_fn *eval)
{
	x->needs = eval == eval_inum ? NEED_TYPE : NEED_STAT;
	const char *s = parser_arg(p, x->name);
	if (!s)
		return 1;
	if (!args_cmp_uint(s, &x->a.num.cmp, &x->a.num.n))
		return args_invalid(p, s, x->name);
	x->eval = eval;
	return 0;
}

int parse_links(struct parser *p, struct expr *x) { return num_arg(p, x, eval_links); }
int parse_inum(struct parser *p, struct expr *x) { return num_arg(p, x, eval_inum); }
int parse_uid(struct parser *p, struct expr *x) { return num_arg(p, x, eval_uid); }
int parse_gid(struct parser *p, struct expr *x) { return num_arg(p, x, eval_gid); }

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* An id given as a number (all digits) into *n; GNU find reads it as an
 * int: above INT_MAX it says "Numerical result out of range". Returns 0,
 * or 1 (said). */
static int numeric_id(struct diag *d, const char *s, uintmax_t *n)
{
	errno = 0;
	*n = strtoumax(s, NULL, 10);
	if (errno || *n > INT_MAX) {
		diag_error(d, ERANGE, "%s", s);
		return 1;
	}
	return 0;
}

int parse_user(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, "-user");
	if (!s)
		return 1;
	struct diag *d = p->f->diag;
	if (!*s) {
		diag_error(d, 0, "The argument to -user should not be empty");
		return 1;
	}
	const struct passwd *pw = getpwnam(s);
	if (pw)
		x->a.num.n = pw->pw_uid;
	else if (all_digits(s)) {
		if (numeric_id(d, s, &x->a.num.n))
			return 1;
	} else {
		diag_error(d, 0, "%s is not the name of a known user", diag_quote(d, 0, s));
		return 1;
	}
	x->a.num.cmp = CMP_EQ;
	x->eval = eval_uid;
	x->needs = NEED_STAT;
	return 0;
}

int parse_group(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, "-group");
	if (!s)
		return 1;
	struct diag *d = p->f->diag;
	if (!*s) {
		diag_error(d, 0, "argument to -group is empty, but should be a group name");
		return 1;
	}
	const struct group *gr = getgrnam(s);
	if (gr)
		x->a.num.n = gr->gr_gid;
	else if (all_digits(s)) {
		if (numeric_id(d, s, &x->a.num.n))
			return 1;
	} else {
		diag_error(d, 0, "%s is not the name of an existing group", diag_quote(d, 0, s));
		return 1;
	}
	x->a.num.cmp = CMP_EQ;
	x->eval = eval_gid;
	x->needs = NEED_STAT;
	return 0;
}

static bool eval_nouser(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x;
	const struct stat *st = entry_stat(f, e);
	return st && idcache_user(&f->ids, st->st_uid) == NULL;
}

static bool eval_nogroup(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x;
	const struct stat *st = entry_stat(f, e);
	return st && idcache_group(&f->ids, st->st_gid) == NULL;
}

int parse_nouser(struct parser *p, struct expr *x)
{
	(void)p;
	x->eval = eval_nouser;
	x->needs = NEED_STAT;
	return 0;
}

int parse_nogroup(struct parser *p, struct expr *x)
{
	(void)p;
	x->eval = eval_nogroup;
	x->needs = NEED_STAT;
	return 0;
}

static bool eval_perm(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	if (!st)
		return false;
	mode_t mode = st->st_mode & 07777;
	mode_t want = x->a.perm.mode[S_ISDIR(st->st_mode) ? 1 : 0];
	switch (x->a.perm.kind) {
	case '-': return (mode & want) == want;
	case '/': return want == 0 || (mode & want) != 0;
	default: return mode == want;
	}
}

int parse_perm(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, "-perm");
	if (!s)
		return 1;
	const char *m = s;
	x->a.perm.kind = '=';
	if (*s == '-' || *s == '/') {
		x->a.perm.kind = *s;
		m++;
	}
	if (!mode_parse(m, x->a.perm.mode)) {
		diag_error(p->f->diag, 0, "invalid mode %s",
		           diag_quote(p->f->diag, 0, s));
		return 1;
	}
	if (x->a.perm.kind == '/' && !x->a.perm.mode[0] && !x->a.perm.mode[1])
		diag_warn(p->f->diag, 0, "warning: you have specified a mode pattern %s (which is "
		          "equivalent to /000). The meaning of -perm /000 has now been changed to be "
		          "consistent with -perm -000; that is, while it used to match no files, it "
		          "now matches all files.", s);
	x->eval = eval_perm;
	x->needs = NEED_STAT;
	return 0;
}

/* Stat-ed even where the directory's inode number already says no: GNU
 * find stats every entry here, and says which ones it cannot (a directory
 * that can be read but not searched), exit 1. */
static bool eval_samefile(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	const struct stat *st = entry_stat(f, e);
	return st && st->st_ino == x->a.same.ino && st->st_dev == x->a.same.dev;
}

int parse_samefile(struct parser *p, struct expr *x)
{
	const char *s = parser_arg(p, "-samefile");
	struct stat st;
	if (!s)
		return 1;
	int status = args_stat_ref(p, s, &st);
	if (status)
		return status;
	x->a.same.dev = st.st_dev;
	x->a.same.ino = st.st_ino;
	x->eval = eval_samefile;
	x->needs = NEED_STAT;
	return 0;
}

/* access(2) semantics (real ids, links followed), relative to the entry's
 * directory so that long paths work. */
static bool access_ok(const struct sweep_entry *e, int mode)
{
	return faccessat(e->dirfd, e->name, mode, 0) == 0;
}

static bool eval_readable(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f;
	return access_ok(e, R_OK);
}

static bool eval_writable(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f;
	return access_ok(e, W_OK);
}

static bool eval_executable(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f;
	return access_ok(e, X_OK);
}

static bool eval_true(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f, (void)e;
	return true;
}

static bool eval_false(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	(void)x, (void)f, (void)e;
	return false;
}

int parse_readable(struct parser *p, struct expr *x) { (void)p; x->eval = eval_readable; return 0; }
int parse_writable(struct parser *p, struct expr *x) { (void)p; x->eval = eval_writable; return 0; }
int parse_executable(struct parser *p, struct expr *x) { (void)p; x->eval = eval_executable; return 0; }
int parse_true(struct parser *p, struct expr *x) { (void)p; x->eval = eval_true; return 0; }
int parse_false(struct parser *p, struct expr *x) { (void)p; x->eval = eval_false; return 0; }
