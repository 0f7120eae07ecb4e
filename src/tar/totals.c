/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * totals.c: --totals, GNU tar's last line of the bytes moved and the
 * rate (--progress is src/common/progress.c); --totals=SIGNAL, the same
 * line whenever SIGNAL comes, instead of at the end.
 *
 * The handler only notes that the signal came: the line is printed by the
 * next count of the archive's bytes (checkpoint_bytes(), every write and
 * read of the archive), where printing is safe.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "human.h"
#include "tar.h"

void totals_print(const char *label, uint64_t n, const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double s = progress_seconds(start, &now);
	unsigned h = HUMAN_AUTOSCALE | HUMAN_SUFFIX | HUMAN_BASE_1024 | HUMAN_B;
	char abbr[HUMAN_BUFSIZE], rate[HUMAN_BUFSIZE];
	human_format(n, 1, 1, h, abbr);
	if (s > 0)
		human_format((uint64_t)((double)n / s), 1, 1, h, rate);
	fflush(stdout);
	fprintf(stderr, "%s: %ju (%s, %s/s)\n", label, (uintmax_t)n, abbr, s > 0 ? rate : "?");
}

static volatile sig_atomic_t asked;

static void on_signal(int sig)
{
	(void)sig;
	asked = 1;
}

int totals_signal(struct tar *t, const char *name)
{
	static const struct { const char *name; int sig; } table[] = {
		{ "HUP", SIGHUP }, { "QUIT", SIGQUIT }, { "INT", SIGINT },
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
	};
	const char *bare = strncmp(name, "SIG", 3) == 0 ? name + 3 : name;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(bare, table[i].name) == 0) {
			t->opt.totals_signal = table[i].sig;
			return 1;
		}
	}
	tar_fatal(t, 0, "Unknown signal name: %s", name);
	return 0;
}

void totals_arm(struct tar *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->totals_start);
	if (!t->opt.totals_signal)
		return;
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(t->opt.totals_signal, &sa, NULL);
}

void totals_poll(struct tar *t, uint64_t bytes, bool writing)
{
	if (!asked)
		return;
	asked = 0;
	totals_print(writing ? "Total bytes written" : "Total bytes read", bytes,
	             &t->totals_start);
}
