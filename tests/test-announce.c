/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-announce.c: the thread that makes the data phase's announcements
 * (lib/announce.c): it takes what its queue has room for and no more (the
 * caller announces the rest itself), closes every duplicate it was given,
 * announced or dropped at the stop, and a walk without it (NULL) or in a
 * child of fork() announces itself. Every job is taken without a stop
 * to push it: the thread, once asleep, wakes for the next one.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "internal.h"
#include "owner.h"

static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* d's own */
}

static int temp_file(void)
{
	char path[] = "/tmp/test-announce.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, "data", 4), 4);
	return fd;
}

static void takes_what_fits_and_closes_all(void **state)
{
	(void)state;
	int fd = temp_file(), before = open_fds();
	struct sw_announcer *a = sw_announcer_start(4);
	assert_non_null(a);
	int taken = 0;
	for (int i = 0; i < 200; i++)
		taken += sw_announce(a, fd, 0, 4);
	assert_true(taken >= 4);   /* at least a queue's worth */
	assert_true(taken <= 200);
	sw_announcer_stop(a);
	assert_int_equal(open_fds(), before); /* every duplicate closed */
	close(fd);
}

static void none_or_not_ours_announces_nothing(void **state)
{
	(void)state;
	int fd = temp_file();
	assert_false(sw_announce(NULL, fd, 0, 4));
	assert_null(sw_announcer_start(0));
	struct sw_announcer *a = sw_announcer_start(4);
	assert_non_null(a);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* no thread here: the caller must announce, and the
	                   stop must not wait for it (alarm: a hang fails) */
		alarm(5);
		bool announced = sw_announce(a, fd, 0, 4);
		sw_announcer_stop(a);
		_exit(announced ? 1 : 0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	sw_announcer_stop(a);
	close(fd);
}

/* The owner is this process, not a child of fork(); told without a
 * system call where the kernel empties a page in the child, and with
 * getpid() otherwise (both ways checked). */
static void owner_here_not_in_a_child(void **state)
{
	(void)state;
	struct sw_owner marked, plain;
	sw_owner_init(&marked);
	if (!marked.mark)
		print_message("no MADV_WIPEONFORK here: the page is not tested\n");
	sw_owner_init(&plain);
	sw_owner_fini(&plain); /* no page: the pid alone */
	assert_true(sw_owner_here(&marked));
	assert_true(sw_owner_here(&plain));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(sw_owner_here(&marked) || sw_owner_here(&plain) ? 1 : 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(sw_owner_here(&marked)); /* the parent's page keeps its mark */
	sw_owner_fini(&marked);
}

/* Whether the open descriptors come back to n within five seconds. */
static bool fds_come_back_to(int n)
{
	for (int i = 0; i < 500; i++) {
		if (open_fds() == n)
			return true;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return false;
}

/* Jobs given one at a time, each after the thread went back to sleep, and
 * then in bursts: each is taken (its duplicate closed) with no stop to
 * flush it, so no wake-up was lost between the thread's last look at the
 * queue and its wait. */
static void wakes_for_each_job(void **state)
{
	(void)state;
	int fd = temp_file(), before = open_fds();
	struct sw_announcer *a = sw_announcer_start(4);
	assert_non_null(a);
	for (int i = 0; i < 50; i++) {
		assert_true(sw_announce(a, fd, 0, 4));
		assert_true(fds_come_back_to(before));
	}
	for (int i = 0; i < 200; i++) {
		while (!sw_announce(a, fd, 0, 4))
			; /* full: the thread takes one soon */
		if (i % 16 == 15)
			assert_true(fds_come_back_to(before));
	}
	assert_true(fds_come_back_to(before));
	sw_announcer_stop(a);
	assert_int_equal(open_fds(), before);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(takes_what_fits_and_closes_all),
		cmocka_unit_test(none_or_not_ours_announces_nothing),
		cmocka_unit_test(owner_here_not_in_a_child),
		cmocka_unit_test(wakes_for_each_job),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
