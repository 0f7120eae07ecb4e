/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * printf.c: -printf formats.
 *
 * A format is compiled once into segments: literal text (escapes already
 * decoded), directives (%p, %10s, %-5u, %TY...), and a stop (\c). Unknown
 * escapes and directives are printed as written, with GNU find's warnings.
 * Numbers with numeric flags (%d, %m) go through printf; everything else
 * is a string, padded and cut by the width and precision, as in GNU find.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include "fstype.h"
#include "printf.h"
#include "permstr.h"
#include "procfd.h"
#include "quote.h"

enum seg_kind { SEG_TEXT, SEG_DIRECTIVE, SEG_STOP };

struct seg {
	enum seg_kind kind;
	char conv;       /* directive letter */
	char sub;        /* %A %C %T: the time field letter */
	bool left;       /* '-' flag */
	int width, prec; /* -1: none, -2: more than INT_MAX */
	char spec[32];   /* "%<flags><width>.<prec>" */
	size_t off, len; /* SEG_TEXT: bytes in fmt->text */
};

struct fmt {
	struct seg *v;
	size_t n, cap;
	struct strbuf text;
	unsigned needs; /* NEED_TYPE, NEED_STAT */
};

/* What a directive needs besides the name. */
static unsigned directive_needs(char c)
{
	if (strchr("pfhPHd", c))
		return 0;
	return strchr("yYli", c) ? NEED_TYPE : NEED_STAT;
}

static struct seg *add_seg(struct fmt *fmt, enum seg_kind kind)
{
	if (fmt->n == fmt->cap) {
		size_t cap = fmt->cap ? fmt->cap * 2 : 8;
		struct seg *v = reallocarray(fmt->v, cap, sizeof(*v));
		if (!v)
			return NULL;
		fmt->v = v;
		fmt->cap = cap;
	}
	struct seg *s = &fmt->v[fmt->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->width = s->prec = -1;
	return s;
}

/* Append literal bytes, joining them to the text segment before. */
static int add_text(struct fmt *fmt, const char *p, size_t n)
{
	struct seg *last = fmt->n ? &fmt->v[fmt->n - 1] : NULL;
	if (!last || last->kind != SEG_TEXT) {
		if (!(last = add_seg(fmt, SEG_TEXT)))
			return -1;
		last->off = fmt->text.len;
	}
	last->len += n;
	return sb_add(&fmt->text, p, n);
}

/* A backslash escape at *s (after the backslash). Returns 0, -1 on memory
 * exhaustion; advances *s. */
static int compile_escape(struct find *f, struct fmt *fmt, const char **s)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	const char *p = *s;
	if (*p == 0) {
		diag_warn(f->diag, 0, "warning: escape `\\' followed by nothing at all");
		return add_text(fmt, "\\", 1);
	}
	*s = p + 1;
	const char *at = strchr(from, *p);
	if (at)
		return add_text(fmt, &to[at - from], 1);
	if (*p == 'c')
		return add_seg(fmt, SEG_STOP) ? 0 : -1;
	if (*p >= '0' && *p <= '7') {
		unsigned v = 0;
		int k = 0;
		for (; k < 3 && p[k] >= '0' && p[k] <= '7'; k++)
			v = v * 8 + (unsigned)(p[k] - '0');
		*s = p + k;
		char c = (char)v;
		return add_text(fmt, &c, 1);
	}
	diag_warn(f->diag, 0, "warning: unrecognized escape `\\%c'", *p);
	char both[2] = { '\\', *p };
	return add_text(fmt, both, 2);
}

static const char known[] = "aAbcCdDfFgGhHiklmMnpPsStTuUyYZ";

/* A run of digits at *p as a width or precision: -2 when it is more than
 * printf can take (GNU find then fails that directive with EOVERFLOW). */
static int spec_number(const char **p)
{
	long long v = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if (v <= INT_MAX)
			v = v * 10 + (**p - '0');
	return v > INT_MAX ? -2 : (int)v;
}

/* Flags, width and precision of the directive at *s (after the '%'), read
 * as GNU find reads them: flags from "-+ #", then digits (a leading '0'
 * among them), then '.' and digits. The spec keeps each flag once, so it
 * has room for the largest numbers. */
static void compile_spec(struct seg *g, const char **s)
{
	const char *p = *s;
	size_t o = 0;
	g->spec[o++] = '%';
	for (; *p && strchr("-+ #", *p); p++) {
		if (*p == '-')
			g->left = true;
		if (!memchr(g->spec + 1, *p, o - 1))
			g->spec[o++] = *p;
	}
	if (*p == '0')
		g->spec[o++] = '0';
	if (*p >= '0' && *p <= '9')
		g->width = spec_number(&p);
	if (*p == '.') {
		p++;
		g->prec = spec_number(&p);
	}
	if (g->width >= 0)
		o += (size_t)snprintf(g->spec + o, sizeof(g->spec) - o, "%d", g->width);
	if (g->prec >= 0)
		o += (size_t)snprintf(g->spec + o, sizeof(g->spec) - o, ".%d", g->prec);
	g->spec[o] = 0;
	*s = p;
}

/* A directive at *s (after the '%'). Returns 0, 1 after a reported error,
 * -1 on memory exhaustion. */
static int compile_directive(struct find *f, struct fmt *fmt, const char **s)
{
	const char *start = *s - 1, *p = *s;
	if (*p == '%') {
		*s = p + 1;
		return add_text(fmt, "%", 1);
	}
	struct seg tmp;
	memset(&tmp, 0, sizeof(tmp));
	tmp.width = tmp.prec = -1;
	compile_spec(&tmp, &p);
	if (*p == 0) {
		diag_error(f->diag, 0, "error: %% at end of format string");
		return 1;
	}
	char c = *p++;
	/* GNU find keeps these for later, and refuses them now */
	if (c == '{' || c == '[' || c == '(') {
		diag_error(f->diag, 0, "error: the format directive `%%%c' is reserved for future use",
		           c);
		return 1;
	}
	/* "%5%": GNU find writes what came before the second '%' */
	if (c == '%') {
		*s = p;
		return add_text(fmt, start, (size_t)(p - 1 - start));
	}
	if (!strchr(known, c)) {
		diag_warn(f->diag, 0, "warning: unrecognized format directive `%%%c'", c);
		*s = p;
		return add_text(fmt, start, (size_t)(p - start));
	}
	if (strchr("ACT", c)) {
		if (*p == 0) {
			diag_warn(f->diag, 0, "warning: format directive `%%%c' should be followed "
			                      "by another character", c);
			*s = p;
			return add_text(fmt, start, (size_t)(p - start));
		}
		tmp.sub = *p++;
	}
	*s = p;
	tmp.kind = SEG_DIRECTIVE;
	tmp.conv = c;
	fmt->needs |= directive_needs(c);
	struct seg *g = add_seg(fmt, SEG_DIRECTIVE);
	if (!g)
		return -1;
	*g = tmp;
	return 0;
}

unsigned fmt_needs(const struct fmt *fmt)
{
	return fmt->needs;
}

void fmt_free(struct fmt *fmt)
{
	if (!fmt)
		return;
	free(fmt->v);
	sb_free(&fmt->text);
	free(fmt);
}

struct fmt *fmt_compile(struct find *f, const char *s)
{
	struct fmt *fmt = calloc(1, sizeof(*fmt));
	int r = fmt ? 0 : -1;
	while (r == 0 && *s) {
		const char *plain = s + strcspn(s, "\\%");
		if (plain > s) {
			r = add_text(fmt, s, (size_t)(plain - s));
			s = plain;
			continue;
		}
		s++;
		r = s[-1] == '\\' ? compile_escape(f, fmt, &s) : compile_directive(f, fmt, &s);
	}
	if (r < 0)
		diag_error(f->diag, ENOMEM, "-printf");
	if (r != 0) {
		fmt_free(fmt);
		return NULL;
	}
	return fmt;
}

char type_char(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return 'f';
	case S_IFDIR: return 'd';
	case S_IFLNK: return 'l';
	case S_IFBLK: return 'b';
	case S_IFCHR: return 'c';
	case S_IFIFO: return 'p';
	case S_IFSOCK: return 's';
	}
	return 'U';
}

void mode_string(mode_t m, char *b)
{
	char t = type_char(m);
	b[0] = t == 'f' ? '-' : t == 'U' ? '?' : t;
	perm_letters(m, b + 1);
}

/* A width can be up to INT_MAX: the padding goes out a block at a time. */
static void put_spaces(struct out *o, size_t n)
{
	static const char spaces[] = "                                                                ";
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, o->fp);
		n -= k;
	}
}

/* A string field: cut to the precision, padded to the width. */
static void put_str(struct out *o, const struct seg *g, const char *s, bool name)
{
	struct strbuf q = STRBUF_INIT;
	if (name && o->tty && quote_append(&q, QUOTE_QMARK, s, strlen(s)) == 0)
		s = sb_str(&q);
	size_t len = strlen(s);
	if (g->prec >= 0 && (size_t)g->prec < len)
		len = (size_t)g->prec;
	size_t pad = g->width > 0 && (size_t)g->width > len ? (size_t)g->width - len : 0;
	if (!g->left)
		put_spaces(o, pad);
	fwrite(s, 1, len, o->fp);
	if (g->left)
		put_spaces(o, pad);
	sb_free(&q);
}

static void put_uint(struct out *o, const struct seg *g, uintmax_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%ju", v);
	put_str(o, g, buf, false);
}

/* %d, %m, %S: printf's own numeric formatting, flags included; the spec
 * holds only flag characters and digits (compile_spec). */
static void put_printf(struct out *o, const struct seg *g, char conv, intmax_t v, double d)
{
	char spec[40];
	snprintf(spec, sizeof(spec), "%s%s%c", g->spec, conv == 'g' ? "" : "j", conv);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (conv == 'g')
		fprintf(o->fp, spec, d);
	else
		fprintf(o->fp, spec, v);
#pragma GCC diagnostic pop
}

/* %Ak, %Ck, %Tk; with k '@' and '+' GNU's own forms, and S, T, X with the
 * fraction of the second GNU find appends (ten digits). */
static const char *time_field(const struct timespec *ts, char k, char *buf, size_t size)
{
	struct tm tm;
	char frac[16];
	snprintf(frac, sizeof(frac), ".%09ld0", ts->tv_nsec);
	if (k == '@') {
		snprintf(buf, size, "%jd%s", (intmax_t)ts->tv_sec, frac);
		return buf;
	}
	if (!localtime_r(&ts->tv_sec, &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)ts->tv_sec);
		return buf;
	}
	char f[3] = { '%', k, 0 };
	const char *layout = k == '+' ? "%Y-%m-%d+%H:%M:%S" : f;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	size_t n = strftime(buf, size, layout, &tm);
#pragma GCC diagnostic pop
	buf[n] = 0;
	if (strchr("+STX", k))
		snprintf(buf + n, size - n, "%s", frac);
	return buf;
}

/* %a %c %t: ctime's layout with GNU find's fraction of the second. */
static const char *ctime_field(const struct timespec *ts, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&ts->tv_sec, &tm)) {
		snprintf(buf, size, "%jd", (intmax_t)ts->tv_sec);
		return buf;
	}
	size_t n = strftime(buf, size, "%a %b %e %H:%M:%S", &tm);
	n += (size_t)snprintf(buf + n, size - n, ".%09ld0", ts->tv_nsec);
	strftime(buf + n, size - n, " %Y", &tm);
	return buf;
}

static const char *user_field(struct find *f, uid_t uid, char *buf, size_t size)
{
	const char *name = idcache_user(&f->ids, uid);
	if (name)
		return name;
	snprintf(buf, size, "%ju", (uintmax_t)uid);
	return buf;
}

static const char *group_field(struct find *f, gid_t gid, char *buf, size_t size)
{
	const char *name = idcache_group(&f->ids, gid);
	if (name)
		return name;
	snprintf(buf, size, "%ju", (uintmax_t)gid);
	return buf;
}

/* %Y: the type through a symbolic link: N when it dangles (its target, or
 * a directory on the way to it, is missing, or the way goes through a file
 * that is no directory), L when it loops; otherwise '?' and, as in GNU
 * find, a message that leaves the exit status alone. */
static char followed_type(struct find *f, const struct sweep_entry *e)
{
	struct stat st;
	if (!S_ISLNK(e->st.st_mode))
		return type_char(e->st.st_mode);
	if (fstatat(e->dirfd, e->name, &st, 0) == 0)
		return type_char(st.st_mode);
	if (errno == ENOENT || errno == ENOTDIR)
		return 'N';
	if (errno == ELOOP)
		return 'L';
	diag_warn(f->diag, errno, "%s", diag_quote(f->diag, 0, e->path));
	return '?';
}

static void run_time(struct out *o, const struct seg *g, const struct stat *st)
{
	char buf[256];
	char which = g->conv == 'A' || g->conv == 'a' ? 'a' : g->conv == 'C' || g->conv == 'c' ? 'c' : 'm';
	const struct timespec *ts = which == 'a' ? &st->st_atim
	                          : which == 'c' ? &st->st_ctim : &st->st_mtim;
	if (strchr("act", g->conv))
		put_str(o, g, ctime_field(ts, buf, sizeof(buf)), false);
	else
		put_str(o, g, time_field(ts, g->sub, buf, sizeof(buf)), false);
}

/* The SELinux context of what fd holds (O_PATH), into ctx
 * (NUL-terminated): its length, or -1 with errno. */
static ssize_t context_read(int fd, struct strbuf *ctx)
{
	static const char attr[] = "security.selinux";
	char buf[PROCFD_NAME_MAX];
	const char *path = procfd_name(fd, buf); /* (fgetxattr() refuses O_PATH) */
	for (;;) {
		ssize_t n = getxattr(path, attr, NULL, 0);
		if (n < 0 || sb_reserve(ctx, (size_t)n + 1) < 0)
			return -1;
		ssize_t got = getxattr(path, attr, ctx->s, (size_t)n);
		if (got >= 0) {
			ctx->s[got] = 0;
			return got;
		}
		if (errno != ERANGE) /* (grown since it was asked: again) */
			return -1;
	}
}

/* The same of name in dirfd, found from there (no path, which can be
 * longer than PATH_MAX). follow: through a link, one that dangles read
 * itself, as GNU's. */
static ssize_t context_of(int dirfd, const char *name, bool follow, struct strbuf *ctx)
{
	int fd = openat(dirfd, name, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0 && follow && errno == ENOENT)
		fd = openat(dirfd, name, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	ssize_t n = context_read(fd, ctx);
	int err = errno;
	close(fd);
	errno = err;
	return n;
}

/* %Z: the SELinux context, the attribute GNU's getfilecon() reads; none,
 * where the system keeps none, said as GNU says it, the field empty. */
static void run_context(struct find *f, const struct seg *g, struct out *o,
                        const struct sweep_entry *e)
{
	struct strbuf ctx = STRBUF_INIT;
	if (context_of(e->dirfd, e->name, entry_follows(f, e), &ctx) < 0)
		diag_error(f->diag, errno, "getfilecon failed: %s", diag_quote(f->diag, 0, e->path));
	put_str(o, g, ctx.s ? ctx.s : "", false);
	sb_free(&ctx);
}

static void run_directive(struct find *f, const struct seg *g, struct out *o,
                          const struct sweep_entry *e, const struct stat *st)
{
	char buf[64];
	if (g->width == -2 || g->prec == -2) {
		/* what printf says of it, in GNU find's words, and on we go */
		const char *name = o->path ? o->path : "standard output";
		diag_error(f->diag, EOVERFLOW, "%s", diag_quote(f->diag, 0, name));
		return;
	}
	switch (g->conv) {
	case 'p': put_str(o, g, e->path, true); break;
	case 'f': put_str(o, g, entry_basename(e, &f->scratch), true); break;
	case 'h': put_str(o, g, entry_dirname(e, &f->scratch), true); break;
	case 'P': put_str(o, g, entry_relative(f, e), true); break;
	case 'H': put_str(o, g, f->root ? f->root : "", true); break;
	case 'l': {
		const char *target = entry_link(e, &f->scratch);
		put_str(o, g, target ? target : "", true);
		break;
	}
	case 's': put_uint(o, g, st->st_size > 0 ? (uintmax_t)st->st_size : 0); break;
	case 'b': put_uint(o, g, (uintmax_t)st->st_blocks); break;
	case 'k': put_uint(o, g, ((uintmax_t)st->st_blocks + 1) / 2); break;
	case 'n': put_uint(o, g, st->st_nlink); break;
	case 'i': put_uint(o, g, st->st_ino); break;
	case 'D': put_uint(o, g, st->st_dev); break;
	case 'U': put_uint(o, g, st->st_uid); break;
	case 'G': put_uint(o, g, st->st_gid); break;
	case 'u': put_str(o, g, user_field(f, st->st_uid, buf, sizeof(buf)), false); break;
	case 'g': put_str(o, g, group_field(f, st->st_gid, buf, sizeof(buf)), false); break;
	case 'd': put_printf(o, g, 'd', e->depth, 0); break;
	case 'm': put_printf(o, g, 'o', st->st_mode & 07777, 0); break;
	case 'S': put_printf(o, g, 'g', 0, st->st_size > 0 ?
	                     (double)st->st_blocks * 512 / (double)st->st_size : 1.0); break;
	case 'M': mode_string(st->st_mode, buf); put_str(o, g, buf, false); break;
	case 'y': buf[0] = type_char(st->st_mode); buf[1] = 0; put_str(o, g, buf, false); break;
	case 'Y': buf[0] = followed_type(f, e); buf[1] = 0; put_str(o, g, buf, false); break;
	case 'F': put_str(o, g, fstype_of(&f->fstypes, st->st_dev), false); break;
	case 'Z': run_context(f, g, o, e); break;
	default: run_time(o, g, st); break;
	}
}

void fmt_run(struct find *f, const struct fmt *fmt, struct out *o, const struct sweep_entry *e)
{
	const struct stat *st = &e->st;
	if ((fmt->needs & NEED_STAT) && !(st = entry_stat(f, e)))
		return;
	for (size_t i = 0; i < fmt->n; i++) {
		const struct seg *g = &fmt->v[i];
		if (g->kind == SEG_STOP)
			break;
		if (g->kind == SEG_TEXT)
			fwrite(fmt->text.s + g->off, 1, g->len, o->fp);
		else
			run_directive(f, g, o, e, st);
	}
}
