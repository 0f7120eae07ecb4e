/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * thread.c: the copy engine's threads (behind.c, writer.c) start with every
 * signal blocked: signals stay the walk's thread's to take (sweep-sync's
 * handlers remove the temporary file it writes, its --timeout ticks), as
 * libsweep's own threads leave them.
 */
#include <signal.h>
#include "copyint.h"

int copy_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}
