/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xcommand.c: --to-command=COMMAND: each regular file's member is piped to
 * "sh -c COMMAND", with GNU tar's TAR_* variables saying what the member
 * is; how the command ended is said in GNU tar's words ("PID: Child
 * returned status N", an error; "Child terminated on signal N", a warning).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "extract.h"

static pid_t child = -1;
/* the SIGPIPE handler while a command runs, to be put back after */
static void (*old_pipe)(int) = SIG_DFL;

/* "SECONDS[.FRACTION]", the fraction without its trailing zeros. */
static void time_env(const char *var, time_t sec, long nsec)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%jd", (intmax_t)sec);
	if (nsec > 0 && nsec < 1000000000L) {
		snprintf(buf + n, sizeof(buf) - (size_t)n, ".%09ld", nsec);
		for (size_t k = strlen(buf); buf[k - 1] == '0'; k--)
			buf[k - 1] = 0;
	}
	setenv(var, buf, 1);
}

static void num_env(const char *var, intmax_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%jd", v);
	setenv(var, buf, 1);
}

/* GNU tar's name of the archive's format. */
static const char *format_name(struct archive *in)
{
	switch (archive_format(in)) {
	case ARCHIVE_FORMAT_TAR_USTAR: return "ustar";
	case ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE:
	case ARCHIVE_FORMAT_TAR_PAX_RESTRICTED: return "posix";
	case ARCHIVE_FORMAT_TAR: return "v7";
	default: return "gnu";
	}
}

/* In the child: the variables, then the command. */
static void set_env(struct extract *x, struct archive_entry *e, const char *name)
{
	const struct tar *t = x->t;
	const char *user = archive_entry_uname(e), *group = archive_entry_gname(e);
	char mode[16];
	setenv("TAR_VERSION", "1.34", 1);
	setenv("TAR_ARCHIVE", t->opt.archive, 1);
	setenv("TAR_VOLUME", "1", 1);
	num_env("TAR_BLOCKING_FACTOR", (intmax_t)(t->opt.record_size / 512));
	setenv("TAR_FORMAT", format_name(x->in), 1);
	setenv("TAR_FILETYPE", "f", 1);
	snprintf(mode, sizeof(mode), "0%o", (unsigned)(archive_entry_perm(e) & 07777));
	setenv("TAR_MODE", mode, 1);
	setenv("TAR_FILENAME", name, 1);
	setenv("TAR_REALNAME", name, 1);
	setenv("TAR_UNAME", user ? user : "", 1);
	setenv("TAR_GNAME", group ? group : "", 1);
	/* without them in the archive, GNU tar gives the time it started */
	if (archive_entry_atime_is_set(e))
		time_env("TAR_ATIME", archive_entry_atime(e), archive_entry_atime_nsec(e));
	else
		time_env("TAR_ATIME", x->start.tv_sec, x->start.tv_nsec);
	time_env("TAR_MTIME", archive_entry_mtime(e), archive_entry_mtime_nsec(e));
	if (archive_entry_ctime_is_set(e))
		time_env("TAR_CTIME", archive_entry_ctime(e), archive_entry_ctime_nsec(e));
	else
		time_env("TAR_CTIME", x->start.tv_sec, x->start.tv_nsec);
	num_env("TAR_UID", (intmax_t)archive_entry_uid(e));
	num_env("TAR_GID", (intmax_t)archive_entry_gid(e));
	num_env("TAR_SIZE", archive_entry_hardlink(e) ? 0 : (intmax_t)archive_entry_size(e));
	unsetenv("TAR_MINOR");
	unsetenv("TAR_MAJOR");
	unsetenv("TAR_LINKNAME");
}

int xcommand_start(struct extract *x, struct archive_entry *e, const char *name)
{
	int p[2];
	/* a command that stops reading is not the end of the run; GNU tar
	 * puts the handler back when the command is over */
	fflush(NULL);
	old_pipe = signal(SIGPIPE, SIG_IGN);
	if (pipe(p) < 0) {
		tar_cannot(x->t, "pipe", "create", errno);
		signal(SIGPIPE, old_pipe);
		return -1;
	}
	child = fork();
	if (child < 0) {
		tar_fatal(x->t, errno, "cannot fork");
		close(p[0]);
		close(p[1]);
		signal(SIGPIPE, old_pipe);
		return -1;
	}
	if (child == 0) {
		signal(SIGPIPE, SIG_DFL);
		close(p[1]);
		if (p[0] != STDIN_FILENO && (dup2(p[0], STDIN_FILENO) < 0 || close(p[0]) < 0))
			_exit(127);
		set_env(x, e, name);
		execl("/bin/sh", "sh", "-c", x->t->opt.to_command, (char *)NULL);
		fprintf(stderr, "%s: %s: Cannot execute: %s\n", x->t->diag->prog, "/bin/sh",
		        strerror(errno));
		_exit(127);
	}
	close(p[0]);
	x->pipe_fd = p[1];
	return 0;
}

void xcommand_end(struct extract *x)
{
	struct tar *t = x->t;
	int status;
	if (x->pipe_fd != STDOUT_FILENO)
		close(x->pipe_fd);
	x->pipe_fd = STDOUT_FILENO;
	if (child < 0)
		return;
	signal(SIGPIPE, old_pipe);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			tar_error(t, errno, "waitpid");
			child = -1;
			return;
		}
	unsigned long pid = (unsigned long)child;
	child = -1;
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) && !t->opt.ignore_command_error)
			tar_error(t, 0, "%lu: Child returned status %d", pid, WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		tar_warn(t, 0, "%lu: Child terminated on signal %d", pid, WTERMSIG(status));
	} else {
		tar_error(t, 0, "%lu: Child terminated abnormally", pid);
	}
}
