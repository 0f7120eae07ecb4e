/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exec.c: -exec, -execdir, -ok and -okdir, in the ";" form (one command
 * per file, true when it exits 0) and the "+" form (batch.c). -execdir runs
 * in the file's directory with "./name". -ok asks on standard error and
 * reads the answer from standard input; its command gets /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "exec.h"
#include "output.h"
#include "prim.h"

/* Flush every output stream, so that a command's output comes after ours. */
static void flush_outputs(struct find *f)
{
	for (struct out *o = f->outs; o; o = o->next)
		fflush(o->fp);
	fflush(stdout);
}

/* Run argv in directory dirfd (-1: here). Returns the wait status, or -1
 * when fork failed (reported). */
int exec_run(struct find *f, char **argv, int dirfd, bool null_stdin)
{
	flush_outputs(f);
	pid_t pid = fork();
	if (pid < 0) {
		diag_error(f->diag, errno, "cannot fork");
		return -1;
	}
	if (pid == 0) {
		if (dirfd >= 0 && fchdir(dirfd) < 0)
			_exit(126);
		if (null_stdin) {
			int fd = open("/dev/null", O_RDONLY);
			if (fd >= 0 && fd != 0) {
				dup2(fd, 0);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		diag_warn(f->diag, errno, "%s", diag_quote(f->diag, 0, argv[0]));
		_exit(errno == ENOENT ? 127 : 126);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			diag_error(f->diag, errno, "waitpid");
			return -1;
		}
	if (WIFSIGNALED(status))
		diag_warn(f->diag, 0, "%s terminated by signal %d",
		          diag_quote(f->diag, 0, argv[0]), WTERMSIG(status));
	return status;
}

bool exec_succeeded(int status)
{
	return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The name {} stands for: the path, or "./name" in the file's directory. */
const char *exec_brace_name(struct find *f, const struct exec *ex,
                            const struct sweep_entry *e)
{
	if (!ex->dir)
		return e->path;
	const char *base = entry_basename(e, &f->scratch);
	if (*base == '/')
		return base;
	struct strbuf *sb = &f->scratch;
	char *copy = strdup(base);
	sb_reset(sb);
	if (!copy || sb_addstr(sb, "./") < 0 || sb_addstr(sb, copy) < 0) {
		free(copy);
		return e->path;
	}
	free(copy);
	return sb_str(sb);
}

/* A descriptor on the directory -execdir runs in; *own says whether the
 * caller must close it. -1 when it cannot be opened (reported). */
int exec_dir_of(struct find *f, const struct sweep_entry *e, bool *own)
{
	*own = false;
	if (e->depth > 0)
		return e->dirfd;
	struct strbuf sb = STRBUF_INIT;
	const char *dir = entry_dirname(e, &sb);
	int fd = open(*dir ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		diag_error(f->diag, errno, "%s", diag_quote(f->diag, 0, *dir ? dir : "/"));
	sb_free(&sb);
	*own = fd >= 0;
	return fd;
}

/* Every "{}" in s replaced by name; NULL when memory ran out. */
static char *substitute(const char *s, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at;
	int err = 0;
	while (!err && (at = strstr(s, "{}"))) {
		err = sb_add(&sb, s, (size_t)(at - s)) || sb_addstr(&sb, name);
		s = at + 2;
	}
	if (err || sb_addstr(&sb, s) < 0) {
		sb_free(&sb);
		return NULL;
	}
	return sb.s;
}

/* -ok: ask, and read a yes or no. */
static bool confirm(struct find *f, const struct exec *ex, const struct sweep_entry *e)
{
	flush_outputs(f);
	fprintf(stderr, "< %s ... %s > ? ", ex->tmpl[0], e->path);
	fflush(stderr);
	char *line = NULL;
	size_t cap = 0;
	bool yes = getline(&line, &cap, stdin) > 0 && (line[0] == 'y' || line[0] == 'Y');
	free(line);
	return yes;
}

static bool eval_exec_each(struct expr *x, struct find *f, const struct sweep_entry *e)
{
	struct exec *ex = x->a.exec;
	if (ex->ok && !confirm(f, ex, e))
		return false;
	char *name = strdup(exec_brace_name(f, ex, e));
	char **argv = calloc((size_t)ex->ntmpl + 1, sizeof(*argv));
	bool ok = false, own = false;
	int k = 0;
	if (!name || !argv)
		goto out;
	for (; k < ex->ntmpl; k++)
		if (!(argv[k] = substitute(ex->tmpl[k], name)))
			goto out;
	int dirfd = ex->dir ? exec_dir_of(f, e, &own) : -1;
	if (ex->dir && dirfd < 0)
		goto out;
	ok = exec_succeeded(exec_run(f, argv, dirfd, ex->ok));
	if (f->looked_serial != f->serial) /* (entry_stat(): taken anew) */
		f->ran_serial = f->serial;
	if (own)
		close(dirfd);
out:
	if (k < ex->ntmpl)
		diag_error(f->diag, ENOMEM, "%s", ex->name);
	for (int i = 0; argv && i < k; i++)
		free(argv[i]);
	free(argv);
	free(name);
	return ok;
}

static void free_exec(struct expr *x)
{
	batch_free_all(x->a.exec);
	free(x->a.exec);
}

/* -execdir with a relative directory in PATH would run a file of the
 * directory being searched: refuse, as GNU find does. */
static int check_path(struct parser *p, const char *prim)
{
	const char *path = getenv("PATH");
	for (const char *s = path; s; s = strchr(s, ':') ? strchr(s, ':') + 1 : NULL) {
		size_t len = strcspn(s, ":");
		if (len == 0 || (len == 1 && *s == '.')) {
			diag_error(p->f->diag, 0, "The current directory is included in the PATH "
			           "environment variable, which is insecure in combination with the %s "
			           "action of find.  Please remove the current directory from your $PATH "
			           "(that is, remove \".\", doubled colons, or leading or trailing colons)",
			           prim);
			return 1;
		}
		if (*s != '/') {
			char *entry = strndup(s, len);
			diag_error(p->f->diag, 0, "The relative path %s is included in the PATH "
			           "environment variable, which is insecure in combination with the %s "
			           "action of find.  Please remove that entry from $PATH",
			           diag_quote(p->f->diag, 0, entry ? entry : s), prim);
			free(entry);
			return 1;
		}
	}
	return 0;
}

/* Where the command ends: at ";", or (not for -ok) at "+" right after an
 * argument holding "{}". -1 when it does not end. */
static int find_end(struct parser *p, int start, bool ok, bool *plus)
{
	for (int j = start; j < p->argc; j++) {
		if (strcmp(p->argv[j], ";") == 0) {
			*plus = false;
			return j;
		}
		if (!ok && strcmp(p->argv[j], "+") == 0 && j > start &&
		    strstr(p->argv[j - 1], "{}")) {
			*plus = true;
			return j;
		}
	}
	return -1;
}

static int check_plus(struct parser *p, const char *prim, char **tmpl, int n)
{
	if (strcmp(tmpl[n - 1], "{}") != 0) {
		struct diag *d = p->f->diag;
		char form[32];
		snprintf(form, sizeof(form), "%s ... {} +", prim);
		/* (each in the locale's quotes, as GNU's quote() gives them) */
		diag_error(d, 0, "In %s the %s must appear by itself, but you specified %s",
		           diag_quote_style(d, 0, QUOTE_LOCALE, form),
		           diag_quote_style(d, 1, QUOTE_LOCALE, "{}"), diag_quote(d, 2, tmpl[n - 1]));
		return 1;
	}
	for (int i = 0; i < n - 1; i++)
		if (strstr(tmpl[i], "{}")) {
			diag_error(p->f->diag, 0, "Only one instance of {} is supported with %s ... +",
			           prim);
			return 1;
		}
	return 0;
}

static int exec_arg(struct parser *p, struct expr *x, bool dir, bool ok)
{
	/* GNU's order: PATH before the command's end, once there is one word */
	if (dir && p->i < p->argc && check_path(p, x->name))
		return 1;
	bool plus;
	int start = p->i, end = find_end(p, start, ok, &plus);
	if (end < 0) {
		diag_error(p->f->diag, 0, "missing argument to `%s'", x->name);
		return 1;
	}
	if (end == start)
		return args_invalid(p, p->argv[end], x->name);
	if (plus && check_plus(p, x->name, p->argv + start, end - start))
		return 1;
	struct exec *ex = calloc(1, sizeof(*ex));
	if (!ex) {
		diag_error(p->f->diag, ENOMEM, "%s", x->name);
		return 1;
	}
	*ex = (struct exec){ .name = x->name, .tmpl = p->argv + start, .ntmpl = end - start,
	                     .brace = plus ? end - start - 1 : -1, .dir = dir, .ok = ok };
	/* in the command line's order, the order their last batches run in at
	 * the end, as GNU's ("-exec cp -t B {} + -exec rm {} +": the copies
	 * first) */
	struct exec **last = &p->f->execs;
	while (*last)
		last = &(*last)->next;
	*last = ex;
	p->i = end + 1;
	x->a.exec = ex;
	x->free = free_exec;
	x->eval = plus ? batch_eval : eval_exec_each;
	return 0;
}

int parse_exec(struct parser *p, struct expr *x) { return exec_arg(p, x, false, false); }
int parse_execdir(struct parser *p, struct expr *x) { return exec_arg(p, x, true, false); }
int parse_ok(struct parser *p, struct expr *x) { return exec_arg(p, x, false, true); }
int parse_okdir(struct parser *p, struct expr *x) { return exec_arg(p, x, true, true); }
