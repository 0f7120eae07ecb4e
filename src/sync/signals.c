/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signals.c: SIGINT, SIGTERM and SIGHUP end sweep-sync as they end rsync:
 * the temporary file being written (.NAME.XXXXXX) is removed, so that an
 * interrupted run leaves nothing but whole files behind, and the exit
 * status is rsync's 20, with its words. --timeout is a watch on the
 * same terms: a tick each second looks whether the run did anything
 * (met an entry, wrote a chunk of data) since the last; after as many
 * idle seconds as the timeout, the run ends with rsync's 30. Over a
 * remote shell both ends keep the watch, and every frame or byte that
 * moves on the connection is life (wire.c).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "sync.h"

#define SYNC_SIGNALLED 20
#define SYNC_TIMEOUT 30

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

static char timeout_message[256];
static volatile size_t timeout_len;
static unsigned timeout_seconds;
static volatile sig_atomic_t alive_count;
static sig_atomic_t seen_count, idle_seconds;

void sync_alive(void *arg)
{
	(void)arg;
	alive_count++;
}

static void on_tick(int sig)
{
	(void)sig;
	if (alive_count != seen_count) {
		seen_count = alive_count;
		idle_seconds = 0;
		return;
	}
	if ((unsigned)++idle_seconds < timeout_seconds)
		return;
	copy_remove_temp(copying);
	if (write(STDERR_FILENO, timeout_message, timeout_len) < 0) {
		/* nothing left to tell it to */
	}
	_exit(SYNC_TIMEOUT);
}

void sync_signals_timeout(const char *prog, unsigned seconds, const char *role)
{
	if (!seconds)
		return;
	int n = snprintf(timeout_message, sizeof(timeout_message),
	                 "%s io timeout after %u seconds -- exiting\n"
	                 "%s error: timeout in data send/receive (code %d)\n", role, seconds, prog,
	                 SYNC_TIMEOUT);
	timeout_len = n > 0 && (size_t)n < sizeof(timeout_message) ? (size_t)n : 0;
	timeout_seconds = seconds;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigfillset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval tick = { { 1, 0 }, { 1, 0 } };
	setitimer(ITIMER_REAL, &tick, NULL);
}
