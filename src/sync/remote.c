/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * remote.c: [USER@]HOST:PATH operands, as rsync reads them (a colon before
 * any slash). The remote shell (-e, "ssh" by default; its words split at
 * blanks, as rsync splits them) is started with HOST and the command
 * "sweep-sync --server [--sender] OPTIONS -- PATH..." (--rsync-path names
 * another program), and the two ends speak wire.h's protocol over its
 * standard input and output. The local end sends (SRC... HOST:DEST) or
 * receives (HOST:SRC... DEST); the far end prints nothing itself: what it
 * would print comes back in W_OUTPUT frames, its status in W_DONE.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "wire.h"
#include "sync.h"

/* The length of HOST in [USER@]HOST:PATH, or 0 for a local name. */
static size_t host_len(const char *arg)
{
	const char *colon = strchr(arg, ':');
	const char *slash = strchr(arg, '/');
	if (!colon || colon == arg || (slash && slash < colon))
		return 0;
	return (size_t)(colon - arg);
}

bool remote_is_host_path(const char *arg)
{
	return host_len(arg) > 0;
}

/* PATH in [USER@]HOST:PATH; a local name as it is. */
static const char *operand_path(const char *arg)
{
	size_t hlen = host_len(arg);
	return arg + hlen + (hlen > 0);
}

/* Whether c is a wildcard the far shell expands in a PATH, as rsync's
 * leaves it to expand ("host:dir/x*"). */
static bool wildcard(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']';
}

/* Whether name (a last component) is what the pulled PATH's last component
 * asks for: itself, or a match of its wildcards (no dot file for them, as
 * the far shell's). */
static bool names_match(const char *want, const char *name)
{
	if (strcmp(want, name) == 0)
		return true; /* (a pattern matching nothing is itself to the shell) */
	for (const char *p = want; *p; p++)
		if (wildcard(*p))
			return fnmatch(want, name, FNM_PERIOD) == 0;
	return false;
}

bool remote_asked_for(const struct sync *s, const char *src)
{
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	bool contents = sync_is_contents(src), ok = false;
	if (!contents && sb_last_component(&got, src) < 0)
		return false;
	for (int i = 0; i < s->nfiles - 1 && !ok; i++) {
		const char *path = operand_path(s->files[i]);
		if (!*path || sync_is_contents(path))
			ok = contents; /* (a directory's contents: no root name to place) */
		else if (!contents && sb_last_component(&want, path) == 0)
			ok = names_match(want.s, got.s);
	}
	sb_free(&got);
	sb_free(&want);
	return ok;
}

/* A usage error, said with rsync's words where it has them. */
static bool refuse(struct sync *s, const char *why)
{
	diag_error(s->diag, 0, "%s", why);
	s->usage_error = true;
	return true;
}

/* ":PATH" after HOST:SRC, rsync's shorthand for HOST:PATH, made so. Returns
 * 0, or -1 (no memory). */
static int same_host(struct sync *s, int i, int first)
{
	if (!s->host_made && !(s->host_made = calloc((size_t)s->nfiles, sizeof(char *))))
		return -1;
	size_t hlen = host_len(s->files[first]);
	char *made = malloc(hlen + strlen(s->files[i]) + 1);
	if (!made)
		return -1;
	memcpy(made, s->files[first], hlen);
	strcpy(made + hlen, s->files[i]);
	s->files[i] = s->host_made[i] = made;
	return 0;
}

void remote_free(struct sync *s)
{
	for (int i = 0; s->host_made && i < s->nfiles; i++)
		free(s->host_made[i]);
	free(s->host_made);
}

bool remote_operands(struct sync *s)
{
	int nsrc = s->nfiles - 1, remote_src = 0, first = -1;
	for (int i = 0; i < nsrc; i++) {
		if (first >= 0 && s->files[i][0] == ':' && s->files[i][1] != ':' &&
		    same_host(s, i, first) < 0) {
			report_error(s, ENOMEM, "%s", s->files[i]);
			s->usage_error = true;
			return true;
		}
		size_t n = host_len(s->files[i]);
		if (n && first < 0)
			first = i;
		if (n && (n != host_len(s->files[first]) ||
		          strncmp(s->files[i], s->files[first], n) != 0))
			return refuse(s, "all remote sources must be on one host (HOST:SRC...)");
		remote_src += n > 0;
	}
	bool remote_dest = host_len(s->files[nsrc]) > 0;
	if (!remote_src && !remote_dest)
		return false;
	if (remote_src && remote_dest)
		return refuse(s, "The source and destination cannot both be remote.");
	if (remote_src && remote_src != nsrc)
		return refuse(s, "a local SRC cannot be mixed with remote ones");
	for (int i = 0; i <= nsrc; i++) {
		const char *c = strchr(s->files[i], ':');
		if (c && host_len(s->files[i]) && c[1] == ':')
			return refuse(s, "HOST::MODULE (an rsync daemon) is not supported");
	}
	return true;
}

/* What the options ask of the connection, at either end: -z, the
 * greeting's wait, --bwlimit on what it writes, --timeout's watch. */
void remote_wire_options(const struct sync *s, struct wire *w)
{
	w->compress = s->compress;
	w->compress_level = s->compress_level;
	w->timeout_ms = s->contimeout ? 1000 * s->contimeout : -1;
	w->rate.limit = s->copy.bwlimit;
	w->alive = s->timeout ? sync_alive : NULL;
}

/* Who says that --timeout ran out, in rsync's words: the near end of a
 * push sends, that of a pull receives ("Receiver", as rsync's client
 * calls itself), the far end is what --sender makes it. */
const char *remote_timeout_role(const struct sync *s)
{
	if (s->server)
		return s->sender ? "[sender]" : "[receiver]";
	if (s->nfiles >= 2 && host_len(s->files[s->nfiles - 1]) > 0)
		return "[sender]";
	if (s->nfiles >= 2 && host_len(s->files[0]) > 0)
		return "[Receiver]";
	return "[receiver]";
}

/* Append word to sb quoted for a POSIX shell ('...', a quote as '\''). */
static int shell_quote(struct strbuf *sb, const char *word)
{
	if (sb->len && sb_addc(sb, ' ') < 0)
		return -1;
	if (sb_addc(sb, '\'') < 0)
		return -1;
	for (const char *p = word; *p; p++)
		if ((*p == '\'' ? sb_addstr(sb, "'\\''") : sb_addc(sb, *p)) < 0)
			return -1;
	return sb_addc(sb, '\'');
}


/* Whether the far shell expands a leading ~ of path: rsync quotes it only
 * in a name it pulls that has no '/' (or, under -R, no "/./"). */
static bool tilde_expands(const struct sync *s, const char *path, bool push)
{
	return path[0] == '~' && (push || (strchr(path, '/') && (!s->relative || strstr(path, "/./"))));
}

/* Append PATH to sb for the far shell: quoted as shell_quote() quotes, but
 * for its wildcards and the ~ or ~USER that begins it where that expands,
 * which are left to the far shell, as rsync leaves them. */
static int path_quote(const struct sync *s, struct strbuf *sb, const char *path, bool push)
{
	bool quoted = false;
	int r = sb->len ? sb_addc(sb, ' ') : 0;
	const char *p = path;
	if (tilde_expands(s, path, push)) { /* (the slash after it unquoted too) */
		for (p++; isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '-'; p++)
			;
		p += *p == '/';
	}
	if (r == 0 && p > path)
		r = sb_add(sb, path, (size_t)(p - path));
	for (; r == 0 && *p; p++) {
		/* a wildcard as it is, a quote as \', the rest in quotes */
		bool raw = wildcard(*p) || *p == '\'';
		if (raw == quoted) { /* into quotes, or out of them */
			r = sb_addc(sb, '\'');
			quoted = !quoted;
		}
		if (r == 0)
			r = *p == '\'' ? sb_addstr(sb, "\\'") : sb_addc(sb, *p);
	}
	return r == 0 && quoted ? sb_addc(sb, '\'') : r;
}

/* Whether a pulled SRC has wildcards for the far shell. */
static bool remote_globbed(const struct sync *s)
{
	int nsrc = s->nfiles - 1;
	for (int i = 0; i < nsrc; i++) {
		const char *path = operand_path(s->files[i]);
		for (const char *p = path; *p; p++)
			if (wildcard(*p))
				return true;
	}
	return false;
}

/* The options with a value, each as one word --NAME=VALUE. */
static int valued_options(const struct sync *s, struct strbuf *w, struct strbuf *sb)
{
	int r = 0;
	for (size_t i = 0; r == 0 && i < s->nchmod_args; i++) {
		sb_reset(w);
		r = sb_printf(w, "--chmod=%s", s->chmod_args[i]) < 0 ? -1 : shell_quote(sb, w->s);
	}
	for (size_t i = 0; r == 0 && i < s->nlink_dest; i++) {
		sb_reset(w);
		r = sb_printf(w, "--%s=%s", linkdest_option(s->alt_dest), s->link_dest[i]) < 0
		    ? -1 : shell_quote(sb, w->s);
	}
	if (r == 0 && s->copy.mtime_window) {
		sb_reset(w);
		r = sb_printf(w, "--modify-window=%d", s->copy.mtime_window) < 0 ? -1
		    : shell_quote(sb, w->s);
	}
	if (r == 0 && s->timeout) {
		sb_reset(w);
		r = sb_printf(w, "--timeout=%u", s->timeout) < 0 ? -1 : shell_quote(sb, w->s);
	}
	if (r == 0 && s->compress_level) {
		sb_reset(w);
		r = sb_printf(w, "--compress-level=%d", s->compress_level) < 0 ? -1
		    : shell_quote(sb, w->s);
	}
	if (r == 0 && s->max_size_on) {
		sb_reset(w);
		r = sb_printf(w, "--max-size=%" PRIu64, s->max_size) < 0 ? -1 : shell_quote(sb, w->s);
	}
	if (r == 0 && s->min_size) {
		sb_reset(w);
		r = sb_printf(w, "--min-size=%" PRIu64, s->min_size) < 0 ? -1 : shell_quote(sb, w->s);
	}
	if (r == 0 && s->max_delete_on) {
		sb_reset(w);
		r = sb_printf(w, "--max-delete=%" PRIu64, s->max_delete) < 0 ? -1 : shell_quote(sb, w->s);
	}
	if (r == 0 && s->copy.bwlimit) { /* in bytes, so no rounding moves it */
		sb_reset(w);
		r = sb_printf(w, "--bwlimit=%" PRIu64 "b", s->copy.bwlimit) < 0 ? -1
		    : shell_quote(sb, w->s);
	}
	for (int group = 0; r == 0 && group < 2; group++) {
		const char *map = id_map_arg(s, group);
		sb_reset(w);
		if (map)
			r = sb_printf(w, "--%s=%s", group ? "groupmap" : "usermap", map) < 0 ? -1
			    : shell_quote(sb, w->s);
	}
	const struct { bool on; const char *name, *value; } text[] = {
		{ s->backup_dir != NULL, "backup-dir", s->backup_dir },
		{ s->out_format != NULL, "out-format", s->out_format },
		{ s->copy.suffix != NULL, "suffix", s->copy.suffix },
		{ s->copy.partial_dir != NULL, "partial-dir", s->copy.partial_dir },
	};
	for (size_t i = 0; r == 0 && i < sizeof(text) / sizeof(text[0]); i++) {
		sb_reset(w);
		if (text[i].on)
			r = sb_printf(w, "--%s=%s", text[i].name, text[i].value) < 0 ? -1
			    : shell_quote(sb, w->s);
	}
	return r;
}

int sync_server_options(const struct sync *s, struct strbuf *sb)
{
	const struct { bool on; const char *word; } flags[] = {
		{ s->recursive, "-r" }, { s->links, "-l" }, { s->perms, "-p" },
		{ s->times, "-t" }, { s->group, "-g" }, { s->owner, "-o" },
		{ s->devices, "--devices" }, { s->specials, "--specials" },
		{ s->hard_links, "-H" }, { s->quiet, "-q" }, { s->dry_run, "-n" },
		{ s->prune_empty, "-m" },
		{ s->update, "-u" }, { s->one_fs, "-x" }, { s->no_mounts, "-x" },
		{ s->itemize, "-i" }, { s->itemize_all, "-i" }, { s->omit_dir_times, "-O" }, { s->mkpath, "--mkpath" }, { s->eight_bit, "-8" },
		{ s->force, "--force" }, { s->ignore_errors, "--ignore-errors" },
		{ s->safe_links, "--safe-links" },
		{ s->copy.fsync_files, "--fsync" }, { s->copy.preallocate, "--preallocate" },
		{ s->remove_source && !s->remove_sent_only, "--remove-source-files" },
		{ s->remove_sent_only, "--remove-sent-files" },
		{ s->append == 1, "--append" }, { s->append == 2, "--append-verify" },
		{ s->ignore_missing, "--ignore-missing-args" },
		{ s->delete_missing, "--delete-missing-args" },
		{ s->delete, "--delete" }, { s->size_only, "--size-only" },
		{ s->ignore_times, "-I" },
		{ s->delete && s->delete_when == DEL_BEFORE, "--delete-before" },
		{ s->delete && s->delete_when == DEL_AFTER && !s->delete_delay, "--delete-after" },
		{ s->delete && s->delete_delay, "--delete-delay" },
		{ s->ignore_existing, "--ignore-existing" }, { s->existing, "--existing" },
		{ s->inplace, "--inplace" }, { s->numeric_ids, "--numeric-ids" },
		{ s->stats, "--stats" }, { s->compress, "-z" }, { s->checksum, "-c" },
		{ s->acls, "-A" }, { s->xattrs, "-X" }, { s->delete_excluded, "--delete-excluded" },
		{ s->copy_links, "-L" }, { s->copy.keep_partial, "--partial" },
		{ s->copy.sparse == COPY_SPARSE_ALWAYS, "-S" }, { s->backup, "-b" },
		{ s->files_from != NULL, "--files-from-wire" },
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].on && shell_quote(sb, flags[i].word) < 0)
			return -1;
	for (int i = 0; i < s->verbose; i++)
		if (shell_quote(sb, "-v") < 0)
			return -1;
	/* what the far end says (a push's names, its deletions): the near
	 * end's levels, whatever gave them */
	struct strbuf info = STRBUF_INIT;
	int ir = info_server_option(s, &info) < 0 ? -1 : shell_quote(sb, info.s);
	sb_free(&info);
	if (ir < 0)
		return -1;
	for (int i = 1; i < s->human; i++)
		if (shell_quote(sb, "-h") < 0)
			return -1;
	if (s->human == 0 && shell_quote(sb, "--no-h") < 0)
		return -1;
	struct strbuf rule = STRBUF_INIT;
	int r = valued_options(s, &rule, sb);
	for (size_t i = 0; r == 0 && i < s->nrules; i++) {
		const struct sync_rule *u = &s->rules[i];
		sb_reset(&rule);
		/* a rule of no side as --include or --exclude: what a peer of
		 * before --filter takes too */
		bool bare = !u->side && !u->negate && !u->perishable;
		r = bare ? sb_printf(&rule, "--%s=", u->include ? "include" : "exclude")
		    : sb_addstr(&rule, "--filter=");
		if (r == 0)
			r = filter_text(&rule, u, bare);
		if (r == 0)
			r = shell_quote(sb, rule.s);
	}
	sb_free(&rule);
	return r;
}

/* The remote shell's words: -e (else $RSYNC_RSH, else ssh) split at
 * blanks, "-l USER" for USER@HOST (as rsync gives it), HOST, the command,
 * NULL; then the copies the words point into (-e's, HOST's), for
 * free_argv(). */
static char **shell_argv(const struct sync *s, const char *host, size_t hlen,
                         const char *command)
{
	const char *env = getenv("RSYNC_RSH");
	char *rsh = strdup(s->rsh ? s->rsh : env && *env ? env : "ssh");
	char *hostbuf = strndup(host, hlen);
	size_t n = 0, cap = 8;
	char **v = malloc(cap * sizeof(*v));
	if (!rsh || !hostbuf || !v)
		goto fail;
	for (char *save = NULL, *w = strtok_r(rsh, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n + 8 > cap) { /* room for the words and 7 more */
			char **nv = reallocarray(v, cap *= 2, sizeof(*v));
			if (!nv)
				goto fail;
			v = nv;
		}
		v[n++] = w;
	}
	if (n == 0) {
		errno = EINVAL; /* a blank -e */
		goto fail;
	}
	char *at = strrchr(hostbuf, '@');
	if (at) {
		*at = 0;
		v[n++] = "-l";
		v[n++] = hostbuf;
	}
	v[n] = at ? at + 1 : hostbuf;
	v[n + 1] = (char *)command;
	v[n + 2] = NULL;
	v[n + 3] = rsh;
	v[n + 4] = hostbuf;
	return v;
fail:
	free(rsh);
	free(hostbuf);
	free(v);
	return NULL;
}

/* Where HOST is in shell_argv()'s words. */
static size_t argc_host(char **v)
{
	size_t n = 0;
	while (v[n + 2])
		n++;
	return n;
}

static void free_argv(char **v)
{
	size_t host = argc_host(v);
	free(v[host + 3]); /* the -e the words point into */
	free(v[host + 4]); /* HOST's */
	free(v);
}

/* Start argv with its standard input and output on pipes: *to, *from.
 * Returns its pid, or -1 (reported). */
static pid_t start_shell(struct sync *s, char **argv, int *to, int *from)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) < 0)
		goto fail;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", s->diag->prog, argv[0], strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		goto fail;
	}
	*to = in[1];
	*from = out[0];
	return pid;
fail:
	report_error(s, errno, "cannot start the remote shell");
	return -1;
}

/* What the far end printed, to our standard output, with any control
 * character it holds (a terminal's escapes) as '?': names were escaped
 * there already, as rsync escapes them. */
static void put_output(const char *p, const char *end)
{
	for (; p < end; p++)
		putchar((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' ? '?' : *p);
}

/* Wait for the remote shell; after a failure, a second at most before it
 * is ended (a far end that says nothing must not hang us), so that its own
 * status, when it has one, can be told. */
static pid_t waitpid_briefly(pid_t pid, int *status, bool failed)
{
	for (int i = 0; failed && i < 20; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r != 0)
			return r;
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (failed)
		kill(pid, SIGTERM);
	return waitpid(pid, status, 0);
}

/* The far end's output and status, at the end of the transfer. */
static int far_end_done(struct sync *s, struct wire *w)
{
	struct wire_msg m;
	struct strbuf z = STRBUF_INIT;
	int r = -1;
	while (wire_recv(w, &m, &z) == 0) {
		if (m.type == W_OUTPUT) {
			put_output(m.p, m.end);
			continue;
		}
		if (m.type == W_DONE) {
			unsigned flags = wire_get_u8(&m);
			s->partial |= (flags & DONE_PARTIAL) != 0;
			s->vanished |= (flags & DONE_VANISHED) != 0;
			s->deletes_stopped |= (flags & DONE_DEL_LIMIT) != 0;
			if (flags & (DONE_FILESELECT | DONE_FILEIO))
				s->dest_status = flags & DONE_FILEIO ? SYNC_FILEIO : SYNC_FILESELECT;
			r = 0;
		} else {
			wire_bad(w, "a frame out of place at the end");
		}
		break;
	}
	sb_free(&z);
	return r;
}

/* The command for the far end: PROGRAM --server [--sender] OPTIONS --
 * PATH... (PROGRAM as given: --rsync-path may hold words, "sudo x"). */
static int far_command(const struct sync *s, bool push, struct strbuf *cmd)
{
	struct strbuf opts = STRBUF_INIT;
	int nsrc = s->nfiles - 1;
	int r = sync_server_options(s, &opts);
	if (r == 0)
		r = sb_printf(cmd, "%s --server%s %s --", s->remote_prog ? s->remote_prog : "sweep-sync",
		              push ? "" : " --sender", sb_str(&opts));
	for (int i = push ? nsrc : 0; r == 0 && i < (push ? nsrc + 1 : nsrc); i++) {
		const char *path = operand_path(s->files[i]);
		r = path_quote(s, cmd, *path ? path : ".", push);
	}
	sb_free(&opts);
	return r;
}

/* The local end's part: send the sources, or receive into DEST. */
static int run_local_end(struct sync *s, struct wire *w, bool push)
{
	int nsrc = s->nfiles - 1;
	if (!push && s->files_from && files_from_send(s, w) < 0)
		return -1;
	/* (SRCs the far shell expands come as many trees as it makes) */
	return push ? send_trees(s, w, s->files, nsrc)
	            : recv_trees(s, w, s->files[nsrc], remote_globbed(s) ? 0 : (unsigned)nsrc);
}

void remote_run(struct sync *s)
{
	if (s->usage_error)
		return;
	int nsrc = s->nfiles - 1;
	bool push = host_len(s->files[nsrc]) > 0;
	const char *hostarg = push ? s->files[nsrc] : s->files[0];
	size_t hlen = host_len(hostarg);
	/* (the remote shell would read it as an option of its own) */
	const char *at = memrchr(hostarg, '@', hlen);
	if (hostarg[at ? at - hostarg + 1 : 0] == '-') {
		diag_error(s->diag, 0, "Invalid remote host: hostnames may not start with '-'.");
		s->usage_error = true;
		return;
	}
	struct strbuf cmd = STRBUF_INIT;
	char **argv = NULL;
	if (far_command(s, push, &cmd) < 0 || !(argv = shell_argv(s, hostarg, hlen, cmd.s))) {
		if (errno == EINVAL)
			diag_error(s->diag, 0, "-e: no remote shell given");
		else
			report_error(s, errno, "remote shell command");
		s->usage_error = errno == EINVAL;
		sb_free(&cmd);
		return;
	}
	if (s->info[INFO_FLIST] >= 1)
		puts(push ? "sending incremental file list" : "receiving incremental file list");
	signal(SIGPIPE, SIG_IGN); /* a far end gone is a write error, said */
	int to = -1, from = -1;
	pid_t pid = start_shell(s, argv, &to, &from);
	struct wire w;
	bool greeted = false;
	if (pid > 0 && wire_init(&w, from, to, s->diag->prog, argv[argc_host(argv)]) == 0) {
		remote_wire_options(s, &w);
		greeted = wire_greet(&w) == 0;
		if (!greeted || run_local_end(s, &w, push) < 0 || far_end_done(s, &w) < 0)
			s->protocol_error = true;
		s->wire_counted = true; /* (a pull's report is ours) */
		s->wire_sent = w.sent;
		s->wire_received = w.received;
		s->wire_list = w.list_bytes;
		wire_free(&w);
	} else if (pid > 0) {
		report_error(s, ENOMEM, "remote shell");
		s->protocol_error = true;
	}
	if (to >= 0)
		close(to);
	if (from >= 0)
		close(from);
	int status;
	pid_t ended = pid > 0 ? waitpid_briefly(pid, &status, s->protocol_error) : -1;
	/* after a whole transfer, the remote shell's status, nonzero, is the
	 * run's, as rsync takes it (a wrapper's "exit 3" is code 3); one
	 * killed is rsync's 15 (a core dumped) or 16 */
	if (ended == pid && !s->protocol_error)
		s->shell_status = WIFEXITED(status) ? WEXITSTATUS(status)
		                  : WCOREDUMP(status) ? 15 : 16;
	if (ended == pid && s->protocol_error) {
		if (WIFEXITED(status) && WEXITSTATUS(status))
			fprintf(stderr, "%s: the remote shell (%s) exited with status %d\n",
			        s->diag->prog, argv[0], WEXITSTATUS(status));
		/* rsync's statuses for a far end never reached; once reached,
		 * the remote shell's when above the protocol's 12, as rsync's
		 * (ssh's 255 for a connection lost) */
		int st = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
		if (greeted ? st > SYNC_PROTOCOL : st == 127 || st == 255)
			s->shell_status = st;
		else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM)
			fprintf(stderr, "%s: the remote shell (%s) was killed by signal %d\n",
			        s->diag->prog, argv[0], WTERMSIG(status));
	}
	if (pid < 0)
		s->protocol_error = true;
	free_argv(argv);
	sb_free(&cmd);
}
