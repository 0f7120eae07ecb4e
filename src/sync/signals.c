/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signals.c: SIGINT, SIGTERM and SIGHUP end sweep-sync as they end rsync:
 * the temporary file being written (.NAME.XXXXXX) is removed, so that an
 * interrupted run leaves nothing but whole files behind, and the exit
 * status is rsync's 20, with its words.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"

#define SYNC_SIGNALLED 20

/* What the handler needs, set before any signal can need it. */
static struct copy *volatile copying;
static char message[256];
static volatile size_t message_len;

static void on_signal(int sig)
{
	(void)sig;
	copy_remove_temp(copying);
	if (write(STDERR_FILENO, message, message_len) < 0) {
		/* nothing left to tell it to */
	}
	_exit(SYNC_SIGNALLED);
}

void sync_signals_init(const char *prog)
{
	int n = snprintf(message, sizeof(message),
	                 "%s error: received SIGINT, SIGTERM, or SIGHUP (code %d)\n", prog,
	                 SYNC_SIGNALLED);
	message_len = n > 0 && (size_t)n < sizeof(message) ? (size_t)n : 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	/* even where ignored on entry (a shell's background job ignores
	 * SIGINT), as rsync does */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void sync_signals_copy(struct copy *c)
{
	copying = c;
}
