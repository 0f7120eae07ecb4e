/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * server.c: sweep-sync --server [--sender] OPTIONS -- PATH..., the far end
 * of a remote shell (remote.c). Its standard input and output are the
 * connection, so what it would print goes to a temporary file and back to
 * the near end in W_OUTPUT frames at the end, before its status (W_DONE);
 * its messages go to standard error, which the remote shell carries back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "wire.h"
#include "sync.h"


/* What was printed (the file at fd), back to the near end. */
static int send_output(struct wire *w, int fd)
{
	char buf[64 << 10];
	struct wire_frame f = { STRBUF_INIT };
	int r = lseek(fd, 0, SEEK_SET) < 0 ? -1 : 0;
	ssize_t n;
	while (r == 0 && (n = read(fd, buf, sizeof(buf))) > 0) {
		wire_begin(&f, W_OUTPUT);
		sb_add(&f.b, buf, (size_t)n);
		r = wire_send(w, &f);
	}
	sb_free(&f.b);
	return r;
}

static int send_done(struct sync *s, struct wire *w)
{
	struct wire_frame f = { STRBUF_INIT };
	wire_begin(&f, W_DONE);
	wire_u8(&f, (uint8_t)((s->partial || s->diag->status ? DONE_PARTIAL : 0) |
	                      (s->vanished ? DONE_VANISHED : 0) |
	                      (s->dest_status == SYNC_FILESELECT ? DONE_FILESELECT : 0) |
	                      (s->dest_status == SYNC_FILEIO ? DONE_FILEIO : 0) |
	                      (s->skipped_deletes ? DONE_DEL_LIMIT : 0)));
	int r = wire_send(w, &f);
	sb_free(&f.b);
	return r < 0 ? -1 : wire_flush(w);
}

/* Standard output to a temporary file: the connection's descriptor, or -1. */
static int divert_stdout(int *saved)
{
	FILE *tmp = tmpfile();
	*saved = dup(STDOUT_FILENO);
	if (!tmp || *saved < 0 || fflush(stdout) != 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
		int err = errno;
		if (tmp)
			fclose(tmp);
		if (*saved >= 0)
			close(*saved);
		errno = err;
		return -1;
	}
	fclose(tmp); /* its descriptor lives on as standard output */
	return 0;
}

void server_run(struct sync *s)
{
	int conn;
	if ((!s->sender && s->nfiles != 1) || (s->sender && s->nfiles < 1)) {
		diag_error(s->diag, 0, "--server: wrong number of paths");
		s->usage_error = true;
		return;
	}
	if (divert_stdout(&conn) < 0) {
		report_error(s, errno, "--server: cannot set aside standard output");
		return;
	}
	signal(SIGPIPE, SIG_IGN);
	struct wire w;
	if (wire_init(&w, STDIN_FILENO, conn, s->diag->prog, "the near end") < 0) {
		report_error(s, ENOMEM, "--server");
		close(conn);
		return;
	}
	remote_wire_options(s, &w);
	int r = wire_greet(&w);
	if (r == 0 && s->sender && s->files_from)
		r = files_from_recv(s, &w);
	if (r == 0)
		r = s->sender ? send_trees(s, &w, s->files, s->nfiles) : recv_trees(s, &w, s->files[0], 0);
	if (r == 0 && !s->sender) {
		/* its report is the near end's (a push): what that end sent
		 * is what came here */
		s->wire_counted = true;
		s->wire_sent = w.received;
		s->wire_received = w.sent;
		s->wire_list = w.list_bytes;
		if (s->info[INFO_STATS] >= 2)
			report_stats(s);
		report_end(s);
		report_deletes_stopped(s);
	}
	fflush(stdout);
	if (r == 0 && send_output(&w, STDOUT_FILENO) == 0)
		r = send_done(s, &w);
	if (r < 0)
		s->protocol_error = true;
	wire_free(&w);
	close(conn);
}
