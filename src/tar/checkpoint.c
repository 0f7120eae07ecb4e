/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * checkpoint.c: --checkpoint[=N] and --checkpoint-action. As in GNU tar a
 * checkpoint is every Nth record (--record-size, 10 KiB by default) of the
 * tar stream written or read, compressed or not, the last partial record
 * counted whole; the actions run in the order given, "echo" when none was.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tar.h"
#include "writer.h"

enum ckpt_kind { CK_DOT, CK_ECHO, CK_TTYOUT, CK_EXEC };

struct ckpt_action {
	enum ckpt_kind kind;
	const char *arg; /* ECHO (NULL: GNU's words), TTYOUT, EXEC */
};

static int add_action(struct tar *t, enum ckpt_kind kind, const char *arg)
{
	struct tar_checkpoint *c = &t->ckpt;
	struct ckpt_action *v = reallocarray(c->v, c->n + 1, sizeof(*v));
	if (!v) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return 0;
	}
	c->v = v;
	c->v[c->n++] = (struct ckpt_action){ kind, arg };
	return 1;
}

/* --checkpoint[=[.]N]: N read as C reads it (010 is 8, 0x10 16); a
 * leading '.' is GNU tar's old way to ask for dots, an action in its place
 * among the others; N 0 (or none after the dot) then means 10. */
int checkpoint_set(struct tar *t, const char *n)
{
	if (n && *n == '.') {
		if (!add_action(t, CK_DOT, NULL))
			return 0;
		n++;
	}
	char *end;
	errno = 0;
	unsigned long long v = n ? strtoull(n, &end, 0) : 10;
	if (n && (errno || *end)) {
		tar_fatal(t, 0, "--checkpoint value is not an integer");
		return 0;
	}
	t->ckpt.every = v;
	return 1;
}

int checkpoint_action(struct tar *t, const char *a)
{
	if (strcmp(a, "dot") == 0 || strcmp(a, ".") == 0)
		return add_action(t, CK_DOT, NULL);
	if (strcmp(a, "echo") == 0)
		return add_action(t, CK_ECHO, NULL);
	if (strncmp(a, "echo=", 5) == 0)
		return add_action(t, CK_ECHO, a + 5);
	if (strncmp(a, "ttyout=", 7) == 0)
		return add_action(t, CK_TTYOUT, a + 7);
	if (strncmp(a, "exec=", 5) == 0)
		return add_action(t, CK_EXEC, a + 5);
	tar_fatal(t, 0, "%s: unknown checkpoint action", a);
	return 0;
}

/* s with %u (the checkpoint) and %s ("write" or "read") expanded; other
 * sequences stay as they are. Returns NULL when memory ran out. */
static char *expand(const char *s, uint64_t n, bool writing)
{
	struct strbuf b = { 0 };
	char num[24];
	snprintf(num, sizeof(num), "%" PRIu64, n);
	int r = 0;
	for (; *s && r == 0; s++) {
		if (s[0] == '%' && s[1] == 'u')
			r = sb_addstr(&b, num), s++;
		else if (s[0] == '%' && s[1] == 's')
			r = sb_addstr(&b, writing ? "write" : "read"), s++;
		else
			r = sb_addc(&b, *s);
	}
	if (r == 0 && sb_addstr(&b, "") == 0)
		return b.s;
	sb_free(&b);
	return NULL;
}

static void tty_out(const char *s)
{
	int fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return; /* no terminal: nothing to say it on */
	if (write(fd, s, strlen(s)) < 0) {
		/* nothing to do: a terminal that went away */
	}
	close(fd);
}

/* Run cmd with GNU tar's environment for checkpoint scripts. */
static void run_exec(struct tar *t, const char *cmd, uint64_t n, bool writing)
{
	static const char *formats[] = { "gnu", "gnu", "posix", "ustar", "v7" };
	char num[24], bf[24];
	snprintf(num, sizeof(num), "%" PRIu64, n);
	snprintf(bf, sizeof(bf), "%zu", t->opt.record_size / 512);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("TAR_VERSION", "1.34", 1);
		setenv("TAR_ARCHIVE", t->opt.archive, 1);
		setenv("TAR_CHECKPOINT", num, 1);
		setenv("TAR_BLOCKING_FACTOR", bf, 1);
		setenv("TAR_SUBCOMMAND", writing ? "-c" : t->opt.mode == MODE_LIST ? "-t" : "-x", 1);
		setenv("TAR_FORMAT", formats[writing ? writer_format(&t->opt) : t->opt.format], 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		tar_error(t, errno, "cannot fork");
		return;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

static void run_actions(struct tar *t, uint64_t n, bool writing)
{
	struct tar_checkpoint *c = &t->ckpt;
	if (!c->n && !add_action(t, CK_ECHO, NULL))
		return;
	for (size_t i = 0; i < c->n; i++) {
		const struct ckpt_action *a = &c->v[i];
		if (a->kind == CK_DOT) {
			fputc('.', t->listing);
			fflush(t->listing);
			continue;
		}
		if (a->kind == CK_EXEC) {
			run_exec(t, a->arg, n, writing);
			continue;
		}
		char *s = a->arg ? expand(a->arg, n, writing) : NULL;
		if (a->kind == CK_TTYOUT && s)
			tty_out(s);
		else if (a->kind == CK_ECHO && s)
			tar_note(t, 0, "%s", s);
		else if (a->kind == CK_ECHO)
			tar_note(t, 0, "%s checkpoint %" PRIu64, writing ? "Write" : "Read", n);
		free(s);
	}
}

void checkpoint_bytes(struct tar *t, uint64_t bytes, bool writing, bool end)
{
	struct tar_checkpoint *c = &t->ckpt;
	uint64_t r = t->opt.record_size;
	/* every byte of the archive is counted here: --totals=SIGNAL's too */
	totals_poll(t, bytes, writing);
	/* an action with no N (or 0) means every 10 records, as GNU's */
	uint64_t every = c->every ? c->every : c->n ? 10 : 0;
	if (!every || !r)
		return;
	uint64_t records = end ? (bytes + r - 1) / r : bytes / r;
	while (c->done < records && !t->fatal) {
		if (++c->done % every == 0)
			run_actions(t, c->done, writing);
	}
}

void checkpoint_free(struct tar *t)
{
	free(t->ckpt.v);
	t->ckpt.v = NULL;
	t->ckpt.n = 0;
}
