/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c: sweep-sync, a local rsync whose source is read in disk order
 * through libsweep. Module map: sync.h. Exit codes are rsync's: 0, 1 for
 * a usage error, 11 when a file could not be written at the destination
 * (the run ends there), 20 when a signal ended it (signals.c), 23 when something
 * was not transferred, 24 when only source files vanished on the way, 25
 * when --max-delete left deletions undone, 12
 * when the far end of a remote shell broke off or spoke wrongly.
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "sync.h"

#define SYNC_PARTIAL 23
#define SYNC_VANISHED 24
#define SYNC_DEL_LIMIT 25

/* rsync's last words for status (after the program's name and before
 * "(code N)"), or NULL for none: its table, as a remote shell's status
 * can be any (it is the run's, said as rsync's own). */
static const char *end_words(int status)
{
	switch (status) {
	case 0: return NULL;
	case 1: return "error: syntax or usage error";
	case 2: return "error: protocol incompatibility";
	case SYNC_FILESELECT: return "error: errors selecting input/output files, dirs";
	case 4: return "error: requested action not supported";
	case 5: return "error: error starting client-server protocol";
	case 10: return "error: error in socket IO";
	case SYNC_FILEIO: return "error: error in file IO";
	case SYNC_PROTOCOL: return "error: error in rsync protocol data stream";
	case 13: return "error: errors with program diagnostics";
	case 14: return "error: error in IPC code";
	case 15: return "error: sibling process crashed";
	case 16: return "error: sibling process terminated abnormally";
	case 19: return "error: received SIGUSR1";
	case 20: return "error: received SIGINT, SIGTERM, or SIGHUP";
	case 21: return "error: waitpid() failed";
	case 22: return "error: error allocating core memory buffers";
	case SYNC_PARTIAL: return "error: some files/attrs were not transferred (see previous errors)";
	case SYNC_VANISHED: return "warning: some files vanished before they could be transferred";
	case SYNC_DEL_LIMIT: return "error: the --max-delete limit stopped deletions";
	case 30: return "error: timeout in data send/receive";
	case 35: return "error: timeout waiting for daemon connection";
	case 124: return "error: remote shell failed";
	case 125: return "error: remote shell killed";
	case 126: return "error: remote command could not be run";
	case 127: return "error: remote command not found";
	default: return "error: unexplained error";
	}
}

/* Whether standard output is a pipe its reader closed: rsync says nothing
 * of the lines it could not write there, and its status is the run's. */
static bool reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_SHELL_ALWAYS);
	struct sync s = { .diag = &d, .started = time(NULL) };
	int status = sync_parse_options(&s, argc, argv);
	if (status < 0 && s.server) {
		/* a hang-up of the near end's shell removes the file half written */
		sync_signals_init(d.prog);
		sync_signals_timeout(d.prog, s.timeout, remote_timeout_role(&s));
		server_run(&s);
		/* the near end says how it went, with the status sent to it */
		status = s.usage_error ? 1 : s.protocol_error ? SYNC_PROTOCOL : 0;
		d.status = 0;
	} else if (status < 0) {
		/* as rsync: a reader of -v gone ("| head") ends no transfer */
		signal(SIGPIPE, SIG_IGN);
		sync_signals_init(d.prog);
		sync_signals_timeout(d.prog, s.timeout, remote_timeout_role(&s));
		report_progress_start(&s);
		report_log_open(&s);
		sync_run(&s);
		report_progress_end(&s);
		/* the receiving end reports (over a remote shell, when it is the
		 * far end, its report came back with its output) */
		if (s.info[INFO_STATS] >= 2 && !s.usage_error && !s.sender_side)
			report_stats(&s);
		if (!s.usage_error && !s.sender_side) {
			report_end(&s);
			report_deletes_stopped(&s);
		}
		/* an error of the copy itself (reported through diag by the
		 * engine) is a partial transfer to rsync, not a usage error */
		/* (the remote shell's, nonzero, is the run's: rsync's) */
		status = s.usage_error ? 1 : s.shell_status ? s.shell_status
		         : s.protocol_error ? SYNC_PROTOCOL : s.dest_status ? s.dest_status
		         : s.partial || d.status ? SYNC_PARTIAL
		         : s.vanished ? SYNC_VANISHED
		         : s.skipped_deletes || s.deletes_stopped ? SYNC_DEL_LIMIT : 0;
	}
	if ((fflush(stdout) != 0 || ferror(stdout)) && !reader_gone()) {
		diag_error(&d, errno, "write error");
		status = SYNC_PARTIAL;
	}
	const char *end = s.server && status != 1 ? NULL /* the near end says it */
	                  : end_words(status);
	char line[160];
	if (end) {
		snprintf(line, sizeof(line), "%s %s (code %d)", d.prog, end, status);
		fprintf(stderr, "%s\n", line);
	}
	report_log_close(&s, end ? line : NULL);
	filter_free(&s);
	chmod_free(&s);
	chown_free(&s);
	linkdest_free(&s);
	remote_free(&s);
	backups_free(&s);
	sb_free(&s.name);
	sb_free(&s.name2);
	sb_free(&s.abspath);
	sb_free(&s.from_names);
	sb_free(&s.relative_base);
	sb_free(&s.removals);
	keymap_free(&s.first_names);
	keymap_free(&s.inplace_found);
	keymap_free(&s.prune_kept);
	free(s.inplace_stats);
	diag_free(&d);
	return status;
}
